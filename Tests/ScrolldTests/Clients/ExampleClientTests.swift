import Foundation
import Testing

/// examples/feed.py, the client that sends requests while subscribed, run as a user would run
/// it against a daemon whose wheel keeps scrolling down.
@Suite("examples/feed.py against a real daemon")
struct ExampleClientTests {
    @Test func theFeedLoadsMoreRowsEachTimeItNearsItsEnd() throws {
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-25T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":1000000,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<200 { lines.append(#"{"t":\#(1_100_000 + i * 10_000),"dev":1,"type":"wheel","v120":{"y":120}}"#) }
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(config: "[physics]\nwheel_animation = \"none\"\nwheel_step = 100\n", arguments: ["--loop"], replay: log)
        let feed = try Scrolld.runTool("/usr/bin/env", ["python3", Scrolld.example("feed.py"), "--socket", daemon.socketPath, "--loads", "3"])
        #expect(feed.status == 0, "\(feed.stderr)")
        let output = String(decoding: feed.stdout, as: UTF8.self)
        #expect(output.contains("loaded 20 more rows: 60 in all\n"))
        #expect(output.contains("loaded 20 more rows: 100 in all\n"))
        // It drew states of its own container, moving, before it loaded.
        #expect(output.split(separator: "\n").first?.hasPrefix("y=") == true)
        // Its container was owned: gone with the program.
        let client = try LineClient(path: daemon.socketPath)
        #expect(waitUntil(timeout: 30) {
            client.request(["op": "get", "container": "feed"], id: 1)?["code"] as? String == "unknown_container"
        })
    }
}
