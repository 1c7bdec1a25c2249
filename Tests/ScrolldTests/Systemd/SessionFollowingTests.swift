import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §15 where there is no logind to follow (this host, CI's container): one info line
/// saying so, input read as before, `input` active in the `devices` reply. The real sessions,
/// VT switches and sleep are tested in the systemd guest (Tests/e2e/systemd-guest.sh).
@Suite("Following logind sessions, without logind", .serialized)
struct SessionFollowingTests {
    /// The `devices` reply's `input` object, and the daemon's log lines about logind.
    static func inputState(of daemon: DaemonProcess) throws -> [String: Any] {
        let client = try LineClient(path: daemon.socketPath)
        let welcome = try #require(client.readJSON())
        #expect((welcome["features"] as? [String])?.contains("session") == true)
        let reply = try #require(client.request(["op": "devices"], id: 1))
        return try #require(reply["input"] as? [String: Any])
    }

    static func logindLines(_ daemon: DaemonProcess) -> [Substring] {
        daemon.stderr.split(separator: "\n").filter { $0.contains("logind") || $0.contains("input paused") || $0.contains("input resumed") }
    }

    @Test func withoutASystemBusOneInfoLineAndInputAsBefore() throws {
        let daemon = try DaemonProcess(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/scrolld-test/system_bus_socket"])
        #expect(daemon.waitForLog("not following logind sessions"))
        let input = try Self.inputState(of: daemon)
        #expect(input["state"] as? String == "active")
        #expect(input["reason"] is NSNull)
        let lines = Self.logindLines(daemon)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("not following logind sessions: no system bus (No such file or directory); input is read regardless of the session") == true, "\(lines)")
        #expect(daemon.stop() == 0)
    }

    /// A real system bus (a dbus-daemon of the test's own) on which no logind runs.
    @Test func aSystemBusWithoutLogindIsOneInfoLineToo() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon"))
        let directory = "/tmp/sd-bus-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bus = Process()
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--session", "--nofork", "--nopidfile", "--address=unix:path=\(directory)/bus"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        // SIGKILL: a child of the test runner inherits its blocked SIGTERM.
        defer { kill(bus.processIdentifier, SIGKILL); bus.waitUntilExit() }
        #expect(waitUntil(timeout: 30) { FileManager.default.fileExists(atPath: "\(directory)/bus") })

        let daemon = try DaemonProcess(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory)/bus"])
        #expect(daemon.waitForLog("not following logind sessions"))
        #expect(try Self.inputState(of: daemon)["state"] as? String == "active")
        let lines = Self.logindLines(daemon)
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains("not following logind sessions: logind's GetSeat failed: org.freedesktop.DBus.Error.ServiceUnknown") == true, "\(lines)")
        #expect(daemon.stop() == 0)
    }

    @Test func followSessionFalseDoesNotAskTheBus() throws {
        let daemon = try DaemonProcess(
            config: "[daemon]\nfollow_session = false\n",
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/scrolld-test/system_bus_socket"]
        )
        #expect(try Self.inputState(of: daemon)["state"] as? String == "active")
        #expect(daemon.stop() == 0)
        #expect(Self.logindLines(daemon).isEmpty, "\(Self.logindLines(daemon))")
    }
}
