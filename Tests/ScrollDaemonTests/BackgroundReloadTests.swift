import Foundation
import NIOCore
import NIOPosix
import ScrollConfig
import ScrollDaemon
import Synchronization
import Testing

/// A reload reads and parses the configuration file off the loop: a legal file of tens of
/// megabytes takes seconds to parse, and every other client must be served meanwhile. The
/// connection that asked waits for its answer before its next request applies, as if the
/// reload had been answered at once; reloads asked for during a read share the next one.
@Suite("Reloads off the loop")
struct BackgroundReloadTests {
    /// One file per test: the tests run at once.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("background-reload-\(UUID().uuidString).toml")

    private func daemon(_ background: any BackgroundWork) throws -> EmbeddedDaemon {
        try "[containers.main]\ncontainerSize = { width = 320, height = 240 }\n".write(to: file, atomically: true, encoding: .utf8)
        let source = ConfigurationFileSource(explicitPath: file.path, environment: [:])
        return try EmbeddedDaemon(configuration: source.load().configuration, source: source, background: background)
    }

    /// A daemon whose file now says width 500 where it started with 320, and a connection that
    /// sent `reload` (id 1) and `get` (id 2) while the file is read, beside a bystander.
    private func reloadUnderWay(_ work: HeldWork) throws -> (EmbeddedDaemon, asker: Connection, bystander: Connection) {
        let daemon = try daemon(work)
        let asker = try daemon.connect(), bystander = try daemon.connect()
        try "[containers.main]\ncontainerSize = { width = 500, height = 240 }\n".write(to: file, atomically: true, encoding: .utf8)
        try asker.send(#"{"op":"reload","id":1}"#)
        try asker.send(#"{"op":"get","container":"main","id":2}"#)
        return (daemon, asker, bystander)
    }

    @Test func otherClientsAreServedWhileTheFileIsReadAndTheAskersLaterRequestsWait() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let work = HeldWork()
        let (_, asker, bystander) = try reloadUnderWay(work)
        try asker.send(#"{"op":"ping","id":3}"#)
        #expect(work.count == 1)
        #expect(try asker.drain().isEmpty)
        #expect(try bystander.request(#"{"op":"ping","id":9}"#)?["type"] as? String == "pong")
        #expect(try bystander.request(#"{"op":"get","container":"main","id":10}"#).flatMap(Self.width) == 320)

        work.finish()
        let replies = try asker.drain()
        #expect(replies.map { $0["id"] as? Int } == [1, 2, 3])
        #expect(replies.map { $0["type"] as? String } == ["reloaded", "state", "pong"])
        #expect(replies.first?["ok"] as? Bool == true)
        #expect(replies.dropFirst().first.flatMap(Self.width) == 500)
        // Answered, the connection's requests are answered at once again.
        #expect(try asker.request(#"{"op":"ping","id":4}"#)?["type"] as? String == "pong")
    }

    @Test func reloadsAskedForDuringAReadShareTheNextOne() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let work = HeldWork()
        let daemon = try daemon(work)
        let client = try daemon.connect()
        let first = daemon.core.reload()
        // A burst of SIGHUPs and a client's request, all while the first read is under way.
        let others = (0..<3).map { _ in daemon.core.reload() }
        try client.send(#"{"op":"reload","id":1}"#)
        #expect(work.count == 1)
        work.finish()
        #expect(try first.wait().ok)
        #expect(work.count == 1)
        #expect(try client.drain().isEmpty)
        work.finish()
        #expect(work.count == 0)
        #expect(try others.allSatisfy { try $0.wait().ok })
        #expect(try client.drain().map { $0["type"] as? String } == ["reloaded"])
        #expect(work.started == 2)
    }

    /// One who asks for a reload on hearing a result (a client's next request, held until that
    /// reply) never starts a second read beside the one already due.
    @Test func aReloadAskedForOnHearingAResultWaitsForTheReadAfterTheNext() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let work = HeldWork()
        let daemon = try daemon(work)
        var heard: [String] = []
        daemon.core.reload().assumeIsolated().whenSuccess { _ in
            heard.append("first")
            daemon.core.reload().assumeIsolated().whenSuccess { _ in heard.append("asked on hearing the first") }
        }
        daemon.core.reload().assumeIsolated().whenSuccess { _ in heard.append("asked during the first") }
        #expect(work.count == 1)
        work.finish()
        #expect(heard == ["first"])
        #expect(work.count == 1)
        work.finish()
        #expect(heard == ["first", "asked during the first"])
        #expect(work.count == 1)
        work.finish()
        #expect(heard == ["first", "asked during the first", "asked on hearing the first"])
        #expect(work.count == 0 && work.started == 3)
    }

    @Test func aConnectionThatClosesDuringItsReloadIsNotAnsweredAndTheReloadHolds() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let work = HeldWork()
        let (daemon, asker, bystander) = try reloadUnderWay(work)
        try asker.channel.close().wait()
        work.finish()
        #expect(daemon.core.connections.clients.count == 1)
        #expect(try bystander.request(#"{"op":"get","container":"main","id":3}"#).flatMap(Self.width) == 500)
    }

    @Test func aReloadThatCannotBeReadBecauseTheDaemonStopsSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let daemon = try daemon(Stopped())
        let client = try daemon.connect()
        let reply = try client.request(#"{"op":"reload","id":1}"#)
        #expect(reply?["ok"] as? Bool == false)
        #expect(reply?["message"] as? String == "the daemon is stopping; the configuration was not read")
        #expect(try client.request(#"{"op":"get","container":"main","id":2}"#).flatMap(Self.width) == 320)
    }

    private static func width(_ state: [String: Any]) -> Double? {
        (state["containerSize"] as? [String: Any])?["width"] as? Double
    }
}

/// Background work that runs only when the test says so, one piece at a time, on the test's
/// (the embedded loop's) thread.
private final class HeldWork: BackgroundWork {
    private let pending = Mutex<(waiting: [@Sendable () -> Void], started: Int)>(([], 0))

    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value, completingOn eventLoop: EventLoop) -> EventLoopFuture<Value> {
        let promise = eventLoop.makePromise(of: Value.self)
        pending.withLock {
            $0.waiting.append { promise.succeed(work()) }
            $0.started += 1
        }
        return promise.futureResult
    }

    /// Pieces of work waiting.
    var count: Int { pending.withLock { $0.waiting.count } }
    /// Pieces of work asked for in all.
    var started: Int { pending.withLock { $0.started } }

    /// Runs the oldest piece of work.
    func finish() {
        let next = pending.withLock { $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }
        guard let next else {
            Issue.record("no background work waits to be finished")
            return
        }
        next()
    }
}

/// The background of a daemon that is stopping: its pool runs nothing more.
private struct Stopped: BackgroundWork {
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value, completingOn eventLoop: EventLoop) -> EventLoopFuture<Value> {
        eventLoop.makeFailedFuture(NIOThreadPoolError.ThreadPoolInactive())
    }
}
