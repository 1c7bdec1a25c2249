/// Integers, floats and date-times: all written without quotes from the characters of
/// `isTokenByte`, so the token is cut first and then read with the position of each mistake.
extension TOMLParser {
    mutating func parseNumberOrDateTime() throws(TOMLError) -> TOMLValue {
        let start = index
        while let c = peek, Self.isTokenByte(c) { index += 1 }
        // `1979-05-27 07:32:00`: a space may separate the date from the time.
        if index - start == 10, isDate(at: start), peek == UInt8(ascii: " "),
           let h1 = peek(1), let h2 = peek(2), Self.isDigit(h1), Self.isDigit(h2), peek(3) == UInt8(ascii: ":") {
            index += 1
            while let c = peek, Self.isTokenByte(c) { index += 1 }
        }
        let end = index
        if end - start >= 5, isDate(at: start) { return try parseDateTime(start, end) }
        if end - start >= 3, Self.isDigit(bytes[start]), Self.isDigit(bytes[start + 1]), bytes[start + 2] == UInt8(ascii: ":") {
            var p = start
            let time = try parseTime(&p, end)
            guard p == end else { throw error("unexpected \(found(at: p)) in the local time", at: p) }
            return .localTime(time)
        }
        return try parseNumber(start, end)
    }

    private static func isTokenByte(_ c: UInt8) -> Bool {
        TOMLKey.isBareKeyByte(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
    }

    private func isDate(at start: Int) -> Bool {
        start + 4 < bytes.count && (0..<4).allSatisfy { Self.isDigit(bytes[start + $0]) } && bytes[start + 4] == UInt8(ascii: "-")
    }

    // MARK: Numbers

    private func parseNumber(_ start: Int, _ end: Int) throws(TOMLError) -> TOMLValue {
        var p = start
        var negative = false
        if bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-") {
            negative = bytes[p] == UInt8(ascii: "-")
            p += 1
        }
        let body = bytes[p..<end]
        if let value = Self.plainInteger(body, negative: negative) { return .integer(value) }
        if body.elementsEqual("inf".utf8) { return .float(negative ? -.infinity : .infinity) }
        if body.elementsEqual("nan".utf8) { return .float(negative ? -.nan : .nan) }
        if body.count >= 2, bytes[p] == UInt8(ascii: "0"), let radix = Self.radix(bytes[p + 1]) {
            guard p == start else { throw error("a hexadecimal, octal or binary integer cannot have a sign", at: start) }
            p += 2
            let digits = try readDigits(&p, end, radix: radix)
            guard p == end else { throw error("unexpected \(found(at: p)) in the integer", at: p) }
            guard let value = Int64(String(decoding: digits, as: UTF8.self), radix: radix) else {
                throw error("the integer does not fit in 64 bits", at: start)
            }
            return .integer(value)
        }
        let integerStart = p
        let integer = try readDigits(&p, end, radix: 10)
        if integer.count > 1, integer[0] == UInt8(ascii: "0") {
            throw error("a number cannot start with a zero (leading zeros are not allowed)", at: integerStart)
        }
        var text = (negative ? "-" : "") + String(decoding: integer, as: UTF8.self)
        var isFloat = false
        if p < end, bytes[p] == UInt8(ascii: ".") {
            isFloat = true
            p += 1
            text += "." + String(decoding: try readDigits(&p, end, radix: 10, after: "the decimal point"), as: UTF8.self)
        }
        if p < end, bytes[p] == UInt8(ascii: "e") || bytes[p] == UInt8(ascii: "E") {
            isFloat = true
            p += 1
            text += "e"
            if p < end, bytes[p] == UInt8(ascii: "+") || bytes[p] == UInt8(ascii: "-") {
                text += bytes[p] == UInt8(ascii: "-") ? "-" : "+"
                p += 1
            }
            text += String(decoding: try readDigits(&p, end, radix: 10, after: "the exponent"), as: UTF8.self)
        }
        guard p == end else { throw error("unexpected \(found(at: p)) in the number", at: p) }
        if isFloat {
            guard let value = Double(text) else { throw error("the float cannot be read", at: start) }
            return .float(value)
        }
        guard let value = Int64(text) else { throw error("the integer does not fit in 64 bits", at: start) }
        return .integer(value)
    }

    /// The value of a plain decimal integer of at most 18 digits (no underscore, no leading
    /// zero): the common number, a list of ten million row heights' each, read without making
    /// a string. Anything else is nil, and read (or refused) by the general path.
    private static func plainInteger(_ digits: ArraySlice<UInt8>, negative: Bool) -> Int64? {
        guard (1...18).contains(digits.count), digits.count == 1 || digits.first != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for c in digits {
            guard isDigit(c) else { return nil }
            value = value &* 10 &+ Int64(c &- UInt8(ascii: "0"))
        }
        return negative ? -value : value
    }

    private static func radix(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "x"): return 16
        case UInt8(ascii: "o"): return 8
        case UInt8(ascii: "b"): return 2
        default: return nil
        }
    }

    /// One or more digits of `radix`, with single underscores between digits; the digits only.
    private func readDigits(_ p: inout Int, _ end: Int, radix: Int, after what: String? = nil) throws(TOMLError) -> [UInt8] {
        func isDigit(_ c: UInt8) -> Bool { Self.hexValue(c).map { $0 < radix } ?? false }
        guard p < end, isDigit(bytes[p]) else {
            let place = what.map { " after \($0)" } ?? ""
            throw error("expected a digit\(place), found \(p < end ? found(at: p) : found(at: end))", at: p)
        }
        var digits: [UInt8] = []
        while p < end {
            if isDigit(bytes[p]) {
                digits.append(bytes[p])
            } else if bytes[p] == UInt8(ascii: "_") {
                guard p + 1 < end, isDigit(bytes[p + 1]) else {
                    throw error("an underscore in a number must be between two digits", at: p)
                }
            } else {
                break
            }
            p += 1
        }
        return digits
    }

    // MARK: Dates and times

    /// `YYYY-MM-DD`, then perhaps `T`, `t` or a space and a time, then perhaps `Z`, `z` or
    /// `±HH:MM`.
    private func parseDateTime(_ start: Int, _ end: Int) throws(TOMLError) -> TOMLValue {
        var p = start
        let year = try number(&p, end, digits: 4, "year")
        try expect(&p, end, "-", "between year and month")
        let month = try twoDigits(&p, end, "month", in: 1...12)
        try expect(&p, end, "-", "between month and day")
        let day = try twoDigits(&p, end, "day", in: 1...TOMLDate.days(inMonth: month, year: year), " in that month")
        let date = TOMLDate(year: year, month: month, day: day)
        guard p < end else { return .localDate(date) }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[p]) else {
            throw error("expected 'T' between the date and the time, found \(found(at: p))", at: p)
        }
        p += 1
        let time = try parseTime(&p, end)
        guard p < end else { return .localDateTime(TOMLLocalDateTime(date: date, time: time)) }
        var offset = 0
        switch bytes[p] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            p += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = bytes[p] == UInt8(ascii: "-") ? -1 : 1
            p += 1
            let hours = try twoDigits(&p, end, "offset's hours", in: 0...23)
            try expect(&p, end, ":", "in the offset")
            let minutes = try twoDigits(&p, end, "offset's minutes", in: 0...59)
            offset = sign * (hours * 60 + minutes)
        default:
            throw error("expected 'Z' or an offset (+HH:MM) after the time, found \(found(at: p))", at: p)
        }
        guard p == end else { throw error("unexpected \(found(at: p)) after the date-time", at: p) }
        return .offsetDateTime(TOMLOffsetDateTime(date: date, time: time, offsetMinutes: offset))
    }

    /// `HH:MM:SS`, perhaps with a fraction of a second.
    func parseTime(_ p: inout Int, _ end: Int) throws(TOMLError) -> TOMLTime {
        let hour = try twoDigits(&p, end, "hour", in: 0...23)
        try expect(&p, end, ":", "between hour and minute")
        let minute = try twoDigits(&p, end, "minute", in: 0...59)
        try expect(&p, end, ":", "between minute and second (TOML 1.0 requires seconds)")
        let second = try twoDigits(&p, end, "second", in: 0...60)
        var nanosecond = 0
        if p < end, bytes[p] == UInt8(ascii: ".") {
            p += 1
            guard p < end, Self.isDigit(bytes[p]) else {
                throw error("expected a digit after the decimal point of the seconds, found \(found(at: min(p, end)))", at: p)
            }
            var scale = 100_000_000
            while p < end, Self.isDigit(bytes[p]) {
                nanosecond += Int(bytes[p] - UInt8(ascii: "0")) * scale
                scale /= 10
                p += 1
            }
        }
        return TOMLTime(hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    private func number(_ p: inout Int, _ end: Int, digits: Int, _ what: String) throws(TOMLError) -> Int {
        var value = 0
        for _ in 0..<digits {
            guard p < end, Self.isDigit(bytes[p]) else {
                throw error("expected \(digits) digits for the \(what), found \(found(at: min(p, end)))", at: p)
            }
            value = value * 10 + Int(bytes[p] - UInt8(ascii: "0"))
            p += 1
        }
        return value
    }

    /// A two-digit field of a date or time (`month`, `offset's hours`, …) that must lie in
    /// `range`; out of it, the error names the range (`the month must be 01 to 12`, then `suffix`)
    /// at the field's first digit.
    private func twoDigits(_ p: inout Int, _ end: Int, _ what: String, in range: ClosedRange<Int>, _ suffix: String = "") throws(TOMLError) -> Int {
        let start = p
        let value = try number(&p, end, digits: 2, what)
        guard range.contains(value) else {
            func padded(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
            throw error("the \(what) must be \(padded(range.lowerBound)) to \(padded(range.upperBound))\(suffix)", at: start)
        }
        return value
    }

    private func expect(_ p: inout Int, _ end: Int, _ c: Unicode.Scalar, _ what: String) throws(TOMLError) {
        guard p < end, bytes[p] == UInt8(ascii: c) else {
            throw error("expected '\(c)' \(what), found \(found(at: min(p, end)))", at: p)
        }
        p += 1
    }
}
