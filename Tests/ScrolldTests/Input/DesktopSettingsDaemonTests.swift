import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §23 on a live daemon (`scrolld run --replay LOG` as its input, real sockets):
/// KDE's real files in the daemon's `$XDG_CONFIG_HOME`, edited while it runs, turn the next
/// gesture and change its speed; scrolld's own keys win; reduced motion makes a `scrollTo`
/// land at once; and the recording replays the same.
@Suite(.serialized) struct DesktopSettingsDaemonTests {
    static let pad = "SynPS/2 Synaptics TouchPad"

    /// A touchpad's two-finger scrolls down, 4 × 12 px each, then a rest of 300 ms; enough of
    /// them to outlast the test.
    static func gestures(_ count: Int = 80) -> String {
        var lines = [
            InputShapingDaemonTests.header,
            #"{"t":499000,"dev":1,"type":"device_added","name":"\#(pad)","caps":["finger","hold"]}"#,
        ]
        var t = 500_000
        for _ in 0..<count {
            for _ in 0..<4 {
                lines.append(#"{"t":\#(t),"dev":1,"type":"finger","delta":{"y":12}}"#)
                t += 10_000
            }
            lines.append(#"{"t":\#(t),"dev":1,"type":"finger","delta":{"y":0}}"#)
            t += 300_000
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A directory standing for `$XDG_CONFIG_HOME` with KDE's files in it.
    static func kdeHome(kcminputrc: String?, kdeglobals: String? = nil) throws -> URL {
        let directory = URL(fileURLWithPath: "/tmp/sd-kde-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if let kcminputrc { try write(kcminputrc, to: directory.appendingPathComponent("kcminputrc")) }
        if let kdeglobals { try write(kdeglobals, to: directory.appendingPathComponent("kdeglobals")) }
        return directory
    }

    /// Writes as KDE does: a new file renamed over the old one.
    static func write(_ text: String, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(file.lastPathComponent + ".new")
        try Data(text.utf8).write(to: temporary)
        #expect(rename(temporary.path, file.path) == 0)
    }

    /// The touchpad's entry of a `devices` reply, once it is listed.
    static func touchpad(_ client: LineClient) -> [String: Any]? {
        let devices = client.request(["op": "devices"], id: 90)?["devices"] as? [[String: Any]] ?? []
        return devices.first { $0["name"] as? String == pad }
    }

    static func sourced(_ value: Any?) -> String {
        guard let object = value as? [String: Any], let source = object["source"] as? String, let value = object["value"] else { return "absent" }
        return "\(value)@\(source)"
    }

    /// The differences between the resting offsets of `client`'s next three rests (a state at
    /// idle after one that was not): each is one whole gesture's distance.
    static func gestureDistances(_ client: LineClient) -> [Double] {
        var rests: [Double] = []
        var previous = "idle"
        while rests.count < 3, let state = client.read(type: "state") {
            if state.phase == "idle", previous != "idle" { rests.append(state.y) }
            previous = state.phase
        }
        // Sums of whole pixels at offsets near 5000: exact to far better than a micropixel.
        return zip(rests, rests.dropFirst()).map { (($1 - $0) * 1e6).rounded() / 1e6 }
    }

    /// Natural scrolling off, then on with a scroll factor of 1.5, in a real `kcminputrc`
    /// rewritten while the daemon runs: the gestures that follow move 72 px the other way
    /// instead of 48, `devices` says where that came from, and the recording replays line for
    /// line what a subscriber received live.
    @Test func editingKcminputrcTurnsTheNextGestureAndTheRecordingReplaysIt() throws {
        let home = try Self.kdeHome(kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=false\n")
        let log = try Scrolld.temporaryFile(Self.gestures())
        let recording = try Scrolld.temporaryFile("", name: "desktop.scrolllog")
        let daemon = try DaemonProcess(
            config: "[physics]\nmomentum = false\n", arguments: ["--record", recording], replay: log,
            environment: ["XDG_CONFIG_HOME": home.path, "XDG_CURRENT_DESKTOP": "KDE"]
        )
        defer { daemon.stop() }
        let main = try RecordReplayTests.Collector(path: daemon.socketPath, container: "main")
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        #expect(client.request(["op": "scrollTo", "container": "main", "y": 5000, "animation": "none"], id: 1)?["type"] as? String == "ok")
        #expect(waitUntil(timeout: 60) { Self.sourced(Self.touchpad(client)?["natural"]) == "0@desktop:kde" }, "\(daemon.stderr)")
        #expect(Self.sourced(Self.touchpad(client)?["speed"]) == "1@default")

        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")
        _ = watcher.request(["op": "subscribe", "container": "main"], id: 1)
        #expect(Self.gestureDistances(watcher) == [48, 48])

        try Self.write("[Libinput][Defaults][Touchpad]\nNaturalScroll=true\nScrollFactor=1.5\n", to: home.appendingPathComponent("kcminputrc"))
        #expect(waitUntil(timeout: 60) { Self.sourced(Self.touchpad(client)?["natural"]) == "1@desktop:kde" }, "\(daemon.stderr)")
        #expect(Self.sourced(Self.touchpad(client)?["speed"]) == "1.5@desktop:kde")
        // What was published before the change is read past.
        _ = watcher.linesBeforeReply(to: ["op": "ping"], id: 2)
        #expect(Self.gestureDistances(watcher) == [-72, -72], "\(daemon.stderr)")

        let live = Array(main.stop().dropFirst())
        daemon.stop()
        #expect(live.compactMap { ($0["seq"] as? NSNumber)?.intValue }.count > 20)
        try expectReplayReproduces(live, recording: recording)
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""type":"desktop""#))
        #expect(text.contains(#""devices":"touchpads","natural_scrolling":true,"scroll_factor":1.5,"source":"desktop:kde""#), "\(text.prefix(2000))")
    }

    /// scrolld's own keys win over KDE's (`devices` says `config`), and KDE's animations off
    /// (`AnimationDurationFactor=0`) make a smooth `scrollTo` land at once.
    @Test func configurationKeysWinAndReducedMotionMakesScrollToLandAtOnce() throws {
        let home = try Self.kdeHome(
            kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\nScrollFactor=3\n",
            kdeglobals: "[KDE]\nAnimationDurationFactor=0\n"
        )
        let log = try Scrolld.temporaryFile(Self.gestures(1))
        let config = "[input.devices.pad]\nmatch = \"TouchPad\"\nnatural_scrolling = false\nspeed = 2\n"
        let daemon = try DaemonProcess(config: config, replay: log, environment: ["XDG_CONFIG_HOME": home.path])
        defer { daemon.stop() }
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        let welcome = try #require(client.read(type: "welcome"))
        #expect((welcome["features"] as? [String])?.contains("desktop") == true)
        var reply: [String: Any] = [:]
        #expect(waitUntil(timeout: 60) {
            reply = client.request(["op": "devices"], id: 1) ?? [:]
            return Self.sourced(reply["reducedMotion"]) == "1@desktop:kde" && Self.touchpad(client) != nil
        }, "\(daemon.stderr)")
        let pad = try #require(Self.touchpad(client))
        #expect(Self.sourced(pad["natural"]) == "0@config")
        #expect(Self.sourced(pad["speed"]) == "2@config")
        let table = try Scrolld.runTool(Scrolld.binary.deletingLastPathComponent().appendingPathComponent("scrollctl").path, ["devices", "--socket", daemon.socketPath])
        let text = String(decoding: table.stdout, as: UTF8.self)
        #expect(table.status == 0 && text.contains("NATURAL") && text.contains("SPEED"), "\(text)\(table.stderr)")
        #expect(text.split(separator: "\n").contains { $0.contains(Self.pad) && $0.contains("off (config)") && $0.contains("2.0 (config)") && $0.hasSuffix("pad") }, "\(text)")
        #expect(text.contains("Reduced motion: on (desktop:kde)"), "\(text)")
        #expect(client.request(["op": "scrollTo", "container": "main", "y": 3000, "animation": "smooth"], id: 2)?["type"] as? String == "ok")
        let state = try #require(client.request(["op": "get", "container": "main"], id: 3))
        #expect(state.y == 3000 && state.phase == "idle", "\(state)")
    }

    /// `follow_desktop = false` reads no desktop: everything is the default, and the log says
    /// so; with it on, the log says once which desktops were looked for and what was found. A
    /// value that is not a boolean is refused with its key.
    @Test func followDesktopFalseReadsNothingAndTheLogSaysWhatWasLookedFor() throws {
        let home = try Self.kdeHome(kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n", kdeglobals: "[KDE]\nAnimationDurationFactor=0\n")
        let log = try Scrolld.temporaryFile(Self.gestures(1))
        let off = try DaemonProcess(config: "[input]\nfollow_desktop = false\n", replay: log, environment: ["XDG_CONFIG_HOME": home.path])
        defer { off.stop() }
        let client = try LineClient(path: off.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        #expect(waitUntil(timeout: 60) { Self.touchpad(client) != nil })
        let reply = try #require(client.request(["op": "devices"], id: 1))
        #expect(Self.sourced(reply["reducedMotion"]) == "0@default")
        #expect(Self.sourced(Self.touchpad(client)?["natural"]) == "0@default")
        #expect(Self.sourced(Self.touchpad(client)?["speed"]) == "1@default")
        #expect(off.stderr.contains("not following the desktop's settings: [input] follow_desktop = false"), "\(off.stderr)")
        // The table says what motion does even when nothing decided it.
        let table = try Scrolld.runTool(Scrolld.binary.deletingLastPathComponent().appendingPathComponent("scrollctl").path, ["devices", "--socket", off.socketPath])
        #expect(String(decoding: table.stdout, as: UTF8.self).contains("Reduced motion: off (default)\n"), "\(String(decoding: table.stdout, as: UTF8.self))")

        let on = try DaemonProcess(replay: log, environment: ["XDG_CONFIG_HOME": home.path, "SWAYSOCK": ""])
        defer { on.stop() }
        #expect(on.waitForLog("desktop settings looked for (following kde): kde: \(home.path)/kcminputrc and kdeglobals, watched with inotify; sway: not found"), "\(on.stderr)")

        let bad = try Scrolld.run(["check-config", try Scrolld.temporaryFile("[input]\nfollow_desktop = \"yes\"\n", name: "bad.toml")])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("input.follow_desktop"), "\(bad.stderr)")
    }
}
