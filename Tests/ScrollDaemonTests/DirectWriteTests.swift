import Foundation
import NIOCore
import NIOEmbedded
import NIOPosix
import ScrollDaemon
import ScrollDaemonPOSIX
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The fan-out's direct writes (`Client.write`, the POSIX edge's `DuplicatedSocket`) on real sockets: what the
/// kernel takes goes straight out, what it does not (a partial write, EAGAIN) or a failure goes
/// to NIO, and the client reads every line whole, in order, the latest last.
@Suite(.serialized) struct DirectWriteTests {
    // MARK: The descriptor

    @Test func theEdgeDuplicatesTheSocketNIOHoldsAndNothingForAChannelWithoutOne() throws {
        let (a, b) = try socketPair()
        defer { close(b) }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let channel = try ClientBootstrap(group: group).withConnectedSocket(a).wait()
        // Another connection of the same kind: its own socket.
        let (c, d) = try socketPair()
        defer { close(d) }
        let second = try ClientBootstrap(group: group).withConnectedSocket(c).wait()
        for (channel, fd) in [(channel, a), (second, c)] {
            let (copy, sameSocket) = try channel.eventLoop.submit { () -> (Int32, Bool) in
                guard let copy = ConnectionEdge.posix.openSocket(channel) else { return (-1, false) }
                defer { copy.close() }
                // The kernel's own number for a socket: the same for a duplicate, another for
                // every other socket.
                return (copy.fd, Self.cookie(of: copy.fd) == Self.cookie(of: fd))
            }.wait()
            #expect(copy >= 0 && copy != a && copy != c)
            #expect(sameSocket)
        }
        #expect(Self.cookie(of: a) != Self.cookie(of: c))
        try second.close().wait()
        try channel.close().wait()
        // Not a socket channel: nothing to duplicate, NIO's write path does it all.
        let embedded = EmbeddedChannel()
        #expect(ConnectionEdge.posix.openSocket(embedded) == nil)
        _ = try embedded.finish()
    }

    /// `SO_COOKIE` (asm-generic/socket.h; Glibc's module does not carry it).
    static func cookie(of fd: Int32) -> UInt64? {
        var cookie: UInt64 = 0
        var size = socklen_t(8)
        return getsockopt(fd, SOL_SOCKET, 57, &cookie, &size) == 0 ? cookie : nil
    }

    @Test func aFullSocketTakesPartOfAWriteThenNothingAndAClosedPeerFailsIt() throws {
        let (a, b) = try socketPair()
        // Closed once: tests share the process, and a number closed twice may by then be
        // another test's descriptor.
        var peer: Int32? = b
        defer { if let peer { close(peer) } }
        var small: Int32 = 4096
        setsockopt(a, SOL_SOCKET, SO_SNDBUF, &small, socklen_t(4))
        let socket = DuplicatedSocket(adopting: a)
        let big = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1 << 20)
        guard case .partial(let written) = socket.send(big) else {
            Issue.record("expected a partial write")
            return
        }
        #expect(written > 0 && written < 1 << 20)
        #expect(socket.send(ByteBuffer(string: "more\n")) == .wouldBlock)
        close(b)
        peer = nil
        #expect(socket.send(ByteBuffer(string: "more\n")) == .failed(EPIPE))
        socket.close()
        #expect(socket.fd == -1)
    }

    // MARK: Through the daemon

    /// A client of `daemon` subscribed to `main`, its welcome and first state (seq 0) read.
    static func subscriber(of daemon: SocketDaemon) throws -> SocketClient {
        let client = try SocketClient(path: daemon.path)
        #expect(try client.next()?["type"] as? String == "welcome")
        client.send(#"{"op":"subscribe","container":"main","id":1}"#)
        #expect(try client.next()?["seq"] as? Int == 0)
        return client
    }

    @Test func aClientThatReadsGetsEveryStateStraightFromTheLoop() throws {
        let daemon = try SocketDaemon()
        let client = try Self.subscriber(of: daemon)
        #expect(try daemon.onLoop { core in core.connections.clients.values.allSatisfy { $0.writesDirectly } })
        try daemon.addMouse()
        // As many as its socket holds (~40 KB in one batch, the spring's frames after it): the
        // client reads them only afterwards. A burst beyond the socket's and NIO's buffers
        // would be coalesced (the next test).
        try daemon.publish(100)
        #expect(try daemon.wait { core in core.session.nextDeadline == nil })
        // Before the client reads: the kernel took every byte, NIO holds none.
        #expect(try daemon.onLoop { core in core.connections.clients.values.allSatisfy { $0.writesDirectly && $0.writesQueuedInNIO == 0 } })
        let last = try daemon.onLoop { core in core.session.engine.slots[0].seq }
        let states = try client.states(through: last)
        #expect(last > 100)
        #expect(states.compactMap { $0["seq"] as? Int } == Array(1...last))
        #expect(try daemon.onLoop { core in core.connections.clients.values.allSatisfy { $0.writesDirectly && $0.writesQueuedInNIO == 0 } })
    }

    /// A reader that stops: the kernel takes part of a write, then nothing; the rest queues in
    /// NIO until its socket is unwritable, then the subscription waits (latest wins). When the
    /// client reads again it gets whole lines in order and the latest state last, and once NIO
    /// has written its queue the writes go direct again.
    @Test func aFullSocketHandsTheRestToNIOAndTheClientReadsWholeLinesInOrder() throws {
        let daemon = try SocketDaemon(sendBuffer: 4096)
        let client = try Self.subscriber(of: daemon)
        try daemon.addMouse()
        try daemon.publish(3000)
        #expect(try daemon.onLoop { core in core.connections.clients.values.allSatisfy { $0.writesQueuedInNIO > 0 && !$0.channel.isWritable } })
        // The wheel's spring runs on after the events: its frames are published too.
        #expect(try daemon.wait { core in core.session.nextDeadline == nil })
        let last = try daemon.onLoop { core in core.session.engine.slots[0].seq }
        #expect(last > 3000)
        let states = try client.states(through: last)
        let seqs = states.compactMap { $0["seq"] as? Int }
        #expect(seqs.count == states.count)
        #expect(seqs.last == last)
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
        #expect(seqs.count < 3000)  // the ones the full socket skipped: latest wins
        #expect(try daemon.wait { core in core.connections.clients.values.allSatisfy { $0.writesQueuedInNIO == 0 } })
        try daemon.publish(1)
        #expect(try client.next()?["seq"] as? Int == last + 1)
        #expect(try daemon.onLoop { core in core.connections.clients.values.allSatisfy { $0.writesDirectly } })
    }

    /// A reader that stops costs the daemon at most the write buffer's high watermark in NIO
    /// (`Client.writeBufferWaterMark`, 8 KiB) before its subscription turns latest-wins: states
    /// published one at a time, each its own write, queue there only until the channel says it
    /// is not writable (with 64 KiB, ~150 of them each, which stalled the loop when two hundred
    /// such clients filled at once: docs/performance-live.md, finding 8).
    @Test func aReaderThatStopsQueuesAtMostEightKiBInNIO() throws {
        let daemon = try SocketDaemon(sendBuffer: 4096)
        // A reader that never reads again (kept open to the end).
        let stopped = try Self.subscriber(of: daemon)
        defer { withExtendedLifetime(stopped) {} }
        try daemon.addMouse()
        for _ in 0..<400 { try daemon.publish(1) }
        let (queued, writable) = try daemon.onLoop { core in
            (core.connections.clients.values.map(\.writesQueuedInNIO).max() ?? 0, core.connections.clients.values.allSatisfy(\.channel.isWritable))
        }
        #expect(!writable)
        // Each write is one state line of at least 200 bytes; docs/security.md promises about
        // 8 KiB (the number itself, not the constant, so that raising it fails here).
        #expect(queued > 0 && queued * 200 <= 8 * 1024 + 200, "\(queued) writes held in NIO")
    }

    /// A peer that closes while its socket is full and the daemon keeps writing: the failure
    /// goes to NIO, which closes the connection; the daemon forgets the client and keeps serving.
    @Test func aPeerClosingMidWriteIsDroppedAndTheDaemonKeepsServing() throws {
        let daemon = try SocketDaemon(sendBuffer: 4096)
        let leaving = try Self.subscriber(of: daemon)
        try daemon.addMouse()
        try daemon.publish(20)  // part of it in the kernel's buffer, the rest in NIO's
        leaving.close()
        try daemon.publish(500)
        #expect(try daemon.wait { core in core.connections.clients.isEmpty })

        let staying = try SocketClient(path: daemon.path)
        #expect(try staying.next()?["type"] as? String == "welcome")
        staying.send(#"{"op":"subscribe","container":"main","id":1}"#)
        let first = try #require(try staying.next()?["seq"] as? Int)
        try daemon.publish(3)
        #expect(try staying.states(through: first + 3).compactMap { $0["seq"] as? Int } == [first + 1, first + 2, first + 3])
        #expect(try daemon.onLoop { core in core.connections.clients.values.allSatisfy { $0.writesDirectly } })
    }

    /// Close-on-exec: a process another test starts meanwhile must not inherit an end, or
    /// closing it here would not close the socket (and the peer would see no EPIPE).
    private func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        guard socketpair(AF_UNIX, type, 0, &fds) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        return (fds[0], fds[1])
    }
}
