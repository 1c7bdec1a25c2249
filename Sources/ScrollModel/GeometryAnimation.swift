/// A container's size, content size and insets moving along a spring, as SwiftUI animates a
/// `geometryGroup`: every component has its own closed-form curve from where it is (with its
/// current velocity, so a new change mid-flight stays smooth) to its new value.
struct GeometryAnimation: Sendable {
    /// Components in order: container width, height; content width, height; insets top,
    /// leading, bottom, trailing.
    static let componentCount = 8

    let start: Timestamp
    let curves: [SpringCurve]

    init(from current: [Double], velocity: [Double], to target: [Double], spring: Spring, at time: Timestamp) {
        start = time
        curves = (0..<Self.componentCount).map { i in
            SpringCurve(from: current[i], velocity: velocity[i], target: target[i], spring: spring)
        }
    }

    func tau(_ time: Timestamp) -> Double { Double(time - start) / 1_000_000 }

    func value(_ component: Int, at time: Timestamp) -> Double {
        curves[component].position(at: tau(time))
    }

    func velocity(_ component: Int, at time: Timestamp) -> Double {
        curves[component].velocity(at: tau(time))
    }

    /// On a frame tick: whether every component has settled (docs/design.md §5 "Settle").
    func hasSettled(at time: Timestamp, physics: ScrollPhysics) -> Bool {
        curves.allSatisfy { $0.hasSettled(at: tau(time), physics: physics) }
    }

    /// The resting range `[lo, hi]` along `axis` of the geometry it is heading for.
    func restingRange(_ axis: Axis) -> ClosedRange<Double> {
        let horizontal = axis == .horizontal
        let length = max(0, curves[horizontal ? 0 : 1].target)
        let content = max(0, curves[horizontal ? 2 : 3].target)
        let lo = -curves[horizontal ? 5 : 4].target
        return lo...max(content - length + curves[horizontal ? 7 : 6].target, lo)
    }

    static func components(containerSize: Size, contentSize: Size, insets: EdgeInsets) -> [Double] {
        [containerSize.width, containerSize.height, contentSize.width, contentSize.height,
         insets.top, insets.leading, insets.bottom, insets.trailing]
    }
}
