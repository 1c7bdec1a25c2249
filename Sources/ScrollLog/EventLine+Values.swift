import ScrollJSON
import ScrollModel

/// Reading one key's value, and the errors that name it.
extension EventLine {
    // MARK: Values

    /// A touch's `slot`: a small non-negative integer (libinput's slots; docs/design.md §25).
    mutating func touchSlot() throws(EventLogError) -> Int {
        let offset = try require(.slot, "slot")
        let slot = try int(at: offset, key: "slot")
        guard slot >= 0, slot <= Self.slotLimit else {
            throw invalid("slot", at: offset, expected: "an integer between 0 and \(Self.slotLimit)")
        }
        return slot
    }

    /// The largest touch `slot` a log may hold.
    static let slotLimit = 1 << 16

    /// A touch's `x` or `y`: normalized, within [−1, 2] (a touch just off the glass still reads;
    /// libinput reports a point on it).
    mutating func coordinate(_ field: Field, _ key: String) throws(EventLogError) -> Double {
        let offset = try require(field, key)
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .number, let number = try? scanner.readNumber(),
              number.double >= -1, number.double <= 2 else {
            throw invalid(key, at: offset, expected: "a normalized coordinate between -1 and 2")
        }
        return number.double
    }

    func require(_ field: Field, _ key: String) throws(EventLogError) -> Int {
        guard let offset = offsets[field] else { throw missing(key) }
        return offset
    }

    mutating func isNull(at offset: Int) -> Bool {
        scanner.position = offset
        return (try? scanner.peekValueKind()) == .null
    }

    mutating func string(at offset: Int) -> String? {
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .string else { return nil }
        return try? scanner.readString()
    }

    mutating func integer(at offset: Int, key: String) throws(EventLogError) -> Int64 {
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .number, let number = try? scanner.readNumber() else {
            throw invalid(key, at: offset, expected: "an integer")
        }
        switch number.integerValue {
        case .exact(let value): return value
        case .fractional: throw invalid(key, at: offset, expected: "an integer")
        case .outOfRange: throw invalid(key, at: offset, expected: "an integer that fits in 64 bits")
        }
    }

    /// `t`: microseconds within ±2^53 (285 years), where a double still holds every one and
    /// no sum of a time and a duration the model makes can overflow.
    mutating func time(at offset: Int) throws(EventLogError) -> Int64 {
        let value = try integer(at: offset, key: "t")
        guard value.magnitude <= EventLine.timeLimit.magnitude else {
            throw invalid("t", at: offset, expected: "microseconds within ±\(EventLine.timeLimit) (2^53, about 285 years)")
        }
        return value
    }

    mutating func int(at offset: Int, key: String) throws(EventLogError) -> Int {
        let value = try integer(at: offset, key: key)
        guard let int = Int(exactly: value) else {
            throw invalid(key, at: offset, expected: "an integer that fits in \(Int.bitWidth) bits")
        }
        return int
    }

    /// An axis object: `x` and `y` are each present or not; `null` counts as absent. Each
    /// value read consumes it, so that the object's walk goes on after it.
    mutating func axes(at offset: Int, key: String) throws(EventLogError) -> AxisValues {
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .object else {
            throw invalid(key, at: offset, expected: "an object like {\"x\":…,\"y\":…}")
        }
        var axes = AxisValues()
        // Validated by the first pass: these calls cannot fail.
        try? scanner.beginObject()
        while let axisKey = try? scanner.nextKey() {
            let isX = scanner.key(axisKey, is: "x")
            guard isX || scanner.key(axisKey, is: "y") else {
                _ = try? scanner.skipValue()
                continue
            }
            let value = try axis(at: scanner.position, key: key + (isX ? ".x" : ".y"))
            if isX { axes.x = value } else { axes.y = value }
        }
        return axes
    }

    /// `key` is only built when there is an error to report: this runs for every axis value.
    mutating func axis(at offset: Int, key: @autoclosure () -> String) throws(EventLogError) -> Double? {
        scanner.position = offset
        switch try? scanner.peekValueKind() {
        case .null?:
            _ = try? scanner.skipNull()
            return nil
        case .number?:
            guard let number = try? scanner.readNumber(), number.double.isFinite else {
                throw invalid(key(), at: offset, expected: "a number within the range of a double")
            }
            return number.double
        default:
            throw invalid(key(), at: offset, expected: "a number")
        }
    }

    /// `caps`: the names this library knows; names it does not know are ignored, so that a
    /// newer recorder's logs still read.
    mutating func capabilities(at offset: Int) throws(EventLogError) -> DeviceCapabilities {
        let expected = "an array of strings"
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .array else { throw invalid("caps", at: offset, expected: expected) }
        var capabilities = DeviceCapabilities()
        try? scanner.beginArray()
        while (try? scanner.nextElement()) == true {
            let element = scanner.position
            guard let name = string(at: element) else { throw invalid("caps", at: offset, expected: expected) }
            for (capability, capabilityName) in DeviceCapabilities.names where capabilityName == name {
                capabilities.insert(capability)
            }
        }
        return capabilities
    }

    // MARK: Errors

    func missing(_ key: String) -> EventLogError {
        EventLogError(line: lineNumber, problem: .missingKey(key, in: record))
    }

    func invalid(_ key: String, at offset: Int, expected: String) -> EventLogError {
        EventLogError(
            line: lineNumber,
            problem: .invalidValue(key: key, in: record, expected: expected, found: found(scanner, at: offset))
        )
    }
}
