/// What a nested container does with a gesture that pushes against its edge (docs/design.md §14):
/// the container key `overscroll`, after CSS `overscroll-behavior`.
public enum OverscrollBehavior: String, Hashable, Sendable, CaseIterable {
    /// A gesture that starts while the container rests at the edge it pushes towards goes to the
    /// nearest ancestor that can move that way (scroll chaining); otherwise the container keeps
    /// it and rubber-bands as usual. The default.
    case auto
    /// The container keeps every gesture given to it and rubber-bands at its edges: nothing
    /// chains to its ancestors along an axis it scrolls.
    case contain
    /// As ``contain``, and the container does not overscroll either: drags and flings stop at
    /// its edges (its physics' `overscroll` is off).
    case none
}
