import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe, for the async-signal-safe handler.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Delivers SIGTERM, SIGINT and SIGHUP to the event loop through a self-pipe that NIO reads
/// like any other fd.
///
/// Why not Swift concurrency's signal sequences: on Linux its executor (libdispatch) keeps a
/// 1 Hz monitor timer running while an async main is suspended, and an idle daemon must not
/// wake at all.
final class SignalPipe: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let onSignal: (Int32) -> Void

    init(onSignal: @escaping (Int32) -> Void) {
        self.onSignal = onSignal
    }

    static func install(_ signals: [Int32], on loop: EventLoop, onSignal: @escaping @Sendable (Int32) -> Void) throws -> Channel {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw IOError(errnoCode: errno, reason: "pipe") }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        signalPipeWriteEnd = fds[1]
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipeWriteEnd, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
        // A parent may have left these blocked (test runners and some supervisors do); a
        // blocked SIGTERM would stay pending forever.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return try NIOPipeBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SignalPipe(onSignal: onSignal))
                }
            }
            .takingOwnershipOfDescriptor(input: fds[0])
            .wait()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        for byte in unwrapInboundIn(data).readableBytesView { onSignal(Int32(byte)) }
    }
}
