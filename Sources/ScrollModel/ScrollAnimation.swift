/// How a programmatic scroll or a geometry change moves: at once, or along a SwiftUI spring.
public enum ScrollAnimation: Hashable, Sendable {
    case none
    case spring(Spring)

    public static let smooth = ScrollAnimation.spring(.smooth)
    public static let snappy = ScrollAnimation.spring(.snappy)
    public static let bouncy = ScrollAnimation.spring(.bouncy)
}
