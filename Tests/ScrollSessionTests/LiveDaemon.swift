import Foundation
import Logging
import NIOCore
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import ScrollLog
import ScrollModel
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's logic on an `EmbeddedEventLoop`, recording into memory: the live half of
/// live = replay. Time moves only when the test advances it.
final class LiveDaemon {
    let loop = EmbeddedEventLoop()
    let core: DaemonCore
    let recording = MemoryRecording()

    /// A daemon started from the configuration file at `path` (read again by a `reload`).
    init(configurationFile path: String) throws {
        var logger = Logger(label: "live")
        logger.logLevel = .critical
        let source = ConfigurationFileSource(explicitPath: path, environment: [:])
        core = try DaemonCore(
            eventLoop: loop, configuration: source.load().configuration,
            source: source,
            serverName: "scrolld test", logger: logger
        )
        core.startRecording(to: recording, header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "live = replay"))
    }

    /// A connected client, its welcome read.
    func connect() throws -> LineChannel {
        let credentials = PeerCredentials(pid: 1, uid: getuid(), gid: getgid())
        let channel = EmbeddedChannel(loop: loop)
        let edge = ConnectionEdge(daemonUID: getuid()) { $0.eventLoop.makeSucceededFuture(credentials) }
        try ClientPipeline.configure(channel, core: core, edge: edge)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/embedded")).wait()
        let connection = LineChannel(channel: channel)
        _ = try connection.lines()
        return connection
    }

    /// Moves virtual time on by `microseconds`, running every frame due meanwhile.
    func advance(_ microseconds: Int64) {
        loop.advanceTime(by: .microseconds(microseconds))
    }

    func input(_ kind: ScrollEvent.Kind, device: Int) {
        core.input(ScrollEvent(time: loop.timestamp, device: device, kind: kind))
    }
}

/// One client's end of an embedded connection, as the lines the daemon wrote.
final class LineChannel {
    let channel: EmbeddedChannel
    private var pending: [UInt8] = []

    init(channel: EmbeddedChannel) {
        self.channel = channel
    }

    func send(_ line: String) throws {
        try channel.writeInbound(ByteBuffer(string: line + "\n"))
    }

    /// Every whole line written since the last call.
    func lines() throws -> [String] {
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) { pending += buffer.readableBytesView }
        var lines: [String] = []
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
        return lines
    }
}

/// A recording kept in memory.
final class MemoryRecording: RecordingSink {
    var path: String { "(memory)" }
    private(set) var bytes: [UInt8] = []

    func write(_ bytes: [UInt8]) -> String? {
        self.bytes += bytes
        return nil
    }
}
