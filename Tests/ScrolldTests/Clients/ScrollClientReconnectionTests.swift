import Foundation
import ScrollClient
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A `scrolld run` on one socket path that a test kills (SIGKILL: no goodbye to anyone) and
/// starts again, as a crash and a restart by hand would, without systemd (a new daemon each
/// time: a new `instance`, nothing kept).
final class RestartableDaemon: @unchecked Sendable {
    let directory: URL
    let socketPath: String
    let configPath: String
    private(set) var process: Process?

    init() throws {
        directory = URL(fileURLWithPath: "/tmp/sd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent("s.sock").path
        configPath = directory.appendingPathComponent("scrolld.toml").path
        try "".write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    /// Starts a daemon and waits until it greets a client (a deadline only catches a hang).
    func start() async throws {
        let process = Process()
        process.executableURL = Scrolld.binary
        process.arguments = ["run", "--socket", socketPath, "--config", configPath, "--set", "daemon.realtime_priority=0"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        let deadline = ContinuousClock.now.advanced(by: .seconds(60))
        while true {
            if let probe = try? await ScrollClient.connect(socket: socketPath, timeout: .seconds(10)) {
                probe.close()
                return
            }
            guard ContinuousClock.now < deadline, process.isRunning else { throw HarnessError("scrolld did not start at \(socketPath)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    func kill() {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit {
        kill()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// `reconnect: true` (docs/design.md §20) against a daemon killed and started again: the owner
/// of a container and a viewer of it in separate clients, each reconnecting on its own.
@Suite("ScrollClient reconnection against a real scrolld")
struct ScrollClientReconnectionTests {
    static let feed = ContainerSettings(
        containerSize: Size(width: 400, height: 600),
        header: .init(minHeight: 60, maxHeight: 200),
        rows: .uniform(count: 100, height: 44)
    )

    /// The viewer's next states until one satisfies `condition`; records each `resumed` seen.
    static func next(
        _ states: inout ContainerStates.AsyncIterator, resumed: inout Int, until condition: (ContainerState) -> Bool
    ) async throws -> ContainerState {
        while true {
            guard let state = try await states.next() else { throw HarnessError("the viewer's states ended") }
            if state.resumed { resumed += 1 }
            if condition(state) { return state }
        }
    }

    /// 100 kills and restarts. Each time the owner re-creates its owned container from its
    /// current description (the rows as edited, not the calls that made them) and puts it back
    /// at its last resting offset; the viewer, which may come back before the owner, waits for
    /// the container and goes on, its first state after each restart marked `resumed`, its
    /// observation too; a request the owner makes while the daemon is away waits for it.
    /// (The time limit only catches a hang: a restart not put back waits for ever.)
    @Test(.timeLimit(.minutes(10))) func aHundredRestartsWithOwnerAndViewerApart() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let owner = try await ScrollClient.connect(socket: daemon.socketPath, timeout: .seconds(60), reconnect: true)
        defer { owner.close() }
        let viewer = try await ScrollClient.connect(socket: daemon.socketPath, timeout: .seconds(60), reconnect: true)
        defer { viewer.close() }
        try await owner.configure("feed", Self.feed, owned: true)
        // Edits folded into the description: 100 + 20 − 5 rows, and 3 rows of 10 px at the top.
        try await owner.configure("feed", ContainerSettings(rows: .insert(at: 100, count: 20)))
        try await owner.configure("feed", ContainerSettings(rows: .remove(at: 0, count: 5)))
        try await owner.configure("feed", ContainerSettings(rows: .insert(at: 0, heights: [10, 10, 10])))
        let contentHeight = 200 + 30 + 115 * 44.0
        var states = viewer.states(of: "feed").makeAsyncIterator()
        var progress = viewer.observe("feed", .headerProgress()).makeAsyncIterator()
        var resumed = 0
        _ = try await Self.next(&states, resumed: &resumed) { $0.contentSize.height == contentHeight }
        // (The edits above the rows moved the offset: scroll anchoring keeps the rows in view.)
        var lastProgress: Double?? = .some(try #require(try await progress.next()).new)
        var instances: Set<String> = [owner.welcome.instance ?? ""]
        for restart in 1...100 {
            // A new resting offset each time, seen by the owner (its get) before the kill.
            let y = Double(restart * 7 % 300 * 10)
            try await owner.scroll("feed", to: ScrollPosition(y: y), animation: .none)
            #expect(try await owner.get("feed").contentOffset.y == y)
            // At rest with its scroll indicators hidden again (docs/design.md §22): nothing of the
            // old daemon is still to come when it is killed.
            let before = try await Self.next(&states, resumed: &resumed) {
                $0.contentOffset.y == y && $0.phase == .idle && $0.indicators?.y?.visible == false
            }
            #expect(!before.resumed)
            let progressBefore = y >= 140 ? 1.0 : y / 140
            while lastProgress != .some(progressBefore) {
                guard let change = try await progress.next() else { throw HarnessError("the observation ended") }
                lastProgress = .some(change.new)
            }
            let resumedBefore = resumed
            daemon.kill()
            // Made while the owner is away (a request in flight when the connection broke
            // fails with `.disconnected`, as it may or may not have been carried out): it
            // waits for the connection.
            #expect(await waitUntil(timeout: 60) { !owner.isConnected })
            let pinged = Task { try await owner.ping() }
            try await daemon.start()
            let after = try await Self.next(&states, resumed: &resumed) {
                $0.contentOffset.y == y && $0.contentSize.height == contentHeight && $0.phase == .idle
            }
            #expect(resumed == resumedBefore + 1, "restart \(restart): \(resumed - resumedBefore) states marked resumed")
            #expect(after.seq < 10, "restart \(restart): seq \(after.seq) on a new daemon")
            _ = try await pinged.value
            // The observation went on: its first change after the restart is marked, its `old`
            // the value it had.
            var change = try #require(try await progress.next())
            #expect(change.resumed, "restart \(restart)")
            #expect(change.old == lastProgress, "restart \(restart)")
            while change.new != .some(progressBefore) {
                change = try #require(try await progress.next())
            }
            lastProgress = .some(progressBefore)
            instances.insert(owner.welcome.instance ?? "")
            #expect(viewer.welcome.instance == owner.welcome.instance)
        }
        #expect(instances.count == 101)
    }

    /// A viewer that comes back before the container it follows exists again (its owner has
    /// not come back yet) waits for it (docs/design.md §20's waiting subscriptions): its
    /// sequences go on once another client creates the container, marked `resumed`.
    @Test(.timeLimit(.minutes(5))) func aViewerWaitsForAContainerItsOwnerHasNotCreatedYet() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let owner = try await ScrollClient.connect(socket: daemon.socketPath)
        try await owner.configure("feed", Self.feed, owned: true)
        let viewer = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true)
        defer { viewer.close() }
        var states = viewer.states(of: "feed").makeAsyncIterator()
        var phases = viewer.observe("feed", .phase).makeAsyncIterator()
        #expect(try await states.next()?.resumed == false)
        #expect(try await phases.next()?.new == .idle)
        daemon.kill()
        try await daemon.start()
        #expect(await waitUntil(timeout: 60) { viewer.isConnected })
        // The viewer is back, and "feed" does not exist: its owner did not reconnect.
        await #expect(throws: ScrollClientError.daemon(code: .unknownContainer, message: #"unknown container "feed""#)) {
            _ = try await viewer.get("feed")
        }
        let newOwner = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { newOwner.close() }
        try await newOwner.configure("feed", Self.feed, owned: true)
        try await newOwner.scroll("feed", to: ScrollPosition(y: 120), animation: .none)
        var state = try #require(try await states.next())
        #expect(state.resumed)
        while state.contentOffset.y != 120 { state = try #require(try await states.next()) }
        let phase = try #require(try await phases.next())
        #expect(phase.resumed && phase.old == .idle && phase.new == .idle)
        owner.close()
    }

    /// A new daemon gets again what the client set and a restart undid: its pause and its focus
    /// (nobody else holds the focus), and its containers — put back at their resting offset,
    /// or, with `restoreOffsets: false`, left at their start. A request made after the restart
    /// is sent after all of that, so its reply shows it.
    @Test(.timeLimit(.minutes(5))) func pausesFocusAndOffsetsComeBack() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true)
        defer { client.close() }
        let plain = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true, restoreOffsets: false)
        defer { plain.close() }
        try await client.configure("feed", Self.feed, owned: true)
        try await plain.configure("log", Self.feed)
        try await client.scroll("feed", to: ScrollPosition(y: 300), animation: .none)
        try await plain.scroll("log", to: ScrollPosition(y: 300), animation: .none)
        #expect(try await plain.get("log").contentOffset.y == 300)
        try await client.pause("main")
        try await client.focus("feed")
        #expect(try await client.get("feed").contentOffset.y == 300)
        let instance = client.welcome.instance
        daemon.kill()
        #expect(await waitUntil(timeout: 60) { !client.isConnected && !plain.isConnected })
        try await daemon.start()
        #expect(try await client.get("main").paused)
        #expect(try await client.get("feed").contentOffset.y == 300)
        #expect(client.welcome.instance != instance)
        #expect(try await plain.get("log").contentOffset.y == 0)
        let other = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { other.close() }
        #expect(other.welcome.focus == "feed")
    }

    /// The slowest spring there is: 10 s and overdamped (a damping ratio of 10), minutes from
    /// 15 000 px to rest, so that however slow the machine, and however long the test's tasks
    /// wait for a thread, the motion is still on its way at the kill (a 10 s spring was not,
    /// once, on a loaded machine).
    static let slowest = Spring(duration: 10, bounce: -0.9)

    /// A scroll still on its way when the daemon dies comes back where it was going, not where
    /// the container last rested: the client knows its own target (as the Python client and
    /// libscrolld do).
    @Test(.timeLimit(.minutes(5))) func aScrollOnItsWayComesBackWhereItWasGoing() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true)
        defer { client.close() }
        try await client.configure("far", ContainerSettings(containerSize: Size(width: 400, height: 300), contentSize: Size(width: 400, height: 30000)), owned: true)
        try await client.scroll("far", to: ScrollPosition(y: 15000), animation: .spring(Self.slowest))
        #expect(try await client.get("far").phase != .idle)
        daemon.kill()
        #expect(await waitUntil(timeout: 60) { !client.isConnected })
        try await daemon.start()
        let back = try await client.get("far")
        #expect(back.contentOffset.y == 15000 && back.phase == .idle, "\(back)")
    }

    /// The trial's log: its rows arrive while it springs to its end, so it has not rested
    /// there when the daemon dies; it comes back at its new end, following, not at the offset
    /// it last rested at (docs/decisions.md, "Where a client puts a container back"). The
    /// spring is ``slowest``, so that it is still on its way at the kill.
    @Test(.timeLimit(.minutes(5))) func aLogFollowingItsEndComesBackAtItsEnd() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true)
        defer { client.close() }
        let log = ContainerSettings(containerSize: Size(width: 420, height: 720), rows: .uniform(count: 60, height: 24), anchor: .bottom)
        try await client.configure("log", log, owned: true)
        try await client.scroll("log", to: ScrollPosition(y: 0), animation: .none)
        var states = client.states(of: "log").makeAsyncIterator()
        var resumed = 0
        _ = try await Self.next(&states, resumed: &resumed) { $0.phase == .idle && $0.contentOffset.y == 0 }
        try await client.scroll("log", to: .edge(.bottom), animation: .spring(Self.slowest))
        try await client.configure("log", ContainerSettings(rows: .insert(at: 60, count: 1)))
        _ = try await Self.next(&states, resumed: &resumed) { $0.phase != .idle && $0.contentOffset.y > 0 }
        daemon.kill()
        try await daemon.start()
        // From the first state of the new daemon on (one before it may be the old one's).
        var back = try await Self.next(&states, resumed: &resumed) { $0.resumed }
        if !(back.phase == .idle && back.contentSize.height == 61 * 24) {
            back = try await Self.next(&states, resumed: &resumed) { $0.phase == .idle && $0.contentSize.height == 61 * 24 }
        }
        #expect(back.contentOffset.y == 61 * 24 - 720)
        try await client.configure("log", ContainerSettings(rows: .insert(at: 61, count: 1)))
        let following = try await Self.next(&states, resumed: &resumed) { $0.phase == .idle && $0.contentSize.height == 62 * 24 }
        #expect(following.contentOffset.y == 62 * 24 - 720)
    }

    /// Without `reconnect`, the daemon's going away ends sequences and requests with
    /// `.disconnected`; with it, a client closed while it waits to reconnect ends its
    /// sequences with `.closed`.
    @Test(.timeLimit(.minutes(5))) func closedWhileReconnecting() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true)
        var states = client.states(of: "main").makeAsyncIterator()
        _ = try await states.next()
        daemon.kill()
        #expect(await waitUntil(timeout: 60) { !client.isConnected })
        client.close()
        await #expect(throws: ScrollClientError.closed("the ScrollClient was closed (close())")) { _ = try await states.next() }
    }

    /// `latest()`, for a UI that draws at its own rate, tells of a reconnection as iteration
    /// does: the state it returns stands for every one it dropped, the resumed one among them.
    @Test(.timeLimit(.minutes(5))) func latestTellsOfTheReconnectionItDroppedPast() async throws {
        let daemon = try RestartableDaemon()
        try await daemon.start()
        let client = try await ScrollClient.connect(socket: daemon.socketPath, reconnect: true)
        defer { client.close() }
        try await client.configure("list", Self.feed)
        // One sequence is only ever read through latest(); another of the same subscription,
        // iterated, shows when the same states are waiting in the first.
        let drawn = client.states(of: "list")
        var follower = client.states(of: "list").makeAsyncIterator()
        _ = try await follower.next()
        daemon.kill()
        try await daemon.start()
        var resumed = 0
        _ = try await Self.next(&follower, resumed: &resumed) { $0.resumed }
        try await client.scroll("list", to: ScrollPosition(y: 300), animation: .none)
        _ = try await Self.next(&follower, resumed: &resumed) { $0.contentOffset.y == 300 }
        let latest = try drawn.latest()
        #expect(latest?.contentOffset.y == 300)
        #expect(latest?.resumed == true)
    }
}
