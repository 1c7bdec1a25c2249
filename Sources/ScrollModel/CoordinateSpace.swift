/// A coordinate space in which a frame can be read, as SwiftUI's `CoordinateSpace`.
///
/// `.named` resolves to the nearest ancestor (or the node itself) that declares the name, so a
/// container nested in another reads its own space, not its parent's. An undeclared name falls
/// back to `.global`, which is also what SwiftUI does.
public enum CoordinateSpace: Hashable, Sendable {
    /// The root of the ``ViewTree``, placed at the global origin: a frame read here is the sum of
    /// every ancestor's origin.
    case global
    /// The node's own space: its frame read here always has origin (0, 0).
    case local
    /// The space of the nearest node, the reader itself included, that declared this name (see
    /// ``ViewTree/addChild(to:frame:coordinateSpace:)``); `.global` when none did. A
    /// ``ScrollContainer`` declares ``ScrollContainer/coordinateSpaceName``.
    case named(String)
}
