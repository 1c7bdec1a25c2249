import Foundation
import ScrollDesktop
import ScrollModel

/// A random stream of what can happen to a live daemon, decoded from seeds (one step each), so
/// that a failing stream shrinks to its shortest by dropping seeds and making them smaller.
struct CommandStream: CustomStringConvertible {
    enum Step {
        case wheel(y: Double, x: Double)
        case finger(y: Double, x: Double)
        case fingerLift
        case continuous(y: Double)
        case hold(begin: Bool)
        /// A finger on the touchscreen (docs/design.md §25), in slot 0 or 1, at a point in
        /// hundredths of the glass.
        case touchDown(slot: Int, x: Int, y: Int)
        case touchMotion(slot: Int, x: Int, y: Int)
        case touchLift(slot: Int, cancelled: Bool)
        case wait(microseconds: Int64)
        case create(owner: Int, nested: Bool, rows: Int)
        case insertRows(container: Int, at: Int, count: Int)
        case scrollTo(container: Int, y: Double, row: Int?, animated: Int)
        case scrollBy(container: Int, dy: Double, animated: Int)
        case pause(container: Int, client: Int)
        case resume(container: Int, client: Int)
        case focus(container: Int?, client: Int)
        case remove(container: Int, client: Int)
        case close(client: Int)
        case reload
        /// `beginRefresh` or `endRefresh` (docs/design.md §21).
        case refresh(begin: Bool, container: Int, client: Int)
        case flashIndicators(container: Int, client: Int)
        /// The desktop's settings change (docs/design.md §23): natural scrolling for touchpads
        /// (and the opposite for the wheel mouse by name), a scroll factor for mice, reduced
        /// motion.
        case desktop(natural: Bool, factor: Double, reducedMotion: Bool)
    }

    let steps: [Step]

    init(seeds: [Int]) {
        steps = seeds.map(Self.step)
    }

    var description: String { steps.map { "\($0)" }.joined(separator: "\n") }

    static func step(_ seed: Int) -> Step {
        let value = seed >> 5
        let small = value % 7
        switch seed % 32 {
        case 0, 1, 2: return .wheel(y: Double(value % 9 - 4) * 60, x: value % 5 == 0 ? 120 : 0)
        case 3, 4, 5, 6: return .finger(y: Double(value % 81 - 40) * 1.5, x: Double(value % 7 - 3))
        case 7: return .fingerLift
        case 8: return .continuous(y: Double(value % 41 - 20) * 2)
        case 9: return .hold(begin: value % 2 == 0)
        case 10, 11, 12, 13: return .wait(microseconds: Int64(value % 400_000))
        case 14, 15: return .create(owner: value % 3, nested: value % 4 == 0, rows: 5 + value % 200)
        case 16: return .insertRows(container: small, at: value % 10, count: 1 + value % 4)
        case 17, 18: return .scrollTo(container: small, y: Double(value % 3000) - 200, row: value % 3 == 0 ? value % 60 : nil, animated: value % 4)
        case 19, 20: return .scrollBy(container: small, dy: Double(value % 1200) - 600, animated: value % 4)
        case 21: return .pause(container: small, client: value % 3)
        case 22: return .resume(container: small, client: value % 3)
        case 23: return .focus(container: value % 4 == 0 ? nil : small, client: value % 3)
        case 24: return .remove(container: small, client: value % 3)
        case 25: return .close(client: 1 + value % 2)
        case 26: return .reload
        case 27: return .touchDown(slot: value % 5 == 0 ? 1 : 0, x: value % 101, y: (value / 101) % 101)
        case 28, 29: return .touchMotion(slot: value % 7 == 0 ? 1 : 0, x: value % 101, y: (value / 101) % 101)
        case 30: return .touchLift(slot: value % 7 == 0 ? 1 : 0, cancelled: value % 4 == 0)
        default:
            // Of what was all short waits: app bars' refresh requests (docs/design.md §21),
            // flashIndicators (§22) and short waits.
            switch value % 4 {
            case 0, 1: return .refresh(begin: value % 8 < 4, container: (value / 4) % 7, client: value % 3)
            case 2: return .flashIndicators(container: small, client: value % 3)
            default:
                let choice = value / 4
                guard choice % 2 == 0 else { return .wait(microseconds: Int64(value % 30_000)) }
                return .desktop(natural: choice % 4 == 0, factor: [0.5, 1, 2.5][(choice / 4) % 3], reducedMotion: (choice / 12) % 2 == 0)
            }
        }
    }

    /// What a live daemon did with the stream: the recording, and each container's state lines
    /// as a subscriber of it that took every state received them.
    struct Live {
        var recording: [UInt8]
        var states: [String: [String]]
        /// The `seq` the subscriber's first state (its subscribe reply) had.
        var firstSeq: [String: Int]
    }

    func runLive(configurationFile: String) throws -> Live {
        let daemon = try LiveDaemon(configurationFile: configurationFile)
        // The monitor subscribes to every container as it appears; clients 0–2 make requests
        // (a closed one is replaced by a new connection).
        let monitor = try daemon.connect()
        var clients = try (0..<3).map { _ in try daemon.connect() }
        var names = ["main", "list"]
        var live = Live(recording: [], states: [:], firstSeq: [:])
        var subscribed: Set<String> = []
        var created = 0
        var id = 0

        func subscribeNew() throws {
            for name in names where !subscribed.contains(name) {
                id += 1
                try monitor.send(#"{"op":"subscribe","container":"\#(name)","id":\#(id)}"#)
                subscribed.insert(name)
            }
        }
        func collect() throws {
            for line in try monitor.lines() {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      object["type"] as? String == "state", let name = object["container"] as? String else { continue }
                if object["id"] != nil {
                    live.firstSeq[name] = (object["seq"] as? NSNumber)?.intValue ?? 0
                    live.states[name] = live.states[name] ?? []
                } else {
                    live.states[name, default: []].append(line)
                }
            }
        }
        func request(_ client: Int, _ body: String) throws {
            id += 1
            try clients[client].send(#"{"id":\#(id),\#(body)}"#)
            _ = try clients[client].lines()
        }
        func name(_ index: Int) -> String { names[index % names.count] }
        let animations = [#""animation":"none""#, #""animation":"smooth""#, #""animation":{"spring":{"duration":0.3,"bounce":0.3}}"#, #""animation":"default""#]

        // The devices are announced, so a desktop's settings can name them and their class.
        daemon.input(.deviceAdded(name: "Wheel Mouse", capabilities: [.wheel]), device: 1)
        daemon.input(.deviceAdded(name: "SynPS/2 Synaptics TouchPad", capabilities: [.finger, .hold]), device: 2)
        daemon.input(.deviceAdded(name: "TPPS/2 TrackPoint", capabilities: [.continuous]), device: 3)
        try subscribeNew()
        try collect()
        for step in steps {
            switch step {
            case let .wheel(y, x):
                daemon.input(.wheel(v120: AxisValues(x: x, y: y), degrees: nil), device: 1)
            case let .finger(y, x):
                daemon.input(.finger(AxisValues(x: x, y: y)), device: 2)
            case .fingerLift:
                daemon.input(.finger(AxisValues(x: 0, y: 0)), device: 2)
            case .continuous(let y):
                daemon.input(.continuous(AxisValues(y: y)), device: 3)
            case .hold(let begin):
                daemon.input(begin ? .holdBegin(fingers: 2) : .holdEnd(fingers: 2, cancelled: false), device: 2)
            case let .touchDown(slot, x, y):
                daemon.input(.touchDown(slot: slot, at: Point(x: Double(x) / 100, y: Double(y) / 100)), device: 4)
            case let .touchMotion(slot, x, y):
                daemon.input(.touchMotion(slot: slot, at: Point(x: Double(x) / 100, y: Double(y) / 100)), device: 4)
            case let .touchLift(slot, cancelled):
                daemon.input(cancelled ? .touchCancel(slot: slot) : .touchUp(slot: slot), device: 4)
            case .wait(let microseconds):
                daemon.advance(microseconds)
            case let .create(owner, nested, rows):
                created += 1
                let name = "c\(created)"
                let parent = nested ? #","parent":"main""# : ""
                // Some lie on the touchscreen, over the others (docs/design.md §25).
                let frame = rows % 3 == 0 ? #","touch_frame":{"x":0.5,"y":0.25,"width":0.5,"height":0.5}"# : ""
                // Some have app bars (docs/design.md §21): a quick-return header, sticky
                // sections, pull to refresh; some docs/design.md §22's gesture keys, in both
                // spellings (a short list fits: bounce based on size takes nothing there).
                let header = rows % 2 == 0 ? #","header":{"minHeight":10,"maxHeight":60,"mode":"enterAlways"}"# : ""
                let refresh = rows % 5 < 2 ? #","refresh":{"threshold":50,"height":30}"# : ""
                let gestures = switch rows % 4 {
                case 1: #","bounce":"basedOnSize","scrollTarget":"rows","snapStop":true,"indicatorLingerMs":120"#
                case 2: #","scroll_target":"rows","snap_type":"proximity","snap_proximity":25,"directional_lock":true"#
                default: ""
                }
                try request(owner, #""op":"configure","container":"\#(name)","containerSize":{"width":300,"height":400},"rows":{"count":\#(rows),"height":30,"sticky":[0,2,4]},"owned":\#(owner != 0)\#(parent)\#(frame)\#(header)\#(refresh)\#(gestures)"#)
                names.append(name)
                try subscribeNew()
            case let .insertRows(container, at, count):
                try request(0, #""op":"configure","container":"\#(name(container))","rows":{"insert":{"at":\#(at),"count":\#(count)}}"#)
            case let .scrollTo(container, y, row, animated):
                let target = row.map { #""row":\#($0),"anchor":"center""# } ?? #""y":\#(y)"#
                try request(1, #""op":"scrollTo","container":"\#(name(container))",\#(target),\#(animations[animated])"#)
            case let .scrollBy(container, dy, animated):
                try request(2, #""op":"scrollBy","container":"\#(name(container))","dy":\#(dy),\#(animations[animated])"#)
            case let .pause(container, client):
                try request(client, #""op":"pause","container":"\#(name(container))""#)
            case let .resume(container, client):
                try request(client, #""op":"resume","container":"\#(name(container))""#)
            case let .focus(container, client):
                let target = container.map { #""\#(name($0))""# } ?? "null"
                try request(client, #""op":"focus","container":\#(target)"#)
            case let .remove(container, client):
                try request(client, #""op":"remove","container":"\#(name(container))""#)
            case let .flashIndicators(container, client):
                try request(client, #""op":"flashIndicators","container":"\#(name(container))""#)
            case .close(let client):
                try clients[client].channel.close().wait()
                daemon.loop.run()
                clients[client] = try daemon.connect()
            case .reload:
                try request(0, #""op":"reload""#)
            case let .desktop(natural, factor, reducedMotion):
                daemon.core.desktopSettingsChanged(DesktopSettings(
                    desktop: .kde,
                    naturalScrolling: [.touchpads: natural, .device(name: "Wheel Mouse", vendor: 1, product: 2): !natural],
                    scrollFactor: [.mice: factor], reducedMotion: reducedMotion
                ))
            case let .refresh(begin, container, client):
                try request(client, #""op":"\#(begin ? "beginRefresh" : "endRefresh")","container":"\#(name(container))""#)
            }
            try collect()
            // A little time between steps, so frames interleave with everything.
            daemon.advance(4_000)
            try collect()
        }
        // Everything comes to rest (a hang is a failure, not a wait).
        var rounds = 0
        while daemon.core.session.nextDeadline != nil, rounds < 10_000 {
            daemon.advance(100_000)
            rounds += 1
        }
        try collect()
        live.recording = daemon.recording.bytes
        return live
    }
}
