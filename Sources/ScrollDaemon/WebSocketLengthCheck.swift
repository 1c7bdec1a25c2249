import NIOCore

/// The rule of a frame's header that NIO's decoder does not keep: a 64-bit payload length has
/// its most significant bit clear (RFC 6455 §5.2). NIO takes such a length for one too large
/// to hold, the error of a frame past the line limit, which would close with 1009 (too big)
/// for what is a protocol error. In front of the decoder, this handler follows the frame
/// headers through the bytes as they come, skipping payloads without reading them, and fails
/// the connection with 1002 (``WebSocketFrameChecks/Violation``, answered by
/// ``WebSocketLines``) before the decoder sees the header; the frames before it are passed on
/// and served.
final class WebSocketLengthCheck: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    static let problem = "a 64-bit payload length with its most significant bit set"

    /// Payload bytes of the current frame still to come.
    private var payloadLeft: UInt64 = 0
    /// The next frame's header as far as it came: at most 14 bytes (two, eight of length,
    /// four of mask), the rest of it in a later read.
    private var header: [UInt8] = []
    /// The violation is reported: nothing more is passed on.
    private var failed = false

    init() {
        header.reserveCapacity(14)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !failed else { return }
        let bytes = unwrapInboundIn(data)
        guard let violation = scan(bytes) else {
            context.fireChannelRead(data)
            return
        }
        failed = true
        if violation > 0 {
            context.fireChannelRead(wrapInboundOut(bytes.getSlice(at: bytes.readerIndex, length: violation)!))
        }
        context.fireErrorCaught(WebSocketFrameChecks.Violation(message: Self.problem))
    }

    /// Follows the frames through `bytes`; the offset in them where the header of a frame that
    /// breaks the rule starts (0 when it started in an earlier read), or nil: none does.
    private func scan(_ bytes: ByteBuffer) -> Int? {
        bytes.withUnsafeReadableBytes { raw in
            var index = 0
            var frameStart = 0
            while index < raw.count {
                if payloadLeft > 0 {
                    let skipped = min(UInt64(raw.count - index), payloadLeft)
                    index += Int(skipped)
                    payloadLeft -= skipped
                    continue
                }
                if header.isEmpty { frameStart = index }
                header.append(raw[index])
                index += 1
                switch Self.length(ofHeader: header) {
                case .incomplete:
                    continue
                case .malformed:
                    return frameStart
                case .payload(let length):
                    payloadLeft = length
                    header.removeAll(keepingCapacity: true)
                }
            }
            return nil
        }
    }

    enum HeaderLength: Equatable {
        case incomplete
        /// The 64-bit length's most significant bit is set.
        case malformed
        case payload(UInt64)
    }

    /// The payload length `header` announces, once it holds the whole header.
    static func length(ofHeader header: [UInt8]) -> HeaderLength {
        guard header.count >= 2 else { return .incomplete }
        let masked = header[1] & 0x80 != 0
        let short = header[1] & 0x7F
        let lengthBytes = short == 127 ? 8 : short == 126 ? 2 : 0
        if lengthBytes == 8, header.count >= 3, header[2] & 0x80 != 0 { return .malformed }
        guard header.count == 2 + lengthBytes + (masked ? 4 : 0) else { return .incomplete }
        guard lengthBytes > 0 else { return .payload(UInt64(short)) }
        return .payload(header[2..<(2 + lengthBytes)].reduce(0) { $0 << 8 | UInt64($1) })
    }
}
