import Foundation
import ScrollClient
import ScrollModel
import ScrollProtocol
import Testing

/// The Swift client library against a real daemon: requests as async methods, states and
/// observations as async sequences, and each way a connection can fail.
@Suite("ScrollClient against a real scrolld")
struct ScrollClientTests {
    static let list: [ConfigureSetting] = [
        ConfigureSetting(key: "containerSize", value: .object([("width", .integer(400)), ("height", .integer(600))])),
        ConfigureSetting(key: "header", value: .object([("min_height", .integer(60)), ("max_height", .integer(200))])),
        ConfigureSetting(key: "rows", value: .object([("count", .integer(100)), ("height", .integer(44))])),
    ]

    @Test func requestsAndTheWelcome() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        #expect(client.welcome.containers == ["main"])
        #expect(client.welcome.features.contains("observe"))
        #expect(client.welcome.instance?.count == 32)
        try await client.configure("list", Self.list)
        try await client.scroll("list", to: .row(50, anchor: .center), animation: .none)
        let state = try await client.get("list")
        // DESIGN §12: 2400 + 22 − 60 − 0.5·540.
        #expect(state.state.contentOffset.y == 2092)
        #expect(state.container == "list")
        try await client.scroll("list", by: AxisValues(y: -92), animation: .none)
        #expect(try await client.get("list").state.contentOffset.y == 2000)
        let devices = try await client.devices()
        #expect(devices.devices.isEmpty)
        #expect(devices.input == .active)
        _ = try await client.ping()
        await #expect(throws: ScrollClientError.daemon(code: "unknown_container", message: "unknown container \"nope\"")) {
            _ = try await client.get("nope")
        }
        // An error leaves the connection as it was.
        try await client.remove("list")
        await #expect(throws: ScrollClientError.self) { _ = try await client.get("list") }
    }

    @Test func statesAndObservationsAsSequences() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("list", Self.list)
        var states = client.states(of: "list").makeAsyncIterator()
        var rows = client.observe("list", .visibleRows).makeAsyncIterator()
        let first = try #require(try await states.next())
        #expect(first.seq == 1)
        #expect(first.state.contentOffset.y == 0)
        let initial = try #require(try await rows.next())
        #expect(initial.old == nil)
        #expect(initial.new == .object([("first", .integer(0)), ("last", .integer(8))]))

        try await client.scroll("list", to: ScrollPosition(y: 30), animation: .none)
        let moved = try #require(try await states.next())
        #expect(moved.seq == 2)
        #expect(moved.state.contentOffset.y == 30)
        let changed = try #require(try await rows.next())
        #expect(changed.old == initial.new)
        #expect(changed.new == .object([("first", .integer(0)), ("last", .integer(9))]))
        #expect(changed.seq == 2)
    }

    @Test func aRemovedContainerEndsItsSequencesWithTheReason() async throws {
        let daemon = try DaemonProcess()
        let owner = try await ScrollClient.connect(socket: daemon.socketPath)
        try await owner.configure("sidebar", [], owned: true)
        let watcher = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { watcher.close() }
        var states = watcher.states(of: "sidebar").makeAsyncIterator()
        _ = try await states.next()
        owner.close()
        await #expect(throws: ScrollClientError.removed(container: "sidebar")) { _ = try await states.next() }
    }

    @Test func aDaemonThatIsNotRunningOrGoesAway() async throws {
        let missing = "/tmp/scrolld-no-such-\(UUID().uuidString.prefix(8))/s.sock"
        await #expect(throws: ScrollClientError.notRunning(path: missing, reason: "no socket at")) {
            _ = try await ScrollClient.connect(socket: missing)
        }
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        var states = client.states(of: "main").makeAsyncIterator()
        _ = try await states.next()
        #expect(daemon.stop() == 0)
        do {
            _ = try await states.next()
            Issue.record("the sequence went on after the daemon stopped")
        } catch let error as ScrollClientError {
            guard case .disconnected = error else { throw error }
        }
        await #expect(throws: ScrollClientError.self) { try await client.ping() }
    }

    /// A request that is never answered (a daemon that stopped; under systemd, one that died
    /// just after reading it and came back with the connection kept) fails after the client's
    /// timeout instead of waiting for ever; the connection goes on, and a late reply to it is
    /// nobody's. (A user trial found `request` without a timeout.)
    @Test func aRequestThatIsNeverAnsweredTimesOut() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, timeout: .milliseconds(300))
        defer { client.close() }
        _ = try await client.ping()
        daemon.signal(SIGSTOP)
        // Stopped for sure (a signal takes effect when its target next runs); nothing answers
        // then, so the short timeout is exact, not a race.
        #expect(waitUntil(timeout: 60) { daemon.probe.isStopped })
        await #expect(throws: ScrollClientError.timeout(operation: "get", seconds: "0.3")) {
            _ = try await client.get("main")
        }
        daemon.signal(SIGCONT)
        // The connection goes on; a patient client (the default 30 s) shows it answering again
        // (a loaded machine may take longer than 0.3 s to let a resumed daemon answer).
        let patient = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { patient.close() }
        _ = try await patient.ping()
        #expect(client.welcome.instance == patient.welcome.instance)
    }

    /// A daemon that stopped reading fills its socket; a request sent then waits for room no
    /// longer than the client's timeout (it waited for ever: a review found the send
    /// unbounded). The lines that went whole wait for their replies and time out; a line the
    /// socket took only part of ends the connection, since the daemon would read the next line
    /// as its rest.
    @Test func aRequestTheDaemonCannotTakeTimesOut() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, timeout: .milliseconds(300))
        defer { client.close() }
        _ = try await client.ping()
        daemon.signal(SIGSTOP)
        #expect(waitUntil(timeout: 60) { daemon.probe.isStopped })
        // 60 KB lines (under the daemon's 64 KiB limit): a few fill a Unix socket's ~208 KB.
        let name = String(repeating: "x", count: 60_000)
        let finished = DispatchSemaphore(value: 0)
        let requests = Task {
            defer { finished.signal() }
            var outcomes: [ScrollClientError] = []
            for _ in 0..<12 {
                do {
                    _ = try await client.get(name)
                } catch let error as ScrollClientError {
                    outcomes.append(error)
                } catch {
                    outcomes.append(.protocolViolation("\(error)"))
                }
            }
            return outcomes
        }
        // Twelve requests of 0.3 s each end in seconds; a send that waits for ever never does
        // (the generous deadline only catches that hang).
        let ended = finished.wait(timeout: .now() + 60) == .success
        #expect(ended, "a request waited for a stopped daemon to take its line for over 60 s")
        daemon.signal(SIGCONT)
        let outcomes = await requests.value
        let timedOut = ScrollClientError.timeout(operation: "get", seconds: "0.3")
        let cut = ScrollClientError.disconnected("scrolld took only part of a request (get) within 0.3 s; the connection cannot go on")
        let whole = outcomes.prefix { $0 == timedOut }.count
        #expect(whole >= 1 && whole < 12, "\(outcomes)")
        // After the lines that went whole: more that went not at all (each its own timeout),
        // then the one cut short, which ends the connection for every later request.
        let rest = outcomes.dropFirst(whole).drop { $0 == timedOut }
        #expect(rest.allSatisfy { $0 == cut }, "\(outcomes)")
        if rest.isEmpty {
            await #expect(throws: Never.self) { _ = try await client.ping() }
        } else {
            await #expect(throws: cut) { _ = try await client.ping() }
        }
        // The daemon, resumed, read the whole lines and the cut one's end, and serves on.
        let patient = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { patient.close() }
        _ = try await patient.ping()
        #expect(client.welcome.instance == patient.welcome.instance)
    }
}
