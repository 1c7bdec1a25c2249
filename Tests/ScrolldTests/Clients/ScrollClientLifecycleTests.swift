import Foundation
import ScrollClient
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs `body`, failing the test if it has not finished within `seconds`: a deadline that only
/// catches a hang. On a hang the body is cancelled and left behind (it may wait on something
/// that ignores cancellation, the very defect a test looks for), and nil is returned at once.
/// Ten minutes: the body's tasks run on the two threads of a 2-core machine's cooperative pool,
/// which the whole suite's blocking tests can hold for minutes (60 s was once too short).
func withinHangDeadline<T: Sendable>(
    _ what: String, seconds: Int = 600, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T? {
    let race = HangRace<T>()
    let work = Task {
        do {
            race.finish(.success(try await body()))
        } catch {
            race.finish(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: .seconds(seconds))
        race.finish(nil)
    }
    let result = await race.wait()
    timer.cancel()
    guard let result else {
        work.cancel()
        Issue.record("\(what) did not end within \(seconds) s", sourceLocation: sourceLocation)
        return nil
    }
    return try result.get()
}

/// The first of a body's result and a deadline (nil).
final class HangRace<T: Sendable>: Sendable {
    private struct State {
        var waiter: CheckedContinuation<Result<T, any Error>?, Never>?
        var result: Result<T, any Error>??
    }

    private let state = Mutex(State())

    func finish(_ result: Result<T, any Error>?) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<T, any Error>?, Never>? in
            guard state.result == nil else { return nil }
            state.result = .some(result)
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    func wait() async -> Result<T, any Error>? {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Result<T, any Error>?? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let done { continuation.resume(returning: done) }
        }
    }
}

/// The lifecycles of ScrollClient against a real daemon: connecting to a daemon that says
/// nothing, cancelling, a client closed or dropped under its sequences, several sequences of
/// one container, and values the daemon would refuse.
@Suite("ScrollClient lifecycles against a real scrolld")
struct ScrollClientLifecycleTests {
    static let feed = ContainerSettings(
        containerSize: Size(width: 400, height: 600),
        header: .init(minHeight: 60, maxHeight: 200),
        rows: .uniform(count: 100, height: 44)
    )

    /// The bytes waiting, unread, in the sockets process `pid` holds (`ss`'s Recv-Q): what a
    /// client sent a stopped daemon.
    static func unreadBytes(of pid: Int32) throws -> Int {
        let result = try Scrolld.runTool("/usr/bin/env", ["ss", "-x", "-n", "-p", "-H"])
        var total = 0
        for line in result.lines where line.contains("pid=\(pid),") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count > 2, let queued = Int(fields[2]) { total += queued }
        }
        return total
    }

    /// A daemon stopped (SIGSTOP) for sure: its socket still accepts connections (the kernel
    /// does), and nothing answers.
    static func stoppedDaemon() async throws -> DaemonProcess {
        let daemon = try DaemonProcess()
        daemon.signal(SIGSTOP)
        #expect(await waitUntil(timeout: 60) { daemon.probe.isStopped })
        return daemon
    }

    /// `connect` waits for the welcome no longer than its timeout, whatever the daemon does.
    @Test func connectHonoursItsTimeoutWhenTheDaemonIsStopped() async throws {
        let daemon = try await Self.stoppedDaemon()
        defer { daemon.signal(SIGCONT) }
        let path = daemon.socketPath
        let outcome = try await withinHangDeadline("connect to a stopped daemon with a 0.3 s timeout") { () -> ScrollClientError? in
            do throws(ScrollClientError) {
                _ = try await ScrollClient.connect(socket: path, timeout: .milliseconds(300))
                return nil
            } catch {
                return error
            }
        }
        #expect(outcome == .some(.timeout(operation: "connect", seconds: "0.3")))
    }

    /// Cancelling the task that connects ends the wait at once, whatever the timeout.
    @Test func connectHonoursCancellation() async throws {
        let daemon = try await Self.stoppedDaemon()
        defer { daemon.signal(SIGCONT) }
        let path = daemon.socketPath
        let connecting = Task { () -> ScrollClientError? in
            do throws(ScrollClientError) {
                _ = try await ScrollClient.connect(socket: path, timeout: .seconds(600))
                return nil
            } catch {
                return error
            }
        }
        connecting.cancel()
        let outcome = try await withinHangDeadline("a cancelled connect") { await connecting.value }
        #expect(outcome == .some(.cancelled(operation: "connect")))
    }

    /// A request whose task is cancelled throws at once, though its reply would take for ever
    /// (the daemon is stopped) and the client's timeout is 600 s; the connection goes on.
    @Test func aRequestHonoursCancellation() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, timeout: .seconds(600))
        defer { client.close() }
        daemon.signal(SIGSTOP)
        #expect(await waitUntil(timeout: 60) { daemon.probe.isStopped })
        let before = try Self.unreadBytes(of: daemon.pid)
        let request = Task { () -> ScrollClientError? in
            do throws(ScrollClientError) {
                _ = try await client.get("main")
                return nil
            } catch {
                return error
            }
        }
        // The request went out (the stopped daemon holds it unread): it waits for its reply.
        #expect(await waitUntil(timeout: 60) { ((try? Self.unreadBytes(of: daemon.pid)) ?? 0) > before })
        request.cancel()
        let outcome = try await withinHangDeadline("a cancelled get") { await request.value }
        daemon.signal(SIGCONT)
        #expect(outcome == .some(.cancelled(operation: "get")))
        #expect(try await client.get("main").container == "main")
    }

    /// A sequence whose client nobody holds any more ends, saying why, instead of waiting for
    /// ever: `try await ScrollClient.connect(...).states(of: "main")`, the client dropped at once.
    @Test func aSequenceEndsWhenItsClientIsDropped() async throws {
        let daemon = try DaemonProcess()
        let path = daemon.socketPath
        let outcome = try await withinHangDeadline("a sequence of a dropped client") { () -> ScrollClientError? in
            let states = try await ScrollClient.connect(socket: path).states(of: "main")
            do throws(ScrollClientError) {
                for try await _ in states {}
                return nil
            } catch {
                return error
            }
        }
        guard case .closed(let reason)?? = outcome else {
            Issue.record("expected .closed, got \(String(describing: outcome))")
            return
        }
        #expect(reason.contains("released"))
    }

    /// `close()` ends every sequence and request with `.closed`, naming close() — not "scrolld
    /// closed the connection".
    @Test func closeEndsSequencesWithItsOwnReason() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        var states = client.states(of: "main").makeAsyncIterator()
        var phases = client.observe("main", .phase).makeAsyncIterator()
        #expect(try await states.next()?.container == "main")
        #expect(try await phases.next()?.new == .idle)
        client.close()
        let closed = ScrollClientError.closed("the ScrollClient was closed (close())")
        await #expect(throws: closed) { _ = try await states.next() }
        await #expect(throws: closed) { _ = try await phases.next() }
        await #expect(throws: closed) { try await client.ping() }
        // A sequence asked for after the close ends at once.
        var late = client.states(of: "main").makeAsyncIterator()
        await #expect(throws: closed) { _ = try await late.next() }
    }

    /// Several sequences of one container share the connection's one subscription: each gets
    /// the current state first, then every change; ending one leaves the others going; another
    /// rate is refused as the Python client refuses it.
    @Test func sequencesOfOneContainerShareItsSubscription() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("list", Self.feed)
        let firstSequence = client.states(of: "list")
        var first = firstSequence.makeAsyncIterator()
        let initial = try #require(try await first.next())
        #expect(initial.contentOffset.y == 0 && initial.seq == 1)
        var second = client.states(of: "list").makeAsyncIterator()
        // The second's first state is the current one (its `t` is the moment it was read).
        let current = try #require(try await second.next())
        #expect(current.seq == initial.seq && current.contentOffset == initial.contentOffset)
        try await client.scroll("list", to: ScrollPosition(y: 30), animation: .none)
        #expect(try await first.next()?.contentOffset.y == 30)
        #expect(try await second.next()?.contentOffset.y == 30)
        // Another rate on the same client is refused; the others go on.
        var other = client.states(of: "list", rate: 10).makeAsyncIterator()
        await #expect(throws: ScrollClientError.self) { _ = try await other.next() }
        firstSequence.cancel()
        #expect(try await first.next() == nil)
        try await client.scroll("list", to: ScrollPosition(y: 40), animation: .none)
        // The indicators' hide (docs/design.md §22), 500 ms after the rest at 30, may come first.
        var next = try await second.next()
        while next?.contentOffset.y == 30 { next = try await second.next() }
        #expect(next?.contentOffset.y == 40)
    }

    /// Values JSON cannot carry, and a request over the daemon's 64 KiB, are refused before
    /// anything is sent, with the daemon's own code; the connection goes on as it was.
    @Test func nonFiniteAndOversizedValuesAreRefusedBeforeSending() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("list", Self.feed)
        await #expect(throws: ScrollClientError.daemon(code: .invalidValue, message: #"invalid "y": expected a finite number, got nan"#)) {
            try await client.scroll("list", to: ScrollPosition(y: .nan), animation: .none)
        }
        await #expect(throws: ScrollClientError.daemon(code: .invalidValue, message: #"invalid "y": expected a finite number, got inf"#)) {
            try await client.scroll("list", to: ScrollPosition(y: .infinity), animation: .none)
        }
        await #expect(throws: ScrollClientError.daemon(code: .invalidValue, message: #"invalid "dy": expected a finite number, got -inf"#)) {
            try await client.scroll("list", by: AxisValues(y: -.infinity), animation: .none)
        }
        await #expect(throws: ScrollClientError.daemon(code: .invalidValue, message: #"invalid "containerSize.width": expected a finite number, got nan"#)) {
            try await client.configure("list", ContainerSettings(containerSize: Size(width: .nan, height: 600)))
        }
        await #expect(throws: ScrollClientError.daemon(code: .invalidValue, message: #"invalid "animation.spring.duration": expected a finite number, got nan"#)) {
            try await client.scroll("list", to: ScrollPosition(y: 10), animation: .spring(Spring(duration: .nan)))
        }
        var nanRate = client.states(of: "list", rate: .nan).makeAsyncIterator()
        await #expect(throws: ScrollClientError.daemon(code: .invalidValue, message: #"invalid "rate": expected a finite number, got nan"#)) {
            _ = try await nanRate.next()
        }
        let huge = ContainerSettings(devices: [String(repeating: "d", count: 70_000)])
        do {
            try await client.configure("list", huge)
            Issue.record("a 70 KB configure was sent")
        } catch {
            #expect(error.code == .tooLarge, "\(error)")
        }
        // Nothing reached the daemon: the list is as it was, and the connection serves on.
        let state = try await client.get("list")
        #expect(state.containerSize == Size(width: 400, height: 600))
        #expect(state.contentOffset.y == 0)
        try await client.ping()
    }

    /// Observed values arrive typed, numbers as Double whether the daemon wrote 0, 0.5 or 1.
    @Test func observationsAreTyped() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("list", ContainerSettings(
            containerSize: Size(width: 400, height: 300), header: .init(minHeight: 50, maxHeight: 120),
            rows: .uniform(count: 40, height: 44)
        ))
        var progress = client.observe("list", .headerProgress()).makeAsyncIterator()
        var offset = client.observe("list", .contentOffsetY()).makeAsyncIterator()
        var rows = client.observe("list", .visibleRows).makeAsyncIterator()
        var nearEnd = client.observe("list", .nearEnd(distance: 100)).makeAsyncIterator()
        var phase = client.observe("list", .phase).makeAsyncIterator()
        #expect(try await progress.next()?.new == .some(0.0))
        #expect(try await offset.next()?.new == 0.0)
        #expect(try await rows.next()?.new == VisibleRows(first: 0, last: 3))
        #expect(try await nearEnd.next()?.new == false)
        #expect(try await phase.next()?.new == .idle)
        try await client.scroll("list", to: ScrollPosition(y: 35), animation: .none)
        let half = try #require(try await progress.next())
        #expect(half.old == .some(0.0) && half.new == .some(0.5))
        #expect(try await offset.next()?.new == 35.0)
        try await client.scroll("list", to: .edge(.bottom), animation: .none)
        #expect(try await progress.next()?.new == .some(1.0))
        #expect(try await nearEnd.next()?.new == true)
        // A container without a header: nil, not a number.
        var none = client.observe("main", .headerHeight()).makeAsyncIterator()
        let first = try #require(try await none.next())
        #expect(first.new == nil)
    }

    /// A state carries every documented field, `paused` included; the welcome its `focus`.
    @Test func statesCarryPausedAndTheWelcomeItsFocus() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        #expect(client.welcome.focus == nil)
        var states = client.states(of: "main").makeAsyncIterator()
        #expect(try await states.next()?.paused == false)
        try await client.pause("main")
        #expect(try await client.get("main").paused)
        try await client.focus("main")
        let other = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { other.close() }
        #expect(other.welcome.focus == "main")
        #expect(try await other.devices().focus == "main")
        try await client.resume("main")
        #expect(try await client.get("main").paused == false)
    }

    /// Every key of `configure` as ContainerSettings spells it is one the daemon takes (a
    /// misspelt key would be `invalid_value`), and row edits apply.
    @Test func everyConfigureKeyIsOneTheDaemonTakes() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("shelf", ContainerSettings(containerSize: Size(width: 400, height: 200), axes: .horizontal))
        let everything = ContainerSettings(
            containerSize: Size(width: 400, height: 600), contentSize: Size(width: 400, height: 5000),
            contentInsets: EdgeInsets(top: 10, leading: 0, bottom: 20, trailing: 0), axes: .vertical,
            header: .init(minHeight: 60, maxHeight: 200, stretch: false, snap: false),
            rows: .uniform(count: 100, height: 44, top: 200, threshold: 0.25, visibleIn: .usable),
            physics: .init(
                profile: "ios", wheelStepAuto: true, wheelAnimation: "smooth", wheelDuration: 0.2, wheelIdle: 0.25,
                fingerScale: 1, rubberBand: 0.55, overscroll: true, momentum: true, minFlingVelocity: 50,
                velocityWindow: 0.15, decelerationRate: 0.998, decelerationEndDistance: 0.5, bounceStiffness: 100,
                settleDistance: 0.5, settleVelocity: 10, friction: 4, stopVelocity: 0.1, dragOvershootLimit: 100,
                flingOvershootLimit: 50
            ),
            scrollTarget: .rows, anchor: .top, devices: ["mouse"], parent: .container("shelf"), overscroll: .contain
        )
        try await client.configure("list", everything, animation: ScrollAnimation.none)
        try await client.configure("list", ContainerSettings(physics: .init(wheelStep: 40), parent: ContainerSettings.Parent.none))
        try await client.configure("list", ContainerSettings(rows: .insert(at: 0, count: 10)))
        try await client.configure("list", ContainerSettings(rows: .insert(at: 0, heights: [10, 20])))
        try await client.configure("list", ContainerSettings(rows: .remove(at: 0, count: 2)))
        try await client.configure("list", ContainerSettings(additional: ["anchor": .string("bottom")]))
        let state = try await client.get("list")
        #expect(state.contentSize.height == 5000)
        #expect(state.contentInsets == EdgeInsets(top: 10, leading: 0, bottom: 20, trailing: 0))
        // The header at its offset (docs/design.md §5): clamp(M − u, m, M), u measured from the
        // top resting edge, lo = −10 (the top inset).
        let u = state.contentOffset.y + 10
        #expect(state.header?.height == max(60, min(200, 200 - u)), "\(state)")
        await #expect(throws: ScrollClientError.self) {
            try await client.configure("list", ContainerSettings(additional: ["nonsense": .integer(1)]))
        }
    }
}
