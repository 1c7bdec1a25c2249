import ScrollProtocol

/// `RequestDecoder` on any bytes, as the daemon calls it on every line a client sends.
///
/// Invariants: a decoded request re-encodes (`RequestEncoder`) to a line that decodes to the
/// same request, and that line is a fixed point; a refusal is one of the decoder's codes, its
/// message stays short whatever the line, the `id` it echoes is the client's own text, and its
/// error reply is one line that a client decodes back to the same error.
enum RequestDecoderFuzz {
    /// The longest refusal message: messages quote at most 40 characters of the client's text,
    /// so they must not grow with the line.
    static let messageLimit = 1024

    static func run(_ line: UnsafeRawBufferPointer) {
        do {
            let request = try RequestDecoder.decode(line)
            let encoded = RequestEncoder.encode(request)
            let decoded: Request
            do {
                decoded = try RequestDecoder.decode(encoded)
            } catch {
                require(false, "the re-encoded request \(encoded) is refused: \(error)")
                return
            }
            require(decoded == request, "\(encoded) decodes to \(decoded), not \(request)")
            require(RequestEncoder.encode(decoded) == encoded, "re-encoding \(encoded) is not stable")
        } catch {
            require([.badRequest, .unknownOp, .invalidValue].contains(error.code), "unexpected code \(error.code)")
            require(!error.message.isEmpty, "empty message")
            require(error.message.utf8.count <= messageLimit, "a \(error.message.utf8.count)-byte message")
            if let id = error.id {
                // Objects and arrays are compacted; scalars are the client's bytes verbatim.
                let first = id.json.utf8.first
                if first != UInt8(ascii: "{") && first != UInt8(ascii: "[") {
                    require(contains(line, id.json.utf8), "id \(id.json) is not in the line")
                }
            }
            var reply: [UInt8] = []
            ReplyEncoder.error(error, into: &reply)
            require(!reply.contains(UInt8(ascii: "\n")), "the error reply spans lines")
            let decoded = try? ReplyDecoder.decode(reply)
            let expected = Reply.error(code: error.code.rawValue, message: error.message, id: error.id)
            require(decoded == expected, "the error reply \(String(decoding: reply, as: UTF8.self)) decodes to \(String(describing: decoded))")
        }
    }

    private static func contains(_ haystack: UnsafeRawBufferPointer, _ needle: String.UTF8View) -> Bool {
        let needle = Array(needle)
        guard needle.count <= haystack.count else { return false }
        if needle.isEmpty { return true }
        for start in 0...(haystack.count - needle.count)
        where haystack[start] == needle[0] && haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
