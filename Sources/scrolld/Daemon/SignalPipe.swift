import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

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
        let readEnd = try SignalSelfPipe.install(signals)
        signal(SIGPIPE, SIG_IGN)
        return try NIOPipeBootstrap(group: loop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(SignalPipe(onSignal: onSignal))
                }
            }
            .takingOwnershipOfDescriptor(input: readEnd)
            .wait()
    }

    /// Each signal that came since the last read is handled once, in the order they first
    /// came, as the kernel itself merges a signal sent again before it is delivered: a burst of
    /// SIGHUPs (a `kill -HUP` in a loop) is one reload per read, not one each.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var handled: Set<UInt8> = []
        for byte in unwrapInboundIn(data).readableBytesView where handled.insert(byte).inserted {
            onSignal(Int32(byte))
        }
    }
}
