import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §17: a live session recorded with `run --record` replays line for line — input and
/// requests alike — and the daemon outlives its input.
@Suite(.serialized) struct RecordReplayTests {
    /// A subscriber that reads every line on a thread of its own, so the daemon never has to
    /// coalesce for it: it receives every state, the stream a replay must reproduce.
    final class Collector: @unchecked Sendable {
        let client: LineClient
        private let lock = NSLock()
        private var lines: [String] = []
        private var running = true
        private let done = DispatchSemaphore(value: 0)

        init(path: String, container: String) throws {
            client = try LineClient(path: path)
            _ = client.read(type: "welcome")
            client.send(#"{"op":"subscribe","container":"\#(container)"}"#)
            Thread.detachNewThread { [self] in
                while lock.withLock({ running }) {
                    if let line = client.readLine(timeout: 0.1) { lock.withLock { lines.append(line) } }
                }
                done.signal()
            }
        }

        /// How many lines it has received so far.
        var count: Int { lock.withLock { lines.count } }

        /// Whether a state it received was in motion (phase other than idle).
        var sawMotion: Bool {
            lock.withLock { lines }.contains { $0.contains(#""phase":"#) && !$0.contains(#""phase":"idle""#) }
        }

        /// Every line received, after the reader has stopped.
        func stop() -> [[String: Any]] {
            lock.withLock { running = false }
            done.wait()
            return lock.withLock { lines }.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        }
    }

    /// The fields docs/design.md §17 promises equal, as comparable text, and `paused` (§19: a paused
    /// container's state says so, in a replay as live: one schema, §4).
    /// A line that is no state (an error reply) has nulls there: it fails the comparison
    /// instead of ending the whole test run.
    static func key(_ state: [String: Any]) -> String {
        let fields: [String: Any] = ["seq": state["seq"] ?? NSNull(), "t": state["t"] ?? NSNull(), "phase": state["phase"] ?? NSNull(),
                                     "contentOffset": state["contentOffset"] ?? NSNull(), "velocity": state["velocity"] ?? NSNull(),
                                     "paused": state["paused"] as? Bool ?? false]
        return String(decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Lets what moves go on for a while after a request, measured in the daemon's own output
    /// rather than in time: until the collectors have two more states, or `containers` are all
    /// at rest (asked with `get`, answered after everything before it), so it never waits for
    /// motion that is not coming. The deadline only catches a hang.
    static func letItMove(_ collectors: [Collector], beyond count: Int, containers: [String], asking client: LineClient) -> Bool {
        waitUntil(timeout: 60) {
            collectors.reduce(0) { $0 + $1.count } >= count + 2
                || containers.allSatisfy { client.request(["op": "get", "container": $0], id: 97)?["phase"] as? String == "idle" }
        }
    }

    @Test func aRecordedSessionWithRequestsReplaysLineForLine() throws {
        let recording = try Scrolld.temporaryFile("", name: "session.scrolllog")
        let daemon = try DaemonProcess(arguments: ["--record", recording], replay: Scrolld.example("demo.scrolllog"))
        let requests = try LineClient(path: daemon.socketPath)
        let welcome = try #require(requests.read(type: "welcome"))
        #expect((welcome["features"] as? [String])?.contains("record-requests") == true)
        #expect(requests.request(["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 300],
                                  "rows": ["count": 100, "height": 44]], id: 1)?["type"] as? String == "ok")
        let main = try Collector(path: daemon.socketPath, container: "main")
        let list = try Collector(path: daemon.socketPath, container: "list")
        // Requests while the demo's input flows: each applies at the instant it arrives, between
        // input events and frames, exactly as a replay must apply it. They start once the
        // demo's input has moved main (its first click comes 1 s after the start; nothing else
        // has asked main to move yet), and each waits for a little motion after the one before.
        #expect(waitUntil(timeout: 60) { main.sawMotion })
        let sequence: [[String: Any]] = [
            ["op": "scrollTo", "container": "main", "y": 800],
            ["op": "scrollTo", "container": "list", "y": 1200, "animation": "bouncy"],
            ["op": "scrollBy", "container": "main", "dy": -150, "animation": "bouncy"],
            ["op": "configure", "container": "main", "contentSize": ["width": 800, "height": 9000]],
            ["op": "pause", "container": "list"],
            ["op": "scrollBy", "container": "list", "dy": 300],
            ["op": "resume", "container": "list"],
            ["op": "scrollTo", "container": "main", "y": 300, "animation": "none"],
            ["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 500], "animation": "snappy"],
        ]
        for (number, request) in sequence.enumerated() {
            if number > 0 { #expect(Self.letItMove([main, list], beyond: main.count + list.count, containers: ["main", "list"], asking: requests)) }
            #expect(requests.request(request, id: 10 + number)?["type"] as? String == "ok", "\(request)")
        }
        // Until both have come to rest once after the last request. Where the collectors stop
        // does not matter: the comparison covers exactly the states they received.
        #expect(waitUntil(timeout: 60) {
            ["main", "list"].allSatisfy { name in
                requests.request(["op": "get", "container": name], id: 99)?["phase"] as? String == "idle"
            }
        })
        let live = ["main": main.stop(), "list": list.stop()]
        daemon.stop()

        for (name, states) in live {
            // The first line answers `subscribe` (the state at that moment, not a publication).
            let published = Array(states.dropFirst())
            #expect(published.count > 20, "\(name): \(published.count) states")
            let seqs = published.compactMap { ($0["seq"] as? NSNumber)?.intValue }
            #expect(seqs == Array((seqs.first ?? 0)..<((seqs.first ?? 0) + seqs.count)), "\(name): a healthy subscriber gets every seq")
            // Line for line: the replay's states over the same seqs are exactly the live ones.
            let replay = try expectReplayReproduces(published, recording: recording, container: name)
            #expect(replay.stderr.isEmpty, "\(replay.stderr)")
        }
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""type":"reload","client":0,"configuration":"#))
        // The requests' connection is not the first of the daemon's life (the harness probes the
        // socket first), so only its form is checked here.
        #expect(text.contains(#","request":{"op":"configure","container":"list","containerSize":"#))
        #expect(text.contains(#""request":{"op":"pause","container":"list"}"#))
        // The requests went in among the input, after its first click.
        let lines = text.split(separator: "\n")
        let firstClick = lines.firstIndex { $0.contains(#""type":"wheel""#) }
        let lastRequest = lines.lastIndex { $0.contains(#""request":{"op":"configure","container":"list","containerSize":"#) }
        #expect(firstClick != nil && lastRequest != nil && firstClick! < lastRequest!, "input and requests did not interleave")
    }

    /// Part two's requests replay too (docs/design.md §12, §13, §19 through §17): rows scrolled to with
    /// anchors and edges, row edits during motion, an owned container removed when its
    /// connection closes, a pause undone by a close. Observations change no state; the states
    /// of `list` that a subscriber received live are the replay's, line for line.
    @Test func positionsRowEditsAndLifetimesReplayLineForLine() throws {
        let recording = try Scrolld.temporaryFile("", name: "session.scrolllog")
        let daemon = try DaemonProcess(arguments: ["--record", recording], replay: Scrolld.example("demo.scrolllog"))
        let requests = try LineClient(path: daemon.socketPath)
        _ = requests.read(type: "welcome")
        #expect(requests.request(["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 600],
                                  "header": ["minHeight": 60, "maxHeight": 200], "rows": ["count": 100, "height": 44]], id: 1)?["type"] as? String == "ok")
        let list = try Collector(path: daemon.socketPath, container: "list")
        let app = try LineClient(path: daemon.socketPath)
        _ = app.read(type: "welcome")
        #expect(app.request(["op": "configure", "container": "owned", "owned": true], id: 1)?["type"] as? String == "ok")
        #expect(app.request(["op": "pause", "container": "list"], id: 2)?["type"] as? String == "ok")
        #expect(app.request(["op": "observe", "container": "list", "of": "visibleRows"], id: 3)?["type"] as? String == "observation")
        let sequence: [[String: Any]] = [
            ["op": "scrollTo", "container": "list", "row": 50, "anchor": "center"],
            ["op": "configure", "container": "list", "rows": ["insert": ["at": 0, "count": 20]]],
            ["op": "scrollTo", "container": "list", "edge": "bottom", "animation": "bouncy"],
            ["op": "configure", "container": "list", "rows": ["remove": ["at": 10, "count": 5]]],
            ["op": "scrollTo", "container": "list", "row": 3],
            ["op": "configure", "container": "list", "rows": ["insert": ["at": 0, "heights": [10, 20, 30]]]],
        ]
        for (number, request) in sequence.enumerated() {
            // Each during the motion the one before started, when there is one.
            if number > 0 { #expect(Self.letItMove([list], beyond: list.count, containers: ["list"], asking: requests)) }
            #expect(requests.request(request, id: 10 + number)?["type"] as? String == "ok", "\(request)")
        }
        // The app goes: its container is removed and its pause undone (input reaches list again).
        app.close()
        #expect(waitUntil(timeout: 30) { requests.request(["op": "get", "container": "owned"], id: 98)?["code"] as? String == "unknown_container" })
        #expect(waitUntil(timeout: 60) { requests.request(["op": "get", "container": "list"], id: 99)?["phase"] as? String == "idle" })
        let states = list.stop()
        daemon.stop()

        let published = Array(states.dropFirst())
        #expect(published.count > 20, "\(published.count) states")
        #expect(published.contains { $0["paused"] as? Bool == true })
        let replay = try expectReplayReproduces(published, recording: recording, container: "list")
        #expect(replay.stderr.isEmpty, "\(replay.stderr)")
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""request":{"op":"remove","container":"owned"}"#))
        #expect(text.contains(#""request":{"op":"resume","container":"list"}"#))
        #expect(!text.contains(#""op":"observe""#))
    }

    /// A recording is an event log v1: a reader that knows nothing of requests skips them.
    @Test func recordedRequestLinesAreSkippedByInputOnlyReaders() throws {
        let log = try Scrolld.temporaryFile("""
            {"format":"scrolld-events","version":1}
            {"t":1000,"type":"request","client":1,"request":{"op":"scrollTo","container":"main","y":500,"animation":"none"}}
            {"t":2000,"dev":1,"type":"wheel","v120":{"y":120}}
            """)
        let replay = try Scrolld.run(["replay", log])
        #expect(replay.status == 0, "\(replay.stderr)")
        let lines = replay.lines
        // The request moved main to 500 at once (seq 1), the wheel then aims at 500 + 71.138…
        #expect(lines.first?.contains(#""seq":1,"t":1000,"phase":"idle","contentOffset":{"x":0,"y":500}"#) == true, "\(lines.first ?? "")")
        #expect(lines.dropFirst().first?.contains(#""seq":2,"t":2000,"phase":"interacting""#) == true)
    }

    /// A request line naming a container the replay does not know is reported with its line,
    /// and the replay goes on.
    @Test func aRecordedRequestThatCannotApplyIsReportedWithItsLine() throws {
        let log = try Scrolld.temporaryFile("""
            {"format":"scrolld-events","version":1}
            {"t":1000,"type":"request","client":1,"request":{"op":"scrollTo","container":"nope","y":500}}
            {"t":2000,"dev":1,"type":"wheel","v120":{"y":120}}
            """)
        let replay = try Scrolld.run(["replay", log])
        #expect(replay.status == 0)
        #expect(replay.stderr.contains(#"line 2: recorded request not applied: unknown container "nope""#), "\(replay.stderr)")
    }

    /// The input thread dying must not stop frames (they waited on its barrier forever before):
    /// logged as critical, then programmatic scrolling still runs to its end.
    @Test func theDaemonOutlivesItsInputThread() throws {
        let daemon = try DaemonProcess(arguments: ["--fallback-replay", Scrolld.example("demo.scrolllog"), "--fail-input-after", "0"])
        #expect(daemon.waitForLog("critical: input thread ended: a failure was injected"), "\(daemon.stderr)")
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        // A container of its own, paused: the demo's input never reaches it.
        #expect(client.request(["op": "configure", "container": "probe"], id: 1)?["type"] as? String == "ok")
        #expect(client.request(["op": "pause", "container": "probe"], id: 2)?["type"] as? String == "ok")
        #expect(client.request(["op": "subscribe", "container": "probe"], id: 3)?["type"] as? String == "state")
        #expect(client.request(["op": "scrollTo", "container": "probe", "y": 1000], id: 4)?["type"] as? String == "ok")
        var last: [String: Any]?
        #expect(waitUntil(timeout: 30) {
            guard let state = client.read(type: "state", timeout: 1) else { return false }
            last = state
            return state["phase"] as? String == "idle"
        }, "frames stopped: \(String(describing: last))")
        #expect((last?["contentOffset"] as? [String: Any])?["y"] as? Double == 1000)
    }
}
