import ScrollJSON

/// A request the daemon cannot carry out, as its error reply states it: the reply is
/// `{"type":"error","id":…,"code":…,"message":…}`, without `id` when the request had none (or
/// it could not be recovered).
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    /// One line for a human; it names the offending key or op.
    public var message: String
    public var id: RequestID?

    /// `message` has its control characters (a newline in a name a client sent, say) written
    /// as escapes: every message is one line, whatever it quotes.
    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = Self.oneLine(message)
        self.id = id
    }

    static func oneLine(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result.append(contentsOf: #"\n"#.unicodeScalars)
            case "\r": result.append(contentsOf: #"\r"#.unicodeScalars)
            case "\t": result.append(contentsOf: #"\t"#.unicodeScalars)
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result.append(contentsOf: ("\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex).unicodeScalars)
            }
        }
        return String(result)
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func unknownContainer(_ name: String, id: RequestID? = nil) -> ProtocolError {
        ProtocolError(.unknownContainer, "unknown container \(quoted(name))", id: id)
    }

    public static func tooLarge(limit: Int = WireProtocol.maximumLineLength) -> ProtocolError {
        ProtocolError(.tooLarge, "line longer than \(limit) bytes")
    }

    public static func forbidden(uid: UInt32) -> ProtocolError {
        ProtocolError(.forbidden, "uid \(uid) may not connect")
    }

    // MARK: The decoders' errors

    static func syntax(_ error: JSONError) -> ProtocolError {
        ProtocolError(.badRequest, "invalid JSON: \(error)")
    }

    static func notAnObject(_ kind: JSONValueKind) -> ProtocolError {
        ProtocolError(.badRequest, "expected a JSON object, got \(kind.article)")
    }

    static func missing(_ key: String) -> ProtocolError {
        ProtocolError(.badRequest, "missing \(quoted(key))")
    }

    static func invalid(_ key: String, expected: String, found: String, code: ErrorCode = .invalidValue) -> ProtocolError {
        ProtocolError(code, "invalid \(quoted(key)): expected \(expected), got \(found)")
    }

    static func unknownKey(_ key: String, accepted: String) -> ProtocolError {
        ProtocolError(.invalidValue, "unknown key \(quoted(key)) (expected one of: \(accepted))")
    }

    /// A string in JSON quotes, cut after `limit` Unicode scalars so that a hostile name cannot
    /// make a message as long as the line (not Characters: one `a` may carry thousands of
    /// combining marks).
    package static func quoted(_ string: String, limit: Int = 40) -> String {
        var bytes: [UInt8] = []
        let (head, isCut) = scalarPrefix(string, limit: limit)
        JSONStringFormatter.append(head, to: &bytes)
        if isCut { bytes.append(contentsOf: "…".utf8) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONValueKind {
    /// The kind as an error message names it.
    var article: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
