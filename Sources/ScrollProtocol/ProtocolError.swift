import ScrollJSON

/// A request the daemon cannot carry out, as its error reply states it: the reply is
/// `{"type":"error","id":…,"code":…,"message":…}`, without `id` when the request had none (or
/// it could not be recovered).
public struct ProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    public var code: ErrorCode
    /// One line for a human; it names the offending key or op.
    public var message: String
    public var id: RequestID?

    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = message
        self.id = id
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

    /// A string in JSON quotes, cut after `limit` characters so that a hostile name cannot make
    /// a message as long as the line.
    package static func quoted(_ string: String, limit: Int = 40) -> String {
        var bytes: [UInt8] = []
        var shown = Substring(string)
        if let cut = string.index(string.startIndex, offsetBy: limit, limitedBy: string.endIndex), cut != string.endIndex {
            shown = string[..<cut]
        }
        JSONStringFormatter.append(String(shown), to: &bytes)
        if shown.endIndex != string.endIndex { bytes.append(contentsOf: "…".utf8) }
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
