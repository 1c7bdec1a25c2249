import ScrollModel

/// Colours and type of the chart. Phase tints are pale so lines stay readable on them; line and
/// tick colours are distinct from every tint and from each other (also in greyscale print,
/// where y is darkest).
public enum PlotStyle {
    public static let font = "DejaVu Sans, Verdana, Helvetica, Arial, sans-serif"
    public static let ink = "#1f2328"
    public static let muted = "#59636e"
    public static let frame = "#b8bec5"
    public static let grid = "#e3e6ea"
    public static let zero = "#8c959f"

    /// Background tint of a phase; nil for idle, which stays white.
    public static func tint(_ phase: ScrollPhase) -> String? {
        switch phase {
        case .idle: return nil
        case .tracking: return "#e9def5"
        case .interacting: return "#d9e9f8"
        case .decelerating: return "#fde5c8"
        case .animating: return "#d7f0de"
        }
    }

    /// The tint's border in the legend (a darker shade of it).
    public static func tintEdge(_ phase: ScrollPhase) -> String {
        switch phase {
        case .idle: return "#9aa2ab"
        case .tracking: return "#a98bd0"
        case .interacting: return "#86b3e0"
        case .decelerating: return "#e7a960"
        case .animating: return "#7cc493"
        }
    }

    /// Lines per axis, the same in every panel.
    public static let lineY = "#1d4ea8"
    public static let lineX = "#c0392b"
    public static let lineHeader = "#6b2c91"
    public static let reference = "#6e7781"

    public static func tick(_ source: PlotSeries.InputSource) -> String {
        switch source {
        case .wheel: return "#d27c00"
        case .finger: return "#1a7f4b"
        case .continuous: return "#8e44ad"
        case .hold: return "#57606a"
        case .touch: return "#0969da"
        }
    }

    public static let frameTick = "#bcc3ca"
}
