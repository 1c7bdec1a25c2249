import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// The pipeline end of one client connection: checks who is connecting, greets, turns each
/// line into a request for the core, and reports framing errors before closing.
final class ClientHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let core: DaemonCore
    var client: Client?

    init(core: DaemonCore) {
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        let core = self.core
        // SO_PEERCRED: the kernel's word for the connecting process' uid.
        Self.peerUID(of: channel).assumeIsolated().whenComplete { result in
            guard channel.isActive else { return }
            let uid: UInt32
            switch result {
            case .success(let value): uid = value
            case .failure:
                core.refuse(channel, message: "cannot read the peer's credentials")
                return
            }
            guard core.isAllowed(uid: uid) else {
                core.refuse(channel, message: "uid \(uid) may not connect (the daemon runs as uid \(getuid()); see daemon.allow_uids)")
                return
            }
            let client = Client(context: context, uid: uid)
            self.client = client
            core.connected(client)
            client.reply(core.welcome())
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard let client else { return }  // nothing is read before the credentials check
        core.handle(line, from: client)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        client?.writabilityChanged()
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let client { core.disconnected(client) }
        client = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is LineFrameDecoder.LineTooLong {
            core.tooLarge(context.channel)
            return
        }
        context.close(promise: nil)
    }

    static func peerUID(of channel: Channel) -> EventLoopFuture<UInt32> {
        guard let provider = channel as? SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: SO_PEERCRED)
        )
        return credentials.map { $0.uid }
    }
}

/// `struct ucred` (Linux): Glibc's module does not export it without _GNU_SOURCE, so the same
/// layout is spelled out here for getsockopt(SO_PEERCRED).
struct PeerCredentials {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
}
