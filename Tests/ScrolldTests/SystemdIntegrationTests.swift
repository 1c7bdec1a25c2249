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

    @Test func theWatchdogIsPingedOnlyWhenSystemdAsks() throws {
        let notify = try NotifySocket()
        let daemon = try DaemonProcess(environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        #expect(notify.receive(until: "WATCHDOG=1", timeout: 5).contains { $0.contains("WATCHDOG=1") })
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
        for _ in 0..<200 where welcome == nil {
            if let client = try? LineClient(path: path) { welcome = client.readJSON(timeout: 10) } else { usleep(25_000) }
        }
        #expect(welcome?["type"] as? String == "welcome")
        #expect(!FileManager.default.fileExists(atPath: directory + "/unused.sock"))
    }

    /// Idle means asleep in the kernel: no thread of the daemon is scheduled at all.
    @Test func anIdleDaemonNeverWakesUp() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        // Some motion first, then rest: the frame timer must be gone afterwards.
        _ = client.request(["op": "scrollTo", "container": "main", "y": 300, "animation": "smooth"], id: 1)
        usleep(1_500_000)
        func switches() -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.processIdentifier)/task")) ?? []
            return tasks.reduce(0) { sum, task in
                let status = (try? String(contentsOfFile: "/proc/\(daemon.process.processIdentifier)/task/\(task)/status", encoding: .utf8)) ?? ""
                let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches") }
                return sum + (line.flatMap { Int($0.split(separator: "\t").last ?? "") } ?? 0)
            }
        }
        let before = switches()
        usleep(3_000_000)
        #expect(switches() - before == 0)
        daemon.stop()
    }
}
