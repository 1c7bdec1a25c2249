import ScrollModel

/// One chart panel: a quantity over time, with its lines and reference lines.
struct ValuePanel {
    struct Line {
        var id: String
        var label: String
        var color: String
        var points: [PlotPoint]
    }

    struct Reference {
        var value: Double
        var label: String
    }

    var id: String
    var title: String
    var unit: String
    var height: Double
    var lines: [Line]
    var references: [Reference] = []
    /// Values kept in view besides the data (0 for velocities, the header's limits).
    var including: [Double] = []
    /// Whether the 0 line is drawn darker than the grid.
    var emphasizesZero = false

    /// The panels for a series: the offset of each scrolled axis, the velocity, and the header
    /// height when a header is configured.
    static func panels(for series: PlotSeries) -> [ValuePanel] {
        let configuration = series.description.configuration
        let vertical = configuration.axes.contains(.vertical)
        let horizontal = configuration.axes.contains(.horizontal)
        var panels: [ValuePanel] = []
        if vertical {
            panels.append(offset(
                "y", height: horizontal ? 170 : 200, color: PlotStyle.lineY, points: series.offsetY,
                edges: Self.edges(series.restingRangeY, low: "top edge", high: "bottom edge")
            ))
        }
        if horizontal {
            panels.append(offset(
                "x", height: vertical ? 130 : 200, color: PlotStyle.lineX, points: series.offsetX,
                edges: Self.edges(series.restingRangeX, low: "leading edge", high: "trailing edge")
            ))
        }
        var velocities: [Line] = []
        if vertical { velocities.append(Line(id: "velocity-y", label: "y", color: PlotStyle.lineY, points: series.velocityY)) }
        if horizontal { velocities.append(Line(id: "velocity-x", label: "x", color: PlotStyle.lineX, points: series.velocityX)) }
        panels.append(ValuePanel(
            id: "velocity", title: "Velocity", unit: "px/s", height: 170, lines: velocities,
            including: [0], emphasizesZero: true
        ))
        if let header = configuration.header {
            panels.append(ValuePanel(
                id: "header-height", title: "Header height", unit: "px", height: 120,
                lines: [Line(id: "header-height", label: "height", color: PlotStyle.lineHeader, points: series.headerHeight)],
                references: [
                    Reference(value: header.maxHeight, label: "expanded \(SVGDocument.number(header.maxHeight, decimals: 2))"),
                    Reference(value: header.minHeight, label: "collapsed \(SVGDocument.number(header.minHeight, decimals: 2))"),
                ],
                including: [header.minHeight, header.maxHeight]
            ))
        }
        return panels
    }

    /// The offset along `axis` ("x" or "y"), the edges of its resting range drawn across.
    private static func offset(
        _ axis: String, height: Double, color: String, points: [PlotPoint], edges: [Reference]
    ) -> ValuePanel {
        ValuePanel(
            id: "offset-\(axis)", title: "Offset \(axis)", unit: "px", height: height,
            lines: [Line(id: "offset-\(axis)", label: axis, color: color, points: points)],
            references: edges
        )
    }

    static func edges(_ range: ClosedRange<Double>, low: String, high: String) -> [Reference] {
        if range.lowerBound == range.upperBound {
            return [Reference(value: range.lowerBound, label: "\(low) = \(high) \(SVGDocument.number(range.lowerBound, decimals: 2))")]
        }
        return [
            Reference(value: range.lowerBound, label: "\(low) \(SVGDocument.number(range.lowerBound, decimals: 2))"),
            Reference(value: range.upperBound, label: "\(high) \(SVGDocument.number(range.upperBound, decimals: 2))"),
        ]
    }

    /// The value range shown: every line's values and the included ones.
    var domain: PlotDomain {
        PlotDomain(covering: lines.lazy.flatMap { $0.points.lazy.map(\.v) }, including: including)
    }
}
