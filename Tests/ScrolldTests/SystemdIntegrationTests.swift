import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scrolld run under systemd's protocols, and idle", .serialized)
struct SystemdIntegrationTests {
    @Test func readinessStatusAndStoppingAreNotified() throws {
        let notify = try NotifySocket()
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.path])
        let ready = notify.receive(until: "READY=1")
        #expect(ready.contains { $0.contains("READY=1") })
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        #expect(notify.receive(until: "1 clients").contains { $0.contains("STATUS=") && $0.contains("1 clients") })
        daemon.signal(SIGTERM)
        #expect(notify.receive(until: "STOPPING=1").contains { $0.contains("STOPPING=1") })
        #expect(daemon.stop() == 0)
    }

    /// The file descriptor store (DESIGN §16) through a notify socket that goes away, as a
    /// stand-in manager's does: the connection it refuses is logged once, and no connection is
    /// offered or withdrawn again, even when a socket is back at that path — three system calls
    /// per connection for nothing, under churn — while the rest (`STATUS=`) carries on.
    @Test func aNotifySocketThatRefusedIsOfferedNoConnectionAgain() throws {
        var notify = try NotifySocket()
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.path])
        #expect(notify.receive(until: "READY=1").contains { $0.contains("READY=1") })
        let first = try LineClient(path: daemon.socketPath)
        _ = first.readJSON()
        let kept = notify.receive(until: "FDSTORE=1")
        #expect(kept.contains { $0.contains("FDSTORE=1") && $0.contains("FDNAME=client-") }, "\(kept)")

        let path = notify.path
        notify.close()
        let second = try LineClient(path: daemon.socketPath)
        _ = second.readJSON()
        let warning = "in systemd's file descriptor store (No such file or directory)"
        #expect(waitUntil(timeout: 30) { daemon.stderr.contains(warning) }, "\(daemon.stderr)")

        notify = try NotifySocket(path: path)
        let third = try LineClient(path: daemon.socketPath)
        _ = third.readJSON()
        // Sent in order on one socket: an offer of the third connection would come before the
        // count that includes it.
        let afterThird = notify.receive(until: "3 clients")
        #expect(afterThird.contains { $0.contains("STATUS=") && $0.contains("3 clients") }, "\(afterThird)")
        #expect(!afterThird.contains { $0.contains("FDSTORE") }, "\(afterThird)")
        first.close()
        let afterClose = notify.receive(until: "2 clients")
        #expect(afterClose.contains { $0.contains("2 clients") }, "\(afterClose)")
        #expect(!afterClose.contains { $0.contains("FDSTOREREMOVE") }, "\(afterClose)")
        #expect(daemon.stderr.components(separatedBy: "systemd's file descriptor store").count == 2, "warned once: \(daemon.stderr)")
        second.close()
        third.close()
        #expect(daemon.stop() == 0)
    }

    @Test func theWatchdogIsPingedOnlyWhenSystemdAsks() throws {
        let notify = try NotifySocket()
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        #expect(notify.receive(until: "WATCHDOG=1").contains { $0.contains("WATCHDOG=1") })
        daemon.stop()
    }

    @Test func aSocketPassedBySystemdIsServed() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"))
        let directory = "/tmp/sd-act-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/s.sock"
        let activator = Process()
        activator.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        // The socket path given to scrolld is a decoy: it must use the inherited fd instead.
        activator.arguments = ["-l", path, Scrolld.binary.path, "run", "--config", "/dev/null", "--socket", directory + "/unused.sock"]
        activator.standardError = FileHandle.nullDevice
        activator.standardOutput = FileHandle.nullDevice
        try activator.run()
        defer { if activator.isRunning { activator.terminate(); activator.waitUntilExit() } }
        var welcome: [String: Any]?
        _ = waitUntil(timeout: 30) {
            welcome = (try? LineClient(path: path))?.readJSON()
            return welcome != nil
        }
        #expect(welcome?["type"] as? String == "welcome")
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused.sock"))
    }

    /// Idle means asleep in the kernel: no thread of the daemon is scheduled at all.
    @Test func anIdleDaemonNeverWakesUp() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        // Some motion first, then rest (its idle state received): the frame timer must be gone.
        #expect(client.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        _ = client.request(["op": "scrollTo", "container": "main", "y": 300, "animation": "smooth"], id: 2)
        var rested = false
        while !rested, let line = client.readJSON() { rested = line["type"] as? String == "state" && line.phase == "idle" && line.y == 300 }
        #expect(rested)
        let tasks = "/proc/\(daemon.process.processIdentifier)/task"
        /// Voluntary context switches of all threads, and whether every thread is asleep (S).
        func threads() -> (switches: Int, asleep: Bool) {
            let ids = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
            var switches = 0, asleep = !ids.isEmpty
            for id in ids {
                let status = procFile("\(tasks)/\(id)/status") ?? ""
                for line in status.split(separator: "\n") {
                    if line.hasPrefix("voluntary_ctxt_switches") { switches += Int(line.split(separator: "\t").last ?? "") ?? 0 }
                    if line.hasPrefix("State:") { asleep = asleep && line.contains("S (sleeping)") }
                }
            }
            return (switches, asleep)
        }
        // Once it has gone to sleep after sending that state (a thread that wrote the state is
        // still on its way back to epoll_wait), nothing may wake it for 3 s.
        var before = threads()
        #expect(waitUntil(timeout: 30) {
            let now = threads()
            defer { before = now }
            return now.asleep && before.asleep && now.switches == before.switches
        })
        usleep(3_000_000)
        #expect(threads().switches - before.switches == 0)
        daemon.stop()
    }
}
