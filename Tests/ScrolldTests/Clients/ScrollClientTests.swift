import Foundation
import ScrollClient
import ScrollModel
import ScrollProtocol
import Testing

/// The Swift client library against a real daemon: requests as async methods, states and
/// observations as async sequences, and each way a connection can fail.
@Suite("ScrollClient against a real scrolld")
struct ScrollClientTests {
    static let list = ContainerSettings(
        containerSize: Size(width: 400, height: 600),
        header: .init(minHeight: 60, maxHeight: 200),
        rows: .uniform(count: 100, height: 44)
    )

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
        // docs/design.md §12: 2400 + 22 − 60 − 0.5·540.
        #expect(state.contentOffset.y == 2092)
        #expect(state.container == "list")
        try await client.scroll("list", by: AxisValues(y: -92), animation: .none)
        #expect(try await client.get("list").contentOffset.y == 2000)
        let devices = try await client.devices()
        #expect(devices.devices.isEmpty)
        #expect(devices.input == .active)
        _ = try await client.ping()
        await #expect(throws: ScrollClientError.daemon(code: .unknownContainer, message: "unknown container \"nope\"")) {
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
        #expect(first.contentOffset.y == 0)
        let initial = try #require(try await rows.next())
        #expect(initial.old == nil)
        #expect(initial.new == VisibleRows(first: 0, last: 8))

        try await client.scroll("list", to: ScrollPosition(y: 30), animation: .none)
        let moved = try #require(try await states.next())
        #expect(moved.seq == 2)
        #expect(moved.contentOffset.y == 30)
        let changed = try #require(try await rows.next())
        #expect(changed.old == initial.new)
        #expect(changed.new == VisibleRows(first: 0, last: 9))
        #expect(changed.seq == 2)
    }

    @Test func aRemovedContainerEndsItsSequencesWithTheReason() async throws {
        let daemon = try DaemonProcess()
        let owner = try await ScrollClient.connect(socket: daemon.socketPath)
        try await owner.configure("sidebar", ContainerSettings(), owned: true)
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
        } catch {
            guard case .disconnected = error else { throw error }
        }
        await #expect(throws: ScrollClientError.self) { try await client.ping() }
    }

    /// A request that is never answered (a daemon that stopped; under systemd, one that died
    /// just after reading it and came back with the connection kept) fails after the client's
    /// timeout instead of waiting for ever; the connection goes on, and a late reply to it is
    /// nobody's.
    @Test func aRequestThatIsNeverAnsweredTimesOut() async throws {
        let (daemon, client) = try await Self.stoppedDaemon()
        defer { client.close() }
        await #expect(throws: ScrollClientError.timeout(operation: "get", seconds: "0.3")) {
            _ = try await client.get("main")
        }
        daemon.signal(SIGCONT)
        // The connection goes on.
        try await Self.expectServing(daemon, as: client)
    }

    /// A daemon that stopped reading fills its socket; the client's lines then wait in its own
    /// buffer (SwiftNIO's, on the event loop), never blocking the caller, and each request
    /// times out after the client's timeout. Nothing is cut: once the daemon reads again it
    /// reads whole lines (their replies are nobody's) and the connection goes on.
    // The time limit only catches a request whose send waits for ever: on two cores the test's
    // tasks may wait minutes for a thread of the cooperative pool while other suites'
    // synchronous tests hold both (a fresh-clone CI run saw over 60 s).
    @Test(.timeLimit(.minutes(10))) func aRequestTheDaemonCannotTakeTimesOut() async throws {
        let (daemon, client) = try await Self.stoppedDaemon()
        defer { client.close() }
        // 60 KB lines (under the daemon's 64 KiB limit), enough to fill the socket's send
        // buffer (net.core.wmem_default, ~208 KB) and then some.
        let buffer = Int((try? String(contentsOfFile: "/proc/sys/net/core/wmem_default", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 212_992
        let count = max(12, buffer / 60_000 + 4)
        let name = String(repeating: "x", count: 60_000)
        let requests = Task {
            var outcomes: [ScrollClientError] = []
            for _ in 0..<count {
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
        // Each request ends within 0.3 s; a send that waits for ever never does, and the time
        // limit's cancellation then ends it (the client honours cancellation) and the test.
        let all = await withTaskCancellationHandler { await requests.value } onCancel: { requests.cancel() }
        daemon.signal(SIGCONT)
        let timedOut = ScrollClientError.timeout(operation: "get", seconds: "0.3")
        #expect(all.count == count)
        #expect(all.allSatisfy { $0 == timedOut }, "\(all)")
        var states = client.states(of: "main").makeAsyncIterator()
        #expect(try await states.next()?.container == "main")
        // The daemon read the lines and serves on.
        try await Self.expectServing(daemon, as: client)
    }

    /// A daemon and a client that waits 0.3 s for anything, the daemon stopped (SIGSTOP) for
    /// sure: a signal takes effect when its target next runs, so the test waits for /proc to
    /// say so. `connect` has read the welcome, so nothing timed happens before the stop, and
    /// nothing answers after it: the short timeout is exact, not a race. The welcome itself
    /// comes under the same 0.3 s: on a loaded machine that may run out, so connecting is tried
    /// again until it succeeds (the deadline only catches a daemon that never greets).
    private static func stoppedDaemon() async throws -> (DaemonProcess, ScrollClient) {
        let daemon = try DaemonProcess()
        let hang = ContinuousClock.now.advanced(by: .seconds(60))
        var connected: ScrollClient?
        while connected == nil {
            do {
                connected = try await ScrollClient.connect(socket: daemon.socketPath, timeout: .milliseconds(300))
            } catch {
                guard case .timeout = error, ContinuousClock.now < hang else { throw error }
            }
        }
        let client = try #require(connected)
        daemon.signal(SIGSTOP)
        #expect(await waitUntil(timeout: 60) { daemon.probe.isStopped })
        return (daemon, client)
    }

    /// The resumed daemon answers, and is the same one `client` met: a patient client shows it
    /// (a loaded machine may take longer than 0.3 s to let a resumed daemon answer).
    private static func expectServing(_ daemon: DaemonProcess, as client: ScrollClient) async throws {
        let patient = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { patient.close() }
        _ = try await patient.ping()
        #expect(client.welcome.instance == patient.welcome.instance)
    }
}
