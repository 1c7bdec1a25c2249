import ScrollModel

/// `scrollTo`'s position (docs/design.md §12) and `observe`'s observation (§13), read from a
/// request.
extension RequestReader {
    /// Coordinates, a row with an optional anchor, an edge: at least one of them. Whether they
    /// fit the container (rows, axes) is the container's to say.
    mutating func position() throws(ProtocolError) -> ScrollPosition {
        var position = ScrollPosition()
        if let range = reader.present(fields[.x]) { position.point.x = try reader.quantity(at: range, key: "x") }
        if let range = reader.present(fields[.y]) { position.point.y = try reader.quantity(at: range, key: "y") }
        if let range = reader.present(fields[.row]) {
            let expected = "a row index (an integer from 0)"
            let row = try reader.int(at: range, key: "row", expected: expected)
            guard row >= 0 else { throw reader.invalid("row", at: range, expected: expected) }
            position.row = row
        }
        if let range = reader.present(fields[.anchor]) {
            let expected = "top, center, bottom, leading, trailing or a number from 0 to 1"
            let anchor: ScrollAnchor?
            switch reader.kind(at: range) {
            case .string: anchor = try? ScrollAnchor(named: try reader.string(at: range, key: "anchor", expected: expected))
            case .number: anchor = try? ScrollAnchor(try reader.number(at: range, key: "anchor", expected: expected))
            default: anchor = nil
            }
            guard let anchor else { throw reader.invalid("anchor", at: range, expected: expected) }
            position.anchor = anchor
        }
        if let range = reader.present(fields[.edge]) {
            let expected = "top, bottom, leading or trailing"
            guard let edge = Edge(rawValue: try reader.string(at: range, key: "edge", expected: expected)) else {
                throw reader.invalid("edge", at: range, expected: expected)
            }
            position.edge = edge
        }
        if position.anchor != nil, position.row == nil, let range = fields[.anchor] {
            throw reader.invalid("anchor", at: range, expected: "an anchor together with a row (\"row\": N) to place")
        }
        guard position.point.x != nil || position.point.y != nil || position.row != nil || position.edge != nil else {
            throw ProtocolError(.badRequest, "missing \"x\", \"y\", \"row\" or \"edge\"")
        }
        return position
    }

    /// `{"op":"observe","container":C,"of":KEY,"id":I,…}`: the key and its options; the `id`
    /// is required, since it names the observation.
    mutating func observe() throws(ProtocolError) -> Operation {
        let container = try container()
        guard let idRange = fields[.id], reader.present(idRange) != nil else {
            throw ProtocolError(.badRequest, "missing \"id\" (it names the observation)")
        }
        guard let ofRange = fields[.of] else { throw .missing("of") }
        let key = try reader.string(at: ofRange, key: "of")
        var options: [(name: String, value: ScrollObservation.Option)] = []
        for field in [RequestKey.step, .row, .threshold, .distance, .axis, .edge] {
            guard let range = fields[field] else { continue }
            options.append((field.name, try option(at: range, named: field.name)))
        }
        if let unknown = fields.firstUnknown {
            throw ProtocolError(.invalidValue, "unknown option \(ProtocolError.quoted(reader.name(of: unknown.key))) for observe")
        }
        let wait = try wait()
        do throws(ObservationError) {
            let observation = try ScrollObservation(of: key, options: options)
            return .observe(container: container, observation: observation, id: RequestID(validated: reader.scanner.bytes, range: idRange), wait: wait)
        } catch {
            throw ProtocolError(.invalidValue, error.description)
        }
    }

    /// An option's JSON value as the observation reads it; an error names the option.
    private mutating func option(at range: Range<Int>, named name: String) throws(ProtocolError) -> ScrollObservation.Option {
        switch reader.kind(at: range) {
        case .number:
            if let integer = try? reader.int(at: range, key: "") { return .integer(integer) }
            // Any number, 1e300 and 1e400 (read as infinite) included: the observation refuses
            // what is out of its option's own range with that range (a step 1e-6 to 1e9).
            return .number(try reader.unboundedNumber(at: range, key: name))
        case .string:
            return .string(try reader.string(at: range, key: name))
        case .bool: return .other("a boolean")
        case .null: return .other("null")
        case .array: return .other("an array")
        default: return .other("an object")
        }
    }
}
