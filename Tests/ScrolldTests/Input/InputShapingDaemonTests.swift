import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §18 on a live daemon (`scrolld run --replay LOG` as its input, real sockets): the
/// `source` observation, the rules each device matched, and live shaping equal to a replay of
/// the recording, across a reload that changes a device's speed.
@Suite(.serialized) struct InputShapingDaemonTests {
    static let header = #"{"format":"scrolld-events","version":1,"created":"2026-11-25T12:00:00Z","source":"test"}"#
    static let config = """
        [input.devices.mouse]
        match = "Mouse"
        speed = 2
        wheel_acceleration = 2

        [input.devices.touchpad]
        match = "TouchPad"
        speed_y = 0.5

        [input.devices.usb]
        match = "USB"
        """

    /// A mouse and a touchpad taking turns: four wheel clicks, then a two-finger drag.
    static func turns(passes: Int, start: Int = 500_000) -> String {
        var lines = [
            header,
            #"{"t":\#(start - 1000),"dev":1,"type":"device_added","name":"Logitech USB Optical Mouse","caps":["wheel"]}"#,
            #"{"t":\#(start - 1000),"dev":2,"type":"device_added","name":"SynPS/2 Synaptics TouchPad","caps":["finger","hold"]}"#,
        ]
        var t = start
        for pass in 0..<passes {
            let sign = pass % 2 == 0 ? 1 : -1
            for _ in 0..<4 {
                lines.append(#"{"t":\#(t),"dev":1,"type":"wheel","v120":{"y":\#(120 * sign)}}"#)
                t += 30_000
            }
            t += 400_000
            for _ in 0..<4 {
                lines.append(#"{"t":\#(t),"dev":2,"type":"finger","delta":{"y":\#(12 * sign)}}"#)
                t += 10_000
            }
            lines.append(#"{"t":\#(t),"dev":2,"type":"finger","delta":{"y":0}}"#)
            t += 1_200_000
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func name(_ value: Any?) -> String? { (value as? [String: Any])?["name"] as? String }
    static func kind(_ value: Any?) -> String? { (value as? [String: Any])?["kind"] as? String }

    /// A client observing `source` hears the device change each time input switches from the
    /// mouse to the touchpad and back, and nothing while it stays with one: every message
    /// changes the value, and the messages alternate between the two.
    @Test func sourceObservationFollowsTheDeviceOverTheSocket() throws {
        let log = try Scrolld.temporaryFile(Self.turns(passes: 1))
        let daemon = try DaemonProcess(config: Self.config, arguments: ["--loop"], replay: log)
        defer { daemon.stop() }
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        client.send(#"{"op":"observe","container":"main","of":"source","id":"src"}"#)
        let first = try #require(client.read(type: "observation"), "\(daemon.stderr)")
        #expect(first["of"] as? String == "source")
        #expect(first["old"] is NSNull)
        var messages: [[String: Any]] = []
        // Five switches: the log's 4 clicks and 5 finger events per pass would give 9 messages
        // per pass if every event were told.
        while messages.count < 5, let message = client.read(type: "observation") {
            messages.append(message)
        }
        #expect(messages.count == 5, "\(daemon.stderr)")
        for message in messages {
            #expect(message["id"] as? String == "src")
            let old = message["old"] as? [String: Any], new = message["new"] as? [String: Any]
            #expect(old != nil || message["old"] is NSNull)
            #expect(Self.name(old) != Self.name(new), "\(message)")
            #expect((message["seq"] as? NSNumber)?.intValue ?? 0 > 0)
        }
        for (a, b) in zip(messages, messages.dropFirst()) {
            #expect(Self.name(a["new"]) == Self.name(b["old"]))
        }
        for message in messages {
            let new = try #require(message["new"] as? [String: Any])
            let fields = ((new["device"] as? NSNumber)?.intValue, new["name"] as? String, new["kind"] as? String)
            if fields.2 == "wheel" {
                #expect(fields.0 == 1 && fields.1 == "Logitech USB Optical Mouse", "\(new)")
            } else {
                #expect(fields.0 == 2 && fields.1 == "SynPS/2 Synaptics TouchPad" && fields.2 == "finger", "\(new)")
            }
            #expect(new.count == 3)
        }
        #expect(Set(messages.compactMap { Self.kind($0["new"]) }) == ["wheel", "finger"])
    }

    /// The `devices` reply (and `scrollctl devices`) names the rules that matched each device.
    @Test func devicesShowTheRulesThatMatched() throws {
        let log = try Scrolld.temporaryFile(Self.turns(passes: 1))
        let daemon = try DaemonProcess(config: Self.config, arguments: ["--loop"], replay: log)
        defer { daemon.stop() }
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        var devices: [[String: Any]] = []
        #expect(waitUntil(timeout: 30) {
            devices = client.request(["op": "devices"], id: 1)?["devices"] as? [[String: Any]] ?? []
            return devices.count == 2
        })
        let rules = Dictionary(uniqueKeysWithValues: devices.map { ($0["name"] as? String ?? "?", $0["rules"] as? [String] ?? ["?"]) })
        #expect(rules == ["Logitech USB Optical Mouse": ["mouse", "usb"], "SynPS/2 Synaptics TouchPad": ["touchpad"]])
        let table = try Scrolld.runTool(Scrolld.binary.deletingLastPathComponent().appendingPathComponent("scrollctl").path, ["devices", "--socket", daemon.socketPath])
        #expect(table.status == 0, "\(table.stderr)")
        let text = String(decoding: table.stdout, as: UTF8.self)
        #expect(text.contains("RULES"))
        #expect(text.split(separator: "\n").contains { $0.contains("Logitech USB Optical Mouse") && $0.hasSuffix("mouse,usb") }, "\(text)")
    }

    /// A rule without `match` is valid (a later `--set` or reload may give it one) but applies
    /// to no device: `check-config` says so on standard error and still passes, and the daemon
    /// logs it at start and at every reload that keeps it, whose reply says it too.
    @Test func aRuleWithoutMatchIsAWarning() throws {
        let config = Self.config + "\n[input.devices.trackball]\nspeed = 3\n"
        let file = try Scrolld.temporaryFile(config, name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", file])
        #expect(check.status == 0, "\(check.stderr)")
        let warning = "input.devices.trackball has no `match`: it applies to no device"
        #expect(check.stderr == "\(file): warning: \(warning)\n", "\(check.stderr)")
        let clean = try Scrolld.run(["check-config", try Scrolld.temporaryFile(Self.config, name: "clean.toml")])
        #expect(clean.status == 0 && clean.stderr.isEmpty, "\(clean.stderr)")

        let log = try Scrolld.temporaryFile(Self.turns(passes: 1))
        let daemon = try DaemonProcess(config: config, arguments: ["--loop"], replay: log)
        defer { daemon.stop() }
        #expect(waitUntil(timeout: 30) { daemon.stderr.contains("warning: configuration: \(warning)") }, "\(daemon.stderr)")
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        let reloaded = client.request(["op": "reload"], id: 1)
        #expect(reloaded?["type"] as? String == "reloaded")
        #expect((reloaded?["message"] as? String)?.hasSuffix("; warning: \(warning)") == true, "\(reloaded ?? [:])")
        #expect(waitUntil(timeout: 30) { daemon.stderr.components(separatedBy: "warning: configuration: \(warning)").count == 3 }, "\(daemon.stderr)")
    }

    /// Live shaping is replay's: a recorded session with a mouse and a touchpad under different
    /// rules — and a reload mid-way that changes the mouse's speed — replays line for line.
    @Test func liveShapingEqualsAReplayOfTheRecordingAcrossAReload() throws {
        let log = try Scrolld.temporaryFile(Self.turns(passes: 4, start: 1_000_000))
        let recording = try Scrolld.temporaryFile("", name: "shaping.scrolllog")
        let daemon = try DaemonProcess(config: Self.config, arguments: ["--record", recording], replay: log)
        let main = try RecordReplayTests.Collector(path: daemon.socketPath, container: "main")
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        // Once the first pass has gone by, the mouse gets speed 3 and no acceleration.
        client.send(#"{"op":"observe","container":"main","of":"source","id":1}"#)
        while let message = client.read(type: "observation"), Self.kind(message["new"]) != "finger" {}
        try Self.config.replacingOccurrences(of: "speed = 2\nwheel_acceleration = 2", with: "speed = 3")
            .write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        #expect(client.request(["op": "reload"], id: 2)?["ok"] as? Bool == true)
        // Until the log has been played out (its last scroll stop recorded) and main is at rest.
        #expect(waitUntil(timeout: 60) {
            Self.playedOut(recording) && client.request(["op": "get", "container": "main"], id: 5)?["phase"] as? String == "idle"
        })
        let live = Array(main.stop().dropFirst())
        daemon.stop()
        #expect(live.compactMap { ($0["seq"] as? NSNumber)?.intValue }.count > 20)
        try expectReplayReproduces(live, recording: recording)
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""input.devices.mouse.speed":2"#))
        #expect(text.contains(#""input.devices.mouse.speed":3"#))
    }

    /// Whether the recording holds the log's last input event (a finger stop of the last pass).
    static func playedOut(_ recording: String) -> Bool {
        let text = (try? String(contentsOfFile: recording, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains(#""type":"finger","delta":{"y":0}"#) }.count == 4
    }
}
