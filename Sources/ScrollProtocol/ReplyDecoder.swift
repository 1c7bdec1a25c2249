/// Decodes the daemon's lines for clients. Keys a reply does not need are ignored and an
/// unknown `type` is `.unknown`, so that a client keeps working against a newer daemon; a
/// line that is not JSON, or lacks a key its type requires, is a `bad_request` error (the
/// code only classifies the problem: nothing is sent back).
public enum ReplyDecoder {
    public static func decode(_ line: UnsafeRawBufferPointer) throws(ProtocolError) -> Reply {
        var reply = try reader(line)
        return try reply.reply()
    }

    /// A welcome line with everything it carries (``Reply/welcome(protocol:server:containers:)``
    /// keeps only what protocol 1 began with).
    public static func welcome(_ line: [UInt8]) throws(ProtocolError) -> WelcomeLine {
        try withBytes(of: line) { raw throws(ProtocolError) in
            var reply = try reader(raw)
            return try reply.welcome()
        }
    }

    public static func decode(_ line: [UInt8]) throws(ProtocolError) -> Reply {
        try withBytes(of: line) { raw throws(ProtocolError) in try decode(raw) }
    }

    public static func decode(_ line: String) throws(ProtocolError) -> Reply {
        try withBytes(of: line) { raw throws(ProtocolError) in try decode(raw) }
    }

    /// The line's keys located, ready to read as a reply.
    private static func reader(_ line: UnsafeRawBufferPointer) throws(ProtocolError) -> ReplyReader {
        var reader = ProtocolReader(line)
        var fields = ObjectFields<ReplyKey>()
        try reader.locateLine(into: &fields)
        return ReplyReader(reader: reader, fields: fields)
    }
}
