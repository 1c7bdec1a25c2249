#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix
import ScrollProtocol
import Synchronization

/// A value that arrives once, from whichever comes first: the event loop, a timer, or the
/// cancellation of the task that waits for it. Later attempts are ignored.
final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Result<Value, ScrollClientError>, Never>?
        var result: Result<Value, ScrollClientError>?
    }

    private let state = Mutex(State())

    /// Whether it was the first.
    @discardableResult
    func complete(_ result: Result<Value, ScrollClientError>) -> Bool {
        let (first, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Result<Value, ScrollClientError>, Never>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = result
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        waiter?.resume(returning: result)
        return first
    }

    /// The value, waiting for it (without a timeout: a timer or a cancellation completes it).
    func wait() async -> Result<Value, ScrollClientError> {
        await withCheckedContinuation { continuation in
            let result = state.withLock { state -> Result<Value, ScrollClientError>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let result { continuation.resume(returning: result) }
        }
    }
}

/// One connection's socket, on a SwiftNIO event loop (never a thread of Swift's cooperative
/// pool): lines in, split at newlines, handed to `onLine` on the loop; lines out, written in
/// the order they were given.
enum LineChannel {
    /// A line this long without a newline is not the protocol.
    static let maximumLineLength = 16 << 20

    /// Connects to `path` and reads the welcome, within `timeout`, honouring the cancellation of
    /// the calling task (the daemon may have stopped: a stopped daemon's socket still accepts
    /// connections, and then says nothing). Every later line goes to `onLine`, and the end of
    /// the connection to `onClose`, both on the channel's event loop.
    static func open(
        path: String, timeout: Duration,
        onLine: @escaping @Sendable ([UInt8]) -> Void,
        onClose: @escaping @Sendable (ScrollClientError) -> Void
    ) async -> Result<(any Channel, Welcome), ScrollClientError> {
        guard UnixSocketAddress(path: path) != nil else { return .failure(.invalidSocketPath(path)) }
        let welcome = OneShot<(any Channel, Welcome)>()
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let seconds = DaemonSocket.seconds(timeout)
        let timer = loop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
            welcome.complete(.failure(.timeout(operation: "connect", seconds: seconds)))
        }
        let connected = ClientBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        LineHandler(path: path, welcome: welcome, onLine: onLine, onClose: onClose)
                    )
                }
            }
            .connect(unixDomainSocketPath: path)
        connected.whenFailure { error in welcome.complete(.failure(connectFailure(error, path: path))) }
        let result = await withTaskCancellationHandler {
            await welcome.wait()
        } onCancel: {
            welcome.complete(.failure(.cancelled(operation: "connect")))
        }
        timer.cancel()
        if case .failure = result {
            // Whatever connected gives up: a late welcome finds its promise taken.
            connected.whenSuccess { $0.close(promise: nil) }
        }
        return result
    }

    private static func connectFailure(_ error: any Error, path: String) -> ScrollClientError {
        guard let error = error as? IOError else {
            return .disconnected("cannot connect to \(path): \(error)")
        }
        return .connecting(to: path, failedWith: error.errnoCode)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? .max : product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

/// Splits what arrives into lines. The first is the welcome (or the error a refused uid gets);
/// the others go to the connection. Runs on the channel's event loop only.
private final class LineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let path: String
    private let welcome: OneShot<(any Channel, Welcome)>
    private let onLine: @Sendable ([UInt8]) -> Void
    private let onClose: @Sendable (ScrollClientError) -> Void
    private var partial: [UInt8] = []
    private var welcomed = false
    /// Why the connection ends, when the daemon said (an error line without id) or a line
    /// broke the protocol.
    private var reason: ScrollClientError?

    init(
        path: String, welcome: OneShot<(any Channel, Welcome)>,
        onLine: @escaping @Sendable ([UInt8]) -> Void, onClose: @escaping @Sendable (ScrollClientError) -> Void
    ) {
        self.path = path
        self.welcome = welcome
        self.onLine = onLine
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        while let newline = bytes.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - bytes.readerIndex
            partial.append(contentsOf: bytes.readableBytesView.prefix(length))
            bytes.moveReaderIndex(forwardBy: length + 1)
            var line = partial
            partial.removeAll(keepingCapacity: true)
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            received(line, context: context)
        }
        partial.append(contentsOf: bytes.readableBytesView)
        if partial.count > LineChannel.maximumLineLength {
            reason = .protocolViolation("scrolld sent a line longer than \(LineChannel.maximumLineLength) bytes")
            partial = []
            context.close(promise: nil)
        }
    }

    private func received(_ line: [UInt8], context: ChannelHandlerContext) {
        guard welcomed else {
            welcomed = true
            if let greeting = Welcome(line: line) {
                if !welcome.complete(.success((context.channel, greeting))) { context.close(promise: nil) }
                return
            }
            if case .error(let code, let message, _)? = try? ReplyDecoder.decode(line) {
                reason = ScrollClientError.fromDaemon(code: code, message: message)
            } else {
                reason = .protocolViolation("scrolld at \(path) did not begin with a welcome: \(String(decoding: line.prefix(200), as: UTF8.self))")
            }
            context.close(promise: nil)
            return
        }
        if case .error(let code, let message, nil)? = try? ReplyDecoder.decode(line) {
            // About the connection itself (forbidden, too_large): the daemon closes it next.
            reason = ScrollClientError.fromDaemon(code: code, message: message)
        }
        onLine(line)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if reason == nil { reason = .disconnected("the connection to scrolld at \(path) broke: \(error)") }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let reason = reason ?? .disconnected("scrolld closed the connection (\(path))")
        welcome.complete(.failure(welcomed ? reason : (self.reason ?? .disconnected("scrolld at \(path) closed the connection before its welcome"))))
        onClose(reason)
        context.fireChannelInactive()
    }
}
