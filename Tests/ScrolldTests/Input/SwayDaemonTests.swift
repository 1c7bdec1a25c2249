import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §23 with sway: the real sway (headless) found through `$SWAYSOCK` and
/// followed over its IPC; and a touchpad's settings changing over that IPC, answered as sway's
/// documentation shows, turning the next gesture.
@Suite(.serialized) struct SwayDaemonTests {
    static func inputs(natural: Bool, factor: Double) -> String {
        #"[{"identifier":"1:1:AT_Translated_Set_2_keyboard","name":"AT Translated Set 2 keyboard","vendor":1,"product":1,"type":"keyboard","libinput":{"send_events":"enabled"}},"#
            + #"{"identifier":"2:7:SynPS/2_Synaptics_TouchPad","name":"SynPS/2 Synaptics TouchPad","vendor":2,"product":7,"type":"touchpad","scroll_factor":\#(factor),"libinput":{"send_events":"enabled","tap":"enabled","natural_scroll":"\#(natural ? "enabled" : "disabled")","scroll_method":"two_finger"}}]"#
    }

    /// The real sway: scrolld finds it, reads its inputs and subscribes to their events, says so
    /// in the log, and keeps following while `swaymsg input type:touchpad natural_scroll
    /// enabled` changes sway's configuration (headless sway has no input device, so nothing of
    /// it applies to the replayed touchpad: its natural scrolling stays the default).
    @Test(.enabled(if: SwayProcess.unavailable == nil, "\(SwayProcess.unavailable ?? "")"))
    func scrolldFollowsTheRealSwayOverItsIPC() throws {
        let sway = try SwayProcess()
        defer { sway.stop() }
        let log = try Scrolld.temporaryFile(DesktopSettingsDaemonTests.gestures(1))
        let home = try DesktopSettingsDaemonTests.kdeHome(kcminputrc: nil)
        let daemon = try DaemonProcess(replay: log, environment: ["SWAYSOCK": sway.socketPath, "XDG_CURRENT_DESKTOP": "sway", "XDG_CONFIG_HOME": home.path])
        defer { daemon.stop() }
        #expect(daemon.waitForLog("desktop settings looked for (following sway): kde: not found; sway: sway's IPC at \(sway.socketPath), subscribed to input events"), "\(daemon.stderr)")
        let command = try sway.swaymsg(["input", "type:touchpad", "natural_scroll", "enabled"])
        #expect(command.status == 0, "\(command.stderr)")
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        #expect(waitUntil(timeout: 60) { DesktopSettingsDaemonTests.touchpad(client) != nil })
        #expect(DesktopSettingsDaemonTests.sourced(DesktopSettingsDaemonTests.touchpad(client)?["natural"]) == "0@default")
        let inputs = try sway.swaymsg(["-t", "get_inputs", "-r"])
        #expect(String(decoding: inputs.stdout, as: UTF8.self).filter { !$0.isWhitespace } == "[]")
        // sway gone: scrolld stops following it and keeps serving.
        sway.stop()
        #expect(client.request(["op": "ping"], id: 2)?["type"] as? String == "pong")
    }

    /// A touchpad's natural scrolling and scroll factor changed in sway while scrolld runs: sway
    /// sends an `input` event, scrolld reads the inputs again, `devices` says `desktop:sway`,
    /// and the gestures that follow move 72 px the other way instead of 48.
    @Test func anInputEventFromSwayTurnsTheNextGesture() throws {
        let server = try SwayIPCServer(inputs: Self.inputs(natural: false, factor: 1))
        defer { server.stop() }
        let log = try Scrolld.temporaryFile(DesktopSettingsDaemonTests.gestures())
        let home = try DesktopSettingsDaemonTests.kdeHome(kcminputrc: nil)
        let daemon = try DaemonProcess(
            config: "[physics]\nmomentum = false\n", replay: log,
            environment: ["SWAYSOCK": server.path, "XDG_CURRENT_DESKTOP": "sway", "XDG_CONFIG_HOME": home.path]
        )
        defer { daemon.stop() }
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        #expect(client.request(["op": "scrollTo", "container": "main", "y": 5000, "animation": "none"], id: 1)?["type"] as? String == "ok")
        #expect(waitUntil(timeout: 60) { DesktopSettingsDaemonTests.sourced(DesktopSettingsDaemonTests.touchpad(client)?["natural"]) == "0@desktop:sway" }, "\(daemon.stderr)")
        #expect(DesktopSettingsDaemonTests.sourced(DesktopSettingsDaemonTests.touchpad(client)?["speed"]) == "1@desktop:sway")
        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")
        _ = watcher.request(["op": "subscribe", "container": "main"], id: 1)
        #expect(DesktopSettingsDaemonTests.gestureDistances(watcher) == [48, 48])

        #expect(waitUntil(timeout: 60) { server.subscriberCount == 1 })
        server.inputs = Self.inputs(natural: true, factor: 1.5)
        server.sendInputEvent(#"{"change":"libinput_config","input":{"identifier":"2:7:SynPS/2_Synaptics_TouchPad","name":"SynPS/2 Synaptics TouchPad","type":"touchpad"}}"#)
        #expect(waitUntil(timeout: 60) { DesktopSettingsDaemonTests.sourced(DesktopSettingsDaemonTests.touchpad(client)?["natural"]) == "1@desktop:sway" }, "\(daemon.stderr)")
        #expect(DesktopSettingsDaemonTests.sourced(DesktopSettingsDaemonTests.touchpad(client)?["speed"]) == "1.5@desktop:sway")
        _ = watcher.linesBeforeReply(to: ["op": "ping"], id: 2)
        #expect(DesktopSettingsDaemonTests.gestureDistances(watcher) == [-72, -72])
    }
}
