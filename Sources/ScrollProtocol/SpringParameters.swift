import ScrollModel

/// The `duration` and `bounce` a `Spring` was made from, for the wire: a `Spring` keeps only
/// stiffness and damping, and inverting the formulas directly gives back values a few ulps off
/// (0.35 comes back as 0.35000000000000003). Short decimals near the inverse are tried first,
/// then neighbours of it; a candidate counts only when `Spring(duration:bounce:)` rebuilds the
/// spring bit for bit, so a request carries the spring exactly or not in this form at all.
struct SpringParameters: Hashable {
    var duration: Double
    var bounce: Double

    init?(exactly spring: Spring) {
        let omega = spring.stiffness.squareRoot()
        let duration = 2 * Double.pi / omega
        let zeta = spring.damping / (2 * omega)
        let bounce = zeta <= 1 ? 1 - zeta : 1 / zeta - 1
        guard duration.isFinite, duration > 0, bounce.isFinite, bounce > -1, bounce < 1 else { return nil }

        func matches(_ t: Double, _ b: Double) -> Bool {
            t > 0 && b > -1 && b < 1 && Spring(duration: t, bounce: b) == spring
        }
        for places in 0..<Self.powersOfTen.count {
            let t = Self.rounded(duration, places: places), b = Self.rounded(bounce, places: places)
            if matches(t, b) {
                self.init(duration: t, bounce: b)
                return
            }
        }
        for t in Self.neighbours(of: duration) {
            for b in Self.neighbours(of: bounce) where matches(t, b) {
                self.init(duration: t, bounce: b)
                return
            }
        }
        return nil
    }

    init(duration: Double, bounce: Double) {
        self.duration = duration
        self.bounce = bounce
    }

    private static func rounded(_ x: Double, places: Int) -> Double {
        let scale = powersOfTen[places]
        return (x * scale).rounded() / scale
    }

    private static func neighbours(of x: Double) -> [Double] {
        var values = [x]
        var up = x, down = x
        for _ in 0..<4 {
            up = up.nextUp
            down = down.nextDown
            values += [up, down]
        }
        return values
    }

    /// Exact in a double, so a rounding is one correctly rounded step each way.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
