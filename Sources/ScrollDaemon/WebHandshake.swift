import NIOCore
import NIOHTTP1
import ScrollProtocol

/// The HTTP side of the WebSocket listener (docs/design.md §24): which handshakes are
/// upgraded, and the answer to every other request.
///
/// A handshake is upgraded only at ``path``, and only when its `Origin` is one of
/// `web.origins` (exact match) or absent: a browser always sends the page's origin, so no page
/// the user happens to visit reaches the daemon (cross-site WebSocket hijacking); a client that
/// sends none is no browser and is then held to the uid check like any other connection.
/// Anything else gets an HTTP error naming the reason and is closed; a connection that has not
/// finished its handshake within ``deadline`` gets `408 Request Timeout` and is closed too, and
/// at most ``maximumHandshaking`` are under way at once: they are not yet connections the
/// daemon counts, and each holds a descriptor.
package final class WebHandshake: ChannelInboundHandler, RemovableChannelHandler {
    package typealias InboundIn = HTTPServerRequestPart
    package typealias OutboundOut = HTTPServerResponsePart

    /// Where the protocol is served.
    package static let path = "/scrolld"
    /// Its name in the pipeline, where the upgrade removes it.
    static let name = "web-handshake"
    /// How long a connection may take to complete its handshake.
    static let deadline = TimeAmount.seconds(10)
    /// How many handshakes may be under way at once; past it a connection is answered 503 and
    /// closed. A browser's takes one round trip: the limit only stops connections that never
    /// finish, each holding a descriptor and buffers until the deadline.
    package static let maximumHandshaking = 256

    let core: DaemonCore
    private var timeout: Scheduled<Void>?
    private var answered = false

    init(core: DaemonCore) {
        self.core = core
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        timeout = context.eventLoop.assumeIsolated().scheduleTask(in: Self.deadline) { [weak self] in
            self?.deadlinePassed(context: context)
        }
        // Counted until the upgrade or the close removes this handler.
        core.connections.handshaking += 1
    }

    /// The handshake took too long: a 408 (RFC 9110 §15.5.9) unless an answer is on its way
    /// already, then the close. The request may be half read, so the answer goes out as bytes
    /// in front of NIO's HTTP handlers (``HeadLimit``), as the 431 does; best effort: the close
    /// follows whether or not it could be written.
    private func deadlinePassed(context: ChannelHandlerContext) {
        let channel = context.channel
        guard !answered else {
            channel.close(promise: nil)
            return
        }
        answered = true
        let promise = context.eventLoop.makePromise(of: Void.self)
        context.triggerUserOutboundEvent(TimedOut(), promise: promise)
        promise.futureResult.whenComplete { _ in channel.close(promise: nil) }
    }

    /// The event by which ``deadlinePassed(context:)`` asks ``HeadLimit`` for the 408.
    struct TimedOut {}

    package func handlerRemoved(context: ChannelHandlerContext) {
        timeout?.cancel()
        timeout = nil
        core.connections.handshaking -= 1
    }

    /// A request NIO's HTTP decoder cannot read (headers past its limit, say): its handler
    /// answered 400, and nothing more is read. (The upgrader's own errors, a handshake it
    /// declined, are answered in ``channelRead(context:data:)``.)
    package func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        context.close(promise: nil)
    }

    /// A request the upgrader did not take: answered with why, then closed.
    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data), !answered else { return }
        answered = true
        let refusal = Self.refusal(of: head, origins: core.session.configuration.web.origins)
            ?? Refusal(.badRequest, "not a WebSocket handshake (RFC 6455)")
        // Each origin refused is a cause of its own (its page is the one to fix); any other
        // refusal is one per status, whatever the request names.
        let cause = refusal.status == .forbidden ? nil : "web-\(refusal.status.code)"
        core.connections.noteRefusal("WebSocket handshake refused: \(refusal.reason)", cause: cause, logger: core.logger)
        let headers = Self.responseHeaders(refusal.headers, body: refusal.reason + "\n")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: refusal.status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: refusal.reason + "\n")))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}

extension WebHandshake {
    /// The headers of an answer that is not an upgrade: `extra` (a refusal's), then the
    /// body's type and length, and the close (with the upgrade named too when `extra` names
    /// one, as RFC 7230 §6.7 asks).
    static func responseHeaders(_ extra: HTTPHeaders, body: String) -> HTTPHeaders {
        var headers = extra
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(body.utf8.count)")
        headers.add(name: "Connection", value: extra.contains(name: "Upgrade") ? "Upgrade, close" : "close")
        return headers
    }

    /// A whole HTTP answer of `status` with `reason` for its body, as bytes, for a connection
    /// answered in front of NIO's HTTP handlers (``Overload``, ``HeadLimit``).
    static func response(_ status: HTTPResponseStatus, _ reason: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        let body = reason + "\n"
        var buffer = allocator.buffer(string: "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n")
        for (name, value) in responseHeaders([:], body: body) { buffer.writeString("\(name): \(value)\r\n") }
        buffer.writeString("\r\n" + body)
        return buffer
    }
}

extension WebHandshake {
    /// The whole pipeline of a connection that comes while ``maximumHandshaking`` handshakes
    /// are under way: an HTTP 503 that says so, written before any request is read, then the
    /// close.
    package final class Overload: ChannelInboundHandler {
        package typealias InboundIn = ByteBuffer
        package typealias OutboundOut = ByteBuffer

        static let reason = "too many WebSocket handshakes under way (at most \(WebHandshake.maximumHandshaking)); try again"
        let core: DaemonCore

        init(core: DaemonCore) {
            self.core = core
        }

        package func channelActive(context: ChannelHandlerContext) {
            core.connections.noteRefusal("WebSocket handshake refused: \(Self.reason)", logger: core.logger)
            let channel = context.channel
            let response = WebHandshake.response(.serviceUnavailable, Self.reason, allocator: channel.allocator)
            context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in
                channel.close(promise: nil)
            }
            context.fireChannelActive()
        }

        /// Whatever it sends is not read.
        package func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
    }
}

extension WebHandshake {
    /// The bytes a connection may send before its handshake is upgraded, request line and
    /// headers (a browser's handshake is well under 8 KiB, cookies included): past them it is
    /// answered 431 and closed, unread. NIO's HTTP decoder keeps every header it reads, at
    /// about five times its bytes, so without this bound each of the ``maximumHandshaking``
    /// connections could hold a megabyte of tiny headers for ``deadline``.
    ///
    /// First in the pipeline, it also writes the 408 of a handshake past its deadline
    /// (``TimedOut``), which may come before any request was read: NIO's HTTP pipeline
    /// handler takes a response to no request as a broken invariant.
    package final class HeadLimit: ChannelDuplexHandler, RemovableChannelHandler {
        package typealias InboundIn = ByteBuffer
        package typealias OutboundIn = ByteBuffer
        package typealias OutboundOut = ByteBuffer

        /// Its name in the pipeline, where the upgrade removes it.
        static let name = "web-handshake-bytes"
        package static let maximumBytes = 16 * 1024
        static let reason = "a WebSocket handshake is at most \(maximumBytes / 1024) KiB of request line and headers"
        static let timeoutReason = "the WebSocket handshake did not complete within \(WebHandshake.deadline.nanoseconds / 1_000_000_000) s"
        private var received = 0
        /// The 431 is written: nothing more is read, and no 408 follows it.
        private var refused = false

        package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !refused else { return }
            received += unwrapInboundIn(data).readableBytes
            guard received > Self.maximumBytes else {
                context.fireChannelRead(data)
                return
            }
            refused = true
            let channel = context.channel
            let response = WebHandshake.response(.requestHeaderFieldsTooLarge, Self.reason, allocator: channel.allocator)
            context.writeAndFlush(wrapOutboundOut(response)).whenComplete { _ in
                channel.close(promise: nil)
            }
        }

        package func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            guard event is WebHandshake.TimedOut else {
                context.triggerUserOutboundEvent(event, promise: promise)
                return
            }
            guard !refused else {
                promise?.succeed(())
                return
            }
            refused = true
            let response = WebHandshake.response(.requestTimeout, Self.timeoutReason, allocator: context.channel.allocator)
            context.writeAndFlush(wrapOutboundOut(response), promise: promise)
        }
    }
}
