/// A coordinate space in which a frame can be read, as SwiftUI's `CoordinateSpace`.
///
/// `.named` resolves to the nearest ancestor (or the node itself) that declares the name, so a
/// container nested in another reads its own space, not its parent's. An undeclared name falls
/// back to `.global`, which is also what SwiftUI does.
public enum CoordinateSpace: Hashable, Sendable {
    case global
    case local
    case named(String)
}
