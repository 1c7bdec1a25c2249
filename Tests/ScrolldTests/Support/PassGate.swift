import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Lets exactly one pass of a looped replay reach a container, so that its last state stays its
/// last: a control client watches the passes on a twin container that always gets the input,
/// opens the gated container in the pause before a pass and closes it in the pause after.
///
/// Closed after the first pass means the focus is on the twin (docs/design.md §14: input goes to
/// the focused container only), open means no focus: neither publishes a state, so the gated
/// container's last state is the pass' last (a `pause` would publish one more, `paused`, which
/// a rate-limited subscriber could get instead of the pass' final state).
///
/// It subscribes to the twin only while it lets a pass through: between passes the test does
/// other things and does not read, and a subscription nobody reads would fill its socket and
/// be dropped as stuck.
final class PassGate {
    struct Pass {
        /// The gated container's seq and state just before the pass (after opening).
        var seqBefore: Int
        var before: [String: Any]
        /// The twin's first and last (idle) state times in the pass: the gated container's
        /// must be the same.
        var firstT: Int64
        var lastT: Int64
        /// The gated container's seq once it was paused again: the pass' final state.
        var finalSeq: Int
    }

    let client: LineClient
    let gated: String
    let twin: String
    private var queued: [[String: Any]] = []
    private var nextID = 1000
    private var opened = false

    init(path: String, gated: String, twin: String) throws {
        client = try LineClient(path: path)
        self.gated = gated
        self.twin = twin
        guard client.readJSON()?["type"] as? String == "welcome" else { throw HarnessError("no welcome from \(path)") }
    }

    /// Sends a request and returns its reply; the twin's states read meanwhile are kept.
    func request(_ object: [String: Any], timeout: Double = 60) -> [String: Any]? {
        nextID += 1
        var object = object
        object["id"] = nextID
        client.send(object)
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let line = client.readJSON(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if (line["id"] as? NSNumber)?.intValue == nextID { return line }
            if line["type"] as? String == "state", line["container"] as? String == twin { queued.append(line) }
        }
        return nil
    }

    /// The twin's next state for which `stop` holds.
    private func twinState(timeout: Double = 60, until stop: ([String: Any]) -> Bool) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let state: [String: Any]
            if !queued.isEmpty {
                state = queued.removeFirst()
            } else {
                guard deadline.timeIntervalSinceNow > 0, let line = client.readJSON(timeout: deadline.timeIntervalSinceNow) else { return nil }
                guard line["type"] as? String == "state", line["container"] as? String == twin else { continue }
                state = line
            }
            if stop(state) { return state }
        }
    }

    /// Waits for a pass to end on the twin, lets the next one through to the gated container,
    /// and pauses it again. `open` the first time: what lets input reach it.
    func letOnePassThrough(open: [String: Any]) -> Pass? {
        queued.removeAll()
        // The subscription's own state first: it may be in the middle of a pass.
        guard let current = request(["op": "subscribe", "container": twin]), current["type"] as? String == "state" else { return nil }
        queued.insert(current, at: 0)
        defer {
            _ = request(["op": "unsubscribe", "container": twin])
            queued.removeAll()
        }
        var moving = false
        guard twinState(until: { state in
            if state.phase != "idle" { moving = true }
            return moving && state.phase == "idle"
        }) != nil else { return nil }
        let opening: [String: Any] = opened ? ["op": "focus", "container": NSNull()] : open
        guard request(opening)?["type"] as? String == "ok",
              let before = request(["op": "get", "container": gated]), let seqBefore = before.int("seq"),
              let first = twinState(until: { $0.phase != "idle" })?.t,
              let last = twinState(until: { $0.phase == "idle" })?.t,
              request(["op": "focus", "container": twin])?["type"] as? String == "ok",
              let final = request(["op": "get", "container": gated])?.int("seq")
        else { return nil }
        opened = true
        return Pass(seqBefore: seqBefore, before: before, firstT: first, lastT: last, finalSeq: final)
    }
}
