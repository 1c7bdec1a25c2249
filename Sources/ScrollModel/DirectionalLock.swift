/// A drag's directional lock (docs/design.md §22, UIKit's `isDirectionalLockEnabled`): the
/// drag's direction is decided once, when the distance it has travelled (`Σ(|Δx| + |Δy|)` of its
/// deltas) reaches ``threshold``; a drag whose summed motion lies within 22.5° of an axis then
/// moves along that axis only, it and its fling, until it ends. Until the decision the drag holds
/// its deltas (nothing moves, as a pan that has not begun); the decision applies what it held.
struct DirectionalLock: Sendable, Hashable {
    /// px travelled before the direction is decided.
    static let threshold = 10.0
    /// `tan 22.5°`: a drag whose minor component is at most this fraction of its major one locks.
    static let tangent = (2.0).squareRoot() - 1

    enum Decision: Sendable, Hashable {
        case undecided
        /// Both axes move.
        case free
        /// Only this axis moves.
        case locked(Axis)
    }

    var decision = Decision.undecided
    /// The deltas summed so far (signed), px.
    private(set) var sum = Point.zero
    /// `Σ(|Δx| + |Δy|)` so far, px.
    private(set) var travelled = 0.0

    /// The axis the drag is locked to, if it is.
    var lockedAxis: Axis? {
        if case let .locked(axis) = decision { return axis }
        return nil
    }

    /// The major axis and whether a summed motion `sum` lies within 22.5° of it: the rule of
    /// docs/design.md §22, `min(|Σx|, |Σy|) ≤ tan 22.5° × max(|Σx|, |Σy|)`. A tie goes to the
    /// vertical axis.
    static func decide(_ sum: Point) -> Decision {
        let x = abs(sum.x), y = abs(sum.y)
        let major: Axis = x > y ? .horizontal : .vertical
        return min(x, y) <= tangent * max(x, y) ? .locked(major) : .free
    }

    /// Takes one scaled delta and returns what the drag moves by now: nothing while undecided,
    /// everything held so far (along the locked axis only, if locked) at the decision, then
    /// each delta (its locked axis only).
    mutating func filter(_ step: Point) -> Point {
        switch decision {
        case .free:
            return step
        case let .locked(axis):
            return Self.along(axis, step)
        case .undecided:
            sum.x += step.x
            sum.y += step.y
            travelled += abs(step.x) + abs(step.y)
            guard travelled >= Self.threshold else { return .zero }
            decision = Self.decide(sum)
            if let axis = lockedAxis { return Self.along(axis, sum) }
            return sum
        }
    }

    /// `point` with its component across `axis` zeroed.
    @inline(__always)
    static func along(_ axis: Axis, _ point: Point) -> Point {
        axis == .horizontal ? Point(x: point.x, y: 0) : Point(x: 0, y: point.y)
    }
}
