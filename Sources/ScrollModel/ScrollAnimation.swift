/// How a programmatic scroll or a geometry change moves: at once, or along a SwiftUI spring.
public enum ScrollAnimation: Hashable, Sendable {
    /// Jump to the end at once (`"animation":"none"`).
    case none
    /// Move along a spring from the current position and velocity
    /// (`{"spring":{"duration":T,"bounce":b}}`).
    case spring(Spring)

    /// Along ``Spring/smooth`` (`"smooth"`).
    public static let smooth = ScrollAnimation.spring(.smooth)
    /// Along ``Spring/snappy`` (`"snappy"`).
    public static let snappy = ScrollAnimation.spring(.snappy)
    /// Along ``Spring/bouncy`` (`"bouncy"`).
    public static let bouncy = ScrollAnimation.spring(.bouncy)
}
