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
/// finished its handshake within ``deadline`` is closed too, and at most
/// ``maximumHandshaking`` are under way at once: they are not yet connections the daemon
/// counts, and each holds a descriptor.
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

    /// Why the handshake `head` is refused, as an HTTP status and a sentence, or nil: it may
    /// be upgraded. `origins`: the configuration's `web.origins`.
    static func refusal(of head: HTTPRequestHead, origins: [String]) -> (HTTPResponseStatus, String)? {
        let target = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard target == path else { return (.notFound, "scrolld serves its protocol at \(path) only") }
        guard head.method == .GET else { return (.methodNotAllowed, "a WebSocket handshake is a GET request") }
        let found = head.headers["Origin"]
        guard found.count <= 1 else { return (.forbidden, "more than one Origin header") }
        if let origin = found.first, !origins.contains(origin) {
            return (.forbidden, "origin \(shown(origin)) is not in web.origins")
        }
        let upgrade = head.headers[canonicalForm: "Upgrade"].contains { $0.lowercased() == "websocket" }
        guard upgrade else { return (.upgradeRequired, "scrolld speaks WebSocket only at \(path)") }
        // RFC 6455 §4.2.1: the request's Connection header lists the upgrade.
        guard head.headers[canonicalForm: "Connection"].contains(where: { $0.lowercased() == "upgrade" }) else {
            return (.badRequest, "a WebSocket handshake says Connection: Upgrade (RFC 6455)")
        }
        guard head.version.major == 1, head.version.minor >= 1, head.headers["Host"].count == 1 else {
            return (.badRequest, "a WebSocket handshake is HTTP/1.1 or later, with one Host header (RFC 6455)")
        }
        let keys = head.headers["Sec-WebSocket-Key"]
        guard keys.count == 1, isNonce(keys[0]) else {
            return (.badRequest, "a WebSocket handshake has one Sec-WebSocket-Key, 16 bytes in base64 (RFC 6455)")
        }
        return nil
    }

    /// Whether `key` is 16 bytes in base64: 22 characters of the alphabet, the last of which
    /// leaves no bits over (A, Q, g or w), then `==`.
    static func isNonce(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[..<22].allSatisfy(base64Alphabet.contains) && "AQgw".utf8.contains(bytes[21])
    }

    private static let base64Alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// A header value as a message shows it: at most 100 characters, then "…" (a reply and a
    /// log line stay short whatever a client sends).
    static func shown(_ value: String) -> String {
        value.count <= 100 ? value : value.prefix(100) + "…"
    }

    package func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        timeout = channel.eventLoop.scheduleTask(in: Self.deadline) { channel.close(promise: nil) }
        // Counted until the upgrade or the close removes this handler.
        core.connections.handshaking += 1
    }

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
        let (status, reason) = Self.refusal(of: head, origins: core.session.configuration.web.origins)
            ?? (.badRequest, "not a WebSocket handshake (RFC 6455)")
        if status == .forbidden {
            core.connections.noteRefusal(ProtocolError(.forbidden, "WebSocket handshake refused: \(reason)"), cause: "web-forbidden", logger: core.logger)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        headers.add(name: "Content-Length", value: "\(reason.utf8.count + 1)")
        headers.add(name: "Connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: reason + "\n")))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
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
            core.connections.noteRefusal(ProtocolError(.tooLarge, "WebSocket handshake refused: \(Self.reason)"), logger: core.logger)
            let body = Self.reason + "\n"
            let response = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: response))).whenComplete { _ in
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
    package final class HeadLimit: ChannelInboundHandler, RemovableChannelHandler {
        package typealias InboundIn = ByteBuffer
        package typealias OutboundOut = ByteBuffer

        /// Its name in the pipeline, where the upgrade removes it.
        static let name = "web-handshake-bytes"
        package static let maximumBytes = 16 * 1024
        static let reason = "a WebSocket handshake is at most \(maximumBytes / 1024) KiB of request line and headers"
        private var received = 0
        private var refused = false

        package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !refused else { return }
            received += unwrapInboundIn(data).readableBytes
            guard received > Self.maximumBytes else {
                context.fireChannelRead(data)
                return
            }
            refused = true
            let body = Self.reason + "\n"
            let response = "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: response))).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }
}
