import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §16 under a service manager that stops reading its notify socket (frozen, or
/// far behind), with the real binary and a stand-in manager (HeldNotifySocket) that reads
/// nothing until the test says so. The socket is a datagram socket: once its queue is full
/// (`net.unix.max_dgram_qlen` messages) a send waits. The daemon used to send the file
/// descriptor store's messages on its loop, so the first connection opened or closed past that
/// held every client until the manager read (for good, if it never did). The deadlines below
/// only catch such a hang.
@Suite("A service manager that reads nothing (its notify socket full)")
struct FrozenServiceManagerTests {
    #if arch(x86_64)
    static let pollCalls: Set<Int> = [ProcessProbe.Syscall.poll, ProcessProbe.Syscall.ppoll]
    #else
    static let pollCalls: Set<Int> = [ProcessProbe.Syscall.ppoll]
    #endif

    /// Whether the daemon's `scrolld-notify` thread is asleep in poll(2): it waits for room in
    /// the manager's queue, so that queue is full (the condition under test, reached).
    static func waitsForTheManager(_ probe: ProcessProbe) -> Bool {
        probe.threadLooks.contains { look in
            guard look.name == "scrolld-notify", let number = Int(look.syscall.split(separator: " ").first ?? "") else { return false }
            return pollCalls.contains(number)
        }
    }

    /// A new connection and its welcome; nil (with the daemon's log recorded) when none comes.
    static func connect(_ daemon: DaemonProcess, number: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> LineClient {
        let client = try LineClient(path: daemon.socketPath)
        let welcome = client.readJSON()
        try #require(welcome?["type"] as? String == "welcome", "connection \(number) got no welcome: the daemon is stuck\n\(daemon.stderr.suffix(2000))", sourceLocation: sourceLocation)
        return client
    }

    /// Connections opened and closed past the manager's queue while it reads nothing: a client's
    /// ping is answered meanwhile. Then the manager reads, and it holds exactly the session and
    /// the connections still open — each stored descriptor the daemon's end of that very
    /// connection, every remove after its store, nothing stored twice — and at a clean stop it
    /// gets the remove of every connection the stop closes.
    @Test func clientsAreServedWhileTheManagerReadsNothingAndTheStoreComesOutRight() throws {
        let manager = try HeldNotifySocket()
        defer { manager.close() }
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": manager.path])
        // The harness' trial connection was client-1.
        let bystander = try Self.connect(daemon, number: 2)
        var open: [(number: Int, client: LineClient)] = [(2, bystander)]
        for index in 0..<(HeldNotifySocket.queueLength + 100) {
            let number = index + 3
            let client = try Self.connect(daemon, number: number)
            if index % 5 == 0 { open.append((number, client)) } else { client.close() }
        }
        let probe = daemon.probe
        #expect(waitUntil(timeout: 60) { Self.waitsForTheManager(probe) }, "the manager's queue never filled: \(probe.threadLooks)")
        #expect(bystander.request(["op": "ping"], id: 1)?["type"] as? String == "pong")

        let expected = Set(open.map { "client-\($0.number)" } + ["session"])
        #expect(manager.read { $0.names == expected }, "the store holds \(manager.names.sorted()), not \(expected.sorted()); \(manager.problems)")
        // A remove queued after everything else: once it is read, everything was.
        let last = open.removeLast()
        last.client.close()
        #expect(manager.read { $0.messages.last == "FDSTOREREMOVE=1 FDNAME=client-\(last.number)" })
        #expect(manager.names == expected.subtracting(["client-\(last.number)"]), "\(manager.names.sorted())")
        print("frozen manager: \(manager.messages.count) messages read for \(HeldNotifySocket.queueLength + 102) connections, \(open.count) of them open")
        for (number, client) in open {
            // What the store holds is the daemon's end of the connection: written through, the
            // client reads it.
            let held = try #require(manager.store["client-\(number)"]?.first)
            let line = Array("{\"through\":\"client-\(number)\"}\n".utf8)
            #expect(line.withUnsafeBytes { Glibc.send(held, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == line.count)
            #expect(client.readJSON()?["through"] as? String == "client-\(number)")
        }
        var info = stat()
        #expect(fstat(manager.store["session"]?.first ?? -1, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)

        daemon.signal(SIGTERM)
        #expect(manager.read { $0.names == ["session"] && $0.messages.contains("STOPPING=1") }, "\(manager.names.sorted())")
        #expect(daemon.stop() == 0)
        #expect(manager.problems.isEmpty, "\(manager.problems)")
        #expect(!daemon.stderr.contains("cannot keep"), "\(daemon.stderr)")
    }

    /// At most 512 stores wait for a manager that reads nothing: the connections past them are
    /// served but not kept (logged once), and neither stored nor removed later; those before
    /// are stored in the order they came.
    @Test func atMost512StoresWaitAndThoseNotKeptAreNeverRemoved() throws {
        _ = raiseOpenFileLimit()
        let manager = try HeldNotifySocket()
        defer { manager.close() }
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": manager.path])
        let count = HeldNotifySocket.queueLength + 512 + 50
        var open: [LineClient] = []
        for index in 0..<count { open.append(try Self.connect(daemon, number: index + 2)) }
        let probe = daemon.probe
        #expect(waitUntil(timeout: 60) { Self.waitsForTheManager(probe) }, "the manager's queue never filled: \(probe.threadLooks)")
        #expect(open[0].request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        #expect(daemon.waitForLog("stores wait for the service manager): a restart will lose it"))

        // client-2's remove comes after every store that waited.
        open[0].close()
        #expect(manager.read { $0.messages.last == "FDSTOREREMOVE=1 FDNAME=client-2" })
        let stored = manager.names.subtracting(["session"]).compactMap { Int($0.dropFirst("client-".count)) }.sorted()
        #expect(stored == Array(3..<(3 + stored.count)), "not the first ones: \(stored)")
        #expect(stored.count >= 512 && stored.count < count - 1, "\(stored.count) of \(count - 1)")
        print("frozen manager: \(stored.count + 1) of \(count) connections stored (queue length \(HeldNotifySocket.queueLength)), \(manager.messages.count) messages read")

        for client in open.dropFirst() { client.close() }
        #expect(manager.read { $0.names == ["session"] }, "\(manager.names.sorted())")
        #expect(daemon.stop() == 0)
        #expect(manager.problems.isEmpty, "\(manager.problems)")
        #expect(daemon.stderr.components(separatedBy: "cannot keep").count == 2, "logged once: \(daemon.stderr.suffix(2000))")
    }

    /// A manager that reads nothing does not hold a clean stop: what waits is given up on after
    /// a while, and the daemon exits with status 0 (the harness' deadline is what fails a hang).
    @Test func aManagerThatReadsNothingDoesNotHoldTheStop() throws {
        let manager = try HeldNotifySocket()
        defer { manager.close() }
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": manager.path])
        var open: [LineClient] = []
        for index in 0..<(HeldNotifySocket.queueLength + 20) { open.append(try Self.connect(daemon, number: index + 2)) }
        let probe = daemon.probe
        #expect(waitUntil(timeout: 60) { Self.waitsForTheManager(probe) }, "the manager's queue never filled: \(probe.threadLooks)")
        #expect(daemon.stop() == 0)
        #expect(daemon.stderr.contains("the service manager took none of the daemon's last messages"), "\(daemon.stderr.suffix(2000))")
        withExtendedLifetime(open) {}
    }
}
