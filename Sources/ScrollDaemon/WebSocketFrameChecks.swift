import NIOCore
import NIOWebSocket

/// What RFC 6455 asks of each frame a client sends, checked before fragments are put together
/// (the aggregator drops a fragment's mask and reserved bits): every client frame is masked
/// (§5.1), no reserved bit is set while no extension is agreed (§5.2), the opcode is one the
/// RFC defines, and a close frame carries nothing or a code a peer may send, with a UTF-8
/// reason (§5.5.1, §7.4). A frame that fails is dropped and the connection closed with 1002
/// (``WebSocketLines``), the problem named in the close frame's reason
/// (``reason(for:)``).
final class WebSocketFrameChecks: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// The peer broke the framing rules; the message says which.
    struct Violation: Error, Equatable {
        var message: String
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var frame = unwrapInboundIn(data)
        if let problem = Self.problem(of: frame) {
            context.fireErrorCaught(Violation(message: problem))
            return
        }
        guard !frame.fin else {
            context.fireChannelRead(data)
            return
        }
        // A fragment waits in the aggregator until its message ends, and its data is a view of
        // the read that brought it: one byte held a whole read buffer (4 KiB) alive, and a
        // thousand one-byte fragments, 4 MiB per connection. A copy holds its own bytes only.
        frame.data = context.channel.allocator.buffer(buffer: frame.data)
        context.fireChannelRead(wrapInboundOut(frame))
    }

    static func problem(of frame: WebSocketFrame) -> String? {
        guard frame.maskKey != nil else { return "an unmasked frame from a client" }
        guard !frame.rsv1, !frame.rsv2, !frame.rsv3 else { return "a reserved bit set with no extension agreed" }
        switch frame.opcode {
        case .continuation, .text, .binary, .ping, .pong:
            return nil
        case .connectionClose:
            return closeProblem(frame.unmaskedData)
        default:
            return "the reserved opcode \(UInt8(webSocketOpcode: frame.opcode))"
        }
    }

    private static func closeProblem(_ payload: ByteBuffer) -> String? {
        var payload = payload
        guard payload.readableBytes > 0 else { return nil }
        guard let code = payload.readInteger(as: UInt16.self) else { return "a close frame of one byte" }
        guard isSendable(code) else { return "the close code \(code), which no endpoint may send" }
        guard String(validating: payload.readableBytesView, as: UTF8.self) != nil else { return "a close reason that is not UTF-8" }
        return nil
    }

    /// RFC 6455 §7.4: the codes an endpoint may put in a close frame.
    private static func isSendable(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// A protocol error of the peer's as the reason of the 1002 close that answers it: what
    /// ``problem(of:)`` found, or what NIO's decoder or aggregator refused.
    static func reason(for error: Error) -> String {
        switch error {
        case let violation as Violation: violation.message
        case NIOWebSocketError.fragmentedControlFrame: "a fragmented control frame"
        case NIOWebSocketError.multiByteControlFrameLength: "a control frame of more than 125 bytes"
        case NIOWebSocketFrameAggregator.Error.didReceiveFragmentBeforeReceivingTextOrBinaryFrame:
            "a continuation frame with no message to continue"
        case NIOWebSocketFrameAggregator.Error.receivedNewFrameWithoutFinishingPrevious:
            "a new message before the last one's final fragment"
        default: "a frame against RFC 6455"
        }
    }
}
