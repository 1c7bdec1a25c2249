import Foundation
import Logging
import NIOCore
import NIOPosix
import ScrollConfig
import ScrollDaemon
import ScrollDaemonPOSIX
import ScrollModel
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's logic behind a real Unix socket on a real NIO event loop, as `scrolld run` serves
/// it (the same pipeline, the same write-buffer watermarks, the same POSIX edge: SO_PEERCRED and
/// the fan-out's duplicated socket), for what only a kernel socket does:
/// partial writes, a full buffer, a peer that closes. Clients are plain blocking sockets.
final class SocketDaemon {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop: EventLoop
    let core: DaemonCore
    let path: String
    private var server: Channel?

    /// `sendBuffer`: the connections' SO_SNDBUF, small to make the kernel refuse writes early.
    init(sendBuffer: Int32? = nil) throws {
        loop = group.next()
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        // Made here, used only on its loop from now on (`onLoop`).
        core = try DaemonCore(
            eventLoop: loop, configuration: .defaults,
            source: ConfigurationFileSource(explicitPath: nil, environment: [:]),
            serverName: "scrolld test", logger: logger
        )
        path = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-direct-\(UUID().uuidString.prefix(8)).sock").path
        let core = LoopOwned(self.core)
        var bootstrap = ServerBootstrap(group: group)
        if let sendBuffer { bootstrap = bootstrap.childChannelOption(.socketOption(.so_sndbuf), value: SocketOptionValue(sendBuffer)) }
        server = try bootstrap.childChannelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try ClientPipeline.configure(channel, core: core.value, edge: .posix)
            }
        }.bind(unixDomainSocketPath: path).wait()
    }

    deinit {
        try? server?.close().wait()
        try? group.syncShutdownGracefully()
        unlink(path)
    }

    /// Runs `body` with the core on its loop.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (DaemonCore) throws -> T) throws -> T {
        let core = LoopOwned(self.core)
        return try loop.submit { try body(core.value) }.wait()
    }

    /// `count` wheel events, each its own input call (so each state is its own write), up and
    /// down so the offset stays inside the content.
    func publish(_ count: Int) throws {
        try onLoop { core in
            for index in 0..<count {
                let y: Int32 = index % 2 == 0 ? 120 : -120
                core.input(ScrollEvent(time: core.eventLoop.timestamp, device: 1, kind: .wheel(v120: AxisValues(y: Double(y)), degrees: nil)))
            }
        }
    }

    func addMouse() throws {
        try onLoop { core in
            core.input(ScrollEvent(time: core.eventLoop.timestamp, device: 1, kind: .deviceAdded(name: "mouse", capabilities: [.wheel])))
        }
    }

    /// Waits (up to 30 s: only a hang fails) until `condition` holds on the loop.
    func wait(until condition: @escaping @Sendable (DaemonCore) -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if try onLoop(condition) { return true }
            usleep(10_000)
        }
        return false
    }
}

/// The core handed to its loop's tasks: it is only ever used there.
private struct LoopOwned: @unchecked Sendable {
    let value: DaemonCore
    init(_ value: DaemonCore) { self.value = value }
}

/// A client's end: a blocking Unix socket, read line by line.
final class SocketClient {
    let fd: Int32
    private var pending: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)  // only a hang fails
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, decoded as JSON (a torn or garbled line fails the test here); nil when the
    /// connection ended.
    func next() throws -> [String: Any]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            pending += buffer[..<count]
        }
    }

    /// Lines until one has `seq` (or the connection ends).
    func states(through seq: Int) throws -> [[String: Any]] {
        var lines: [[String: Any]] = []
        while let line = try next() {
            lines.append(line)
            if line["seq"] as? Int == seq { break }
        }
        return lines
    }
}
