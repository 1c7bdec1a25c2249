import Foundation
import Testing

/// `run --fallback-replay LOG` serves the log when no device is usable; the `devices` request
/// then lists what the daemon reads, the log's devices, as under `run --replay LOG` (it listed
/// none: only the live input was asked, found by a user's trial of every command).
@Suite("scrolld run --fallback-replay: the devices it reads")
struct FallbackReplayDevicesTests {
    static let demoDevices = ["Logitech MX Master 3", "SynPS/2 Synaptics TouchPad", "Generic USB Mouse"]

    @Test func devicesListsTheFallbackLogsDevicesAsReplayDoes() throws {
        // A seat no device is on: nothing usable on any machine, so the fallback serves.
        let daemon = try DaemonProcess(arguments: [
            "--fallback-replay", Scrolld.example("demo.scrolllog"), "--set", "daemon.seat=scrolld-test-no-such-seat",
        ])
        #expect(daemon.waitForLog("DEMO: serving"), "\(daemon.stderr)")
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        var names: [String] = []
        // The log's first events add its devices, at once; the deadline only catches a hang.
        let listed = waitUntil(timeout: 60) {
            let reply = client.request(["op": "devices"], id: 1)
            names = (reply?["devices"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            return names.count == Self.demoDevices.count
        }
        #expect(listed, "\(names)")
        #expect(names == Self.demoDevices)

        // What a user sees: the same table as under --replay.
        let table = try Scrollctl.run(["devices"], on: daemon)
        #expect(table.status == 0, "\(table.stderr)")
        let rows = table.lines.dropFirst().dropLast(3)
        #expect(rows.count == Self.demoDevices.count, "\(table.output)")
        #expect(zip(rows, Self.demoDevices).allSatisfy { row, name in row.contains(name) && row.contains("main") }, "\(table.output)")
    }
}
