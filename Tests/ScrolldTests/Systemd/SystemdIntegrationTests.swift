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

    /// The file descriptor store (docs/design.md §16) through a notify socket that goes away, as a
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

    /// Idle means asleep for good: every thread of the daemon waits in the kernel for
    /// something from outside, with no timeout and no timer armed (ProcessProbe.whatMayWakeIt),
    /// so nothing inside it can wake it however long it is left. That is one look at /proc,
    /// not a watch over a window of time: a daemon that polls is never in that state between
    /// its wake-ups, and a loaded machine only delays the moment it is reached.
    @Test func anIdleDaemonNeverWakesUp() throws {
        let daemon = try DaemonProcess()
        let probe = daemon.probe
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        // Some motion first, then rest (its idle state received): the frame timer must be gone.
        #expect(client.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        _ = client.request(["op": "scrollTo", "container": "main", "y": 300, "animation": "smooth"], id: 2)
        var rested = false
        while !rested, let line = client.readJSON() { rested = line["type"] as? String == "state" && line.phase == "idle" && line.y == 300 }
        #expect(rested)
        // The deadline only catches a daemon that never gets there (one that polls); a timer
        // left armed by the motion may still fire once, finding nothing due.
        var reason: String?
        #expect(waitUntil(timeout: 30) {
            reason = probe.whatMayWakeIt()
            return reason == nil
        }, "\(reason ?? "")")
        // A request wakes the event loop and nothing else: a ping answered, the daemon asleep
        // for good again, and its other threads (input, main) have not run in between.
        let asleep = probe.threadLooks
        #expect(client.request(["op": "ping"], id: 3)?["type"] as? String == "pong")
        #expect(waitUntil(timeout: 30) {
            reason = probe.whatMayWakeIt()
            return reason == nil
        }, "\(reason ?? "")")
        let again = probe.threadLooks
        #expect(asleep.map(\.tid) == again.map(\.tid), "\(asleep) then \(again)")
        for (before, after) in zip(asleep, again) where !before.name.hasPrefix("NIO-ELT") {
            #expect(after.voluntarySwitches == before.voluntarySwitches, "\(before) then \(after)")
        }
        #expect(zip(asleep, again).contains { $0.name.hasPrefix("NIO-ELT") && $1.voluntarySwitches > $0.voluntarySwitches }, "\(asleep) then \(again)")
        daemon.stop()
    }
}
