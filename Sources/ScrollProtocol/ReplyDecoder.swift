/// Decodes the daemon's lines for clients. Keys a reply does not need are ignored and an
/// unknown `type` is `.unknown`, so that a client keeps working against a newer daemon; a
/// line that is not JSON, or lacks a key its type requires, is a `bad_request` error (the
/// code only classifies the problem: nothing is sent back).
public enum ReplyDecoder {
    public static func decode(_ line: UnsafeRawBufferPointer) throws(ProtocolError) -> Reply {
        var reader = ProtocolReader(line)
        var fields = ObjectFields<ReplyKey>()
        try reader.locateLine(into: &fields)
        var reply = ReplyReader(reader: reader, fields: fields)
        return try reply.reply()
    }

    /// A welcome line with everything it carries (``Reply/welcome(protocol:server:containers:)``
    /// keeps only what protocol 1 began with).
    public static func welcome(_ line: [UInt8]) throws(ProtocolError) -> WelcomeLine {
        try line.withUnsafeBytes { raw in
            Result { () throws(ProtocolError) in
                var reader = ProtocolReader(raw)
                var fields = ObjectFields<ReplyKey>()
                try reader.locateLine(into: &fields)
                var reply = ReplyReader(reader: reader, fields: fields)
                return try reply.welcome()
            }
        }.get()
    }

    public static func decode(_ line: [UInt8]) throws(ProtocolError) -> Reply {
        try line.withUnsafeBytes { raw in Result { () throws(ProtocolError) in try decode(raw) } }.get()
    }

    public static func decode(_ line: String) throws(ProtocolError) -> Reply {
        var line = line
        return try line.withUTF8 { utf8 in
            Result { () throws(ProtocolError) in try decode(UnsafeRawBufferPointer(utf8)) }
        }.get()
    }
}
