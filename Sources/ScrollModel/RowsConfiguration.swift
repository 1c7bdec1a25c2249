/// The rows of a list (docs/design.md §5 "Rows", §12 "Row changes", §19 "Visible rows under a
/// header").
public struct RowsConfiguration: Hashable, Sendable {
    /// The rows' heights, px.
    public var heights: RowHeights
    /// The rows' height (config `height`), px: what an insert that names no height gives its
    /// rows. Nil when the rows were given only as explicit `heights`.
    public var height: Double?
    /// Content coordinate of the first row's top; nil: the header's max height, else 0.
    public var top: Double?
    /// A row counts in `visibleRows` when more than this fraction of its height is inside the
    /// area ``visibleIn`` names.
    public var threshold: Double
    /// What "visible" is measured against (`rows.visible_in`).
    public var visibleIn: RowVisibilityArea
    /// The section headers that stick at the pin line (`rows.sticky`, docs/design.md §21):
    /// strictly ascending row indices; indices at or past the row count are ignored.
    public var sticky: [Int]

    /// Creates rows; `height` nil takes the heights' own when they are uniform, `top` nil starts
    /// them below the header (or at 0), `threshold` is the visible fraction (0…1) a row needs.
    public init(
        heights: RowHeights,
        height: Double? = nil,
        top: Double? = nil,
        threshold: Double = 0.5,
        visibleIn: RowVisibilityArea = .container,
        sticky: [Int] = []
    ) {
        self.heights = heights
        self.height = height ?? heights.uniformHeight
        self.top = top
        self.threshold = threshold
        self.visibleIn = visibleIn
        self.sticky = sticky
    }

    /// Creates `count` rows of `height` px each; negative values become 0.
    public init(
        count: Int, height: Double, top: Double? = nil, threshold: Double = 0.5, visibleIn: RowVisibilityArea = .container,
        sticky: [Int] = []
    ) {
        self.init(
            heights: .uniform(count: max(0, count), height: max(0, height)),
            height: max(0, height), top: top, threshold: threshold, visibleIn: visibleIn, sticky: sticky
        )
    }
}

/// The area a row must show itself in to count as visible (`rows.visible_in`).
public enum RowVisibilityArea: String, Hashable, Sendable, CaseIterable {
    /// The whole viewport, `[y, y + H]` (docs/design.md §5).
    case container
    /// The usable area `U(y) = [y + a_lo + m, y + H − a_hi]` (docs/design.md §12): rows hidden
    /// under the collapsed header or the insets do not count.
    case usable
}
