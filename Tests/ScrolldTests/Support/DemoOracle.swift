import Foundation

/// An independent transcription of docs/design.md §5–§6 for what `examples/demo.scrolllog`
/// exercises with `wheel_animation = none` in the default 800×600 / 800×20000 container: wheel
/// jumps and the idle timer, hold, drag with rubber band past the top, release, bounce, iOS
/// deceleration, the frame grid, and input on the unscrolled axis. It shares no code with the
/// model: it reads the log with JSONSerialization and computes every state from the formulas.
struct DemoOracle {
    struct Expected: CustomStringConvertible {
        var t: Int64
        var phase: String
        var y: Double
        var v: Double
        var description: String { "t=\(t) \(phase) y=\(y) v=\(v)" }
    }

    enum Motion {
        case none
        case bounce(t0: Int64, y0: Double)
        case deceleration(t0: Int64, y0: Double, v0: Double)
    }

    let H = 600.0
    let hi = 20000.0 - 600.0
    let step = pow(600.0, 2.0 / 3.0)
    let c = 0.55
    let k = 1000 * log(0.998)

    var y = 0.0
    var v = 0.0
    var phase = "idle"
    var motion = Motion.none
    var anchor: Int64 = 0
    var frame = 1
    var wheelDeadline: Int64?
    var dragging = false
    var raw = 0.0
    var samples: [(Int64, Double)] = []
    var out: [Expected] = []

    func band(_ x: Double) -> Double { x * H * c / (H + c * x) }
    func inverse(_ s: Double) -> Double { s * H / (c * (H - s)) }
    func shown(_ r: Double) -> Double { r < 0 ? -band(-r) : (r > hi ? hi + band(r - hi) : r) }

    func evaluate(_ t: Int64) -> (Double, Double) {
        switch motion {
        case .none:
            return (y, v)
        case let .bounce(t0, y0):
            let tau = Double(t - t0) / 1e6, w = 10.0
            let c1 = y0, c2 = w * c1
            return (exp(-w * tau) * (c1 + c2 * tau), exp(-w * tau) * (c2 - w * (c1 + c2 * tau)))
        case let .deceleration(t0, y0, v0):
            let tau = Double(t - t0) / 1e6
            return (y0 + v0 * (exp(k * tau) - 1) / k, v0 * exp(k * tau))
        }
    }

    mutating func emit(_ t: Int64) { out.append(Expected(t: t, phase: phase, y: y, v: v)) }

    mutating func start(_ m: Motion, at t: Int64) {
        motion = m
        anchor = t
        frame = 1
    }

    /// Frames and the wheel timer due at or before `t`.
    mutating func run(until t: Int64) {
        if let deadline = wheelDeadline, deadline <= t {
            wheelDeadline = nil
            phase = "idle"
            emit(deadline)
        }
        while true {
            if case .none = motion { return }
            let tick = anchor + Int64((Double(frame) * 1e6 / 120).rounded())
            guard tick <= t else { return }
            frame += 1
            (y, v) = evaluate(tick)
            switch motion {
            case .bounce:
                if abs(y) < 0.5 && abs(v) < 10 { y = 0; v = 0; motion = .none; phase = "idle" }
            case let .deceleration(_, y0, v0):
                let end = y0 - v0 / k
                if abs(end - y) < 0.5 { y = end; v = 0; motion = .none; phase = "idle" }
            case .none:
                break
            }
            emit(tick)
        }
    }

    func windowVelocity() -> Double {
        guard let last = samples.last?.0 else { return 0 }
        let window = samples.filter { last - $0.0 <= 150_000 }
        guard window.count > 1, last > window[0].0 else { return 0 }
        return window.map(\.1).reduce(0, +) / (Double(last - window[0].0) / 1e6)
    }

    mutating func apply(_ event: [String: Any]) {
        let t = (event["t"] as! NSNumber).int64Value
        run(until: t)
        if case .none = motion {} else { (y, v) = evaluate(t) }
        let axes = (event["v120"] ?? event["delta"]) as? [String: Any]
        let dy = (axes?["y"] as? NSNumber)?.doubleValue
        switch event["type"] as! String {
        case "device_added", "device_removed":
            return
        case "wheel":
            if let dy, dy != 0 {
                y = min(max(y + dy / 120 * step, 0), hi)
                v = 0
                phase = "interacting"
                wheelDeadline = t + 250_000
            }
        case "hold_begin":
            motion = .none
            v = 0
            phase = "tracking"
        case "hold_end":
            if y < 0 {
                start(.bounce(t0: t, y0: y), at: t)
                phase = "decelerating"
            } else {
                phase = "idle"
            }
        case "finger":
            let present = axes!.values.map { ($0 as! NSNumber).doubleValue }
            if let dy, dy != 0 {
                if !dragging {
                    motion = .none
                    dragging = true
                    samples = []
                    raw = y < 0 ? -inverse(-y) : y
                }
                samples.append((t, dy))
                raw += dy
                y = shown(raw)
                v = windowVelocity()
                phase = "interacting"
            } else if dragging && present.allSatisfy({ $0 == 0 }) {
                samples.append((t, 0))
                let release = windowVelocity()
                dragging = false
                if y < 0 {
                    v = 0
                    start(.bounce(t0: t, y0: y), at: t)
                    phase = "decelerating"
                } else if abs(release) >= 50 {
                    v = release
                    start(.deceleration(t0: t, y0: y, v0: release), at: t)
                    phase = "decelerating"
                } else {
                    v = 0
                    phase = "idle"
                }
            }
        default:
            break
        }
        emit(t)
    }

    static func expected(for path: String) throws -> [Expected] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var oracle = DemoOracle()
        for line in text.split(separator: "\n").dropFirst() {
            oracle.apply(try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any])
        }
        oracle.run(until: .max)
        return oracle.out
    }
}
