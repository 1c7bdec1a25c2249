import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scrolld run under systemd's protocols, and idle", .serialized)
struct SystemdIntegrationTests {
    /// A datagram socket standing in for systemd's notify socket.
    final class NotifySocket {
        let fd: Int32
        let path: String

        init() throws {
            path = "/tmp/sd-notify-\(UUID().uuidString.prefix(8))"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard bound == 0 else { throw HarnessError("bind \(path)") }
        }

        deinit {
            close(fd)
            unlink(path)
        }

        /// Messages received within `timeout` seconds, until one contains `until`.
        func receive(until marker: String, timeout: Double = 10) -> [String] {
            var messages: [String] = []
            let deadline = Date().addingTimeInterval(timeout)
            while deadline.timeIntervalSinceNow > 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 100) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { continue }
                let message = String(decoding: buffer[..<n], as: UTF8.self)
                messages.append(message)
                if message.contains(marker) { break }
            }
            return messages
        }
    }

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
