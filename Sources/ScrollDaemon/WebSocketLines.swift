import NIOCore
import NIOWebSocket
import ScrollProtocol

/// The protocol's lines as WebSocket messages (docs/design.md §24): each text message is one
/// request line for the ``ClientHandler`` behind it, and each line the daemon writes goes out
/// as one text message, without its newline. Everything else of a connection (requests,
/// subscriptions, backpressure, limits, refusals) is the Unix socket's, in the same handler.
///
/// Framing is NIO's (`WebSocketFrameDecoder` and `NIOWebSocketFrameAggregator` before this
/// handler, `WebSocketFrameEncoder` after it); this handler only maps messages to lines and
/// runs the close handshake:
/// - a message over the line limit (one frame, or fragments together, or more than
///   `maximumFragments` fragments) is the Unix socket's line too long: a `too_large` error,
///   then close 1009;
/// - a binary message is not a line: a `bad_request` error, and the connection stays, as
///   after any other bad request;
/// - a text message that is not UTF-8 is no message at all (RFC 6455 §8.1): close 1007 at
///   once;
/// - a refusal (``ConnectionClosing``) closes with 1008 (another uid), 1013 (too many
///   connections) or 1009; any other protocol error (a lone continuation, a malformed frame)
///   with 1002 at once, the problem named in the close frame's reason;
/// - pings are answered; a peer's close is echoed and the connection closed.
package final class WebSocketLines: ChannelDuplexHandler {
    package typealias InboundIn = WebSocketFrame
    package typealias InboundOut = ByteBuffer
    package typealias OutboundIn = ByteBuffer
    package typealias OutboundOut = WebSocketFrame

    /// The most frames one message may come in (docs/security.md): each waiting fragment
    /// costs its bytes and a buffer's and a frame's bookkeeping (about 200 bytes), even an
    /// empty one, so their number is bounded as the message's length is: 64 fragments of a
    /// 64 KiB message are 1 KiB each. Browsers send a message as one frame.
    static let maximumFragments = 64

    /// The close code to send when the daemon closes, once a refusal named it.
    private var closeCode: WebSocketErrorCode = .normalClosure
    /// The close frame is sent: nothing more is written, and what arrives is dropped.
    private var closeSent = false

    package init() {}

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text where !closeSent:
            let line = frame.unmaskedData
            guard Self.isUTF8(line) else {
                let channel = context.channel
                sendClose(context, code: .dataInconsistentWithMessage, reason: "a text message that is not UTF-8")
                    .whenComplete { _ in channel.close(promise: nil) }
                return
            }
            context.fireChannelRead(wrapInboundOut(line))
        case .binary where !closeSent:
            let error = ProtocolError(.badRequest, "binary messages are not protocol lines: send each request as a text message")
            var bytes: [UInt8] = []
            ReplyEncoder.error(error, into: &bytes)
            let reply = WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(bytes: bytes))
            context.writeAndFlush(wrapOutboundOut(reply), promise: nil)
        case .ping where !closeSent:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            // The peer's close, first or in answer to ours: echoed if it came first, then the
            // connection is done.
            guard !closeSent else {
                context.close(promise: nil)
                return
            }
            var payload = frame.unmaskedData
            let code = payload.readWebSocketErrorCode() ?? .normalClosure
            let channel = context.channel
            sendClose(context, code: code).whenComplete { _ in channel.close(promise: nil) }
        default:
            break  // pongs, and anything after our close
        }
    }

    package func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        var bytes = unwrapOutboundIn(data)
        guard !closeSent else {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        // One message per line: the daemon's writes are whole lines, a batch several.
        var last: EventLoopFuture<Void>?
        while let newline = bytes.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let line = bytes.readSlice(length: newline - bytes.readerIndex)!
            bytes.moveReaderIndex(forwardBy: 1)
            last = context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: line)))
        }
        if bytes.readableBytes > 0 {
            last = context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: bytes)))
        }
        if let promise {
            if let last { last.cascade(to: promise) } else { promise.succeed(()) }
        }
    }

    package func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let closing = event as? ConnectionClosing else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        switch closing {
        case .forbidden: closeCode = .policyViolation
        case .tooManyConnections: closeCode = WebSocketErrorCode(codeNumber: 1013)  // try again later
        case .lineTooLong: closeCode = .messageTooLarge
        }
        promise?.succeed(())
    }

    /// The daemon's half-close (a refusal's linger) is the WebSocket close: the peer reads
    /// the error message, then the close frame; the daemon keeps reading until the peer
    /// answers it (then closes) or the linger ends.
    package func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        switch mode {
        case .output:
            guard !closeSent else {
                promise?.succeed(())
                return
            }
            sendClose(context, code: closeCode).cascade(to: promise)
        default:
            // A peer that reads nothing (a stuck client being dropped) would never take the close
            // frame, and waiting for it would hold the connection for good: it closes at once.
            if !closeSent, context.channel.isActive, context.channel.isWritable {
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                sendClose(context, code: closeCode == .normalClosure ? .goingAway : closeCode).whenComplete { _ in
                    bound.value.close(mode: mode, promise: promise)
                }
            } else {
                context.close(mode: mode, promise: promise)
            }
        }
    }

    package func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            // The Unix socket's line too long: the handler answers and lingers.
            context.fireErrorCaught(LineFrameDecoder.LineTooLong())
        case NIOWebSocketFrameAggregator.Error.tooManyFragments:
            // Answered and closed as a line too long, with its own reason.
            let reply = ProtocolError(.tooLarge, "message in more than \(Self.maximumFragments) fragments")
            context.fireErrorCaught(LineFrameDecoder.LineTooLong(reply: reply))
        case is ByteToMessageDecoderError:
            break  // bytes after a framing error, already answered
        default:
            // A protocol error of the peer's (a malformed frame, a continuation without a
            // start, a frame ``WebSocketFrameChecks`` refused): close at once.
            guard !closeSent else { return }
            let channel = context.channel
            sendClose(context, code: .protocolError, reason: WebSocketFrameChecks.reason(for: error))
                .whenComplete { _ in channel.close(promise: nil) }
        }
    }

    /// Sends the close frame: `code`, then `reason` cut to the 123 bytes a control frame has
    /// room for (RFC 6455 §5.5), at a character's end so that it stays UTF-8.
    private func sendClose(_ context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String = "") -> EventLoopFuture<Void> {
        closeSent = true
        var text = Substring(reason)
        while text.utf8.count > 123 { text.removeLast() }
        var data = context.channel.allocator.buffer(capacity: 2 + text.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeSubstring(text)
        return context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
    }

    /// Whether `bytes` are UTF-8 as RFC 3629 has it (no overlong forms, no surrogates, nothing
    /// past U+10FFFF), checked where they lie: a line is parsed from the same bytes next.
    static func isUTF8(_ bytes: ByteBuffer) -> Bool {
        bytes.withUnsafeReadableBytes { raw in
            var parser = Unicode.UTF8.ForwardParser()
            var input = raw.makeIterator()
            while true {
                switch parser.parseScalar(from: &input) {
                case .valid: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }
    }
}
