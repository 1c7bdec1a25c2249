import ScrollModel

/// Draws a `PlotSeries` as a self-contained SVG chart: a title block naming the log, the
/// container and its physics; a legend; one panel per quantity (offset y and/or x, velocity,
/// header height) on a shared time axis with the phases as background bands; and lanes of
/// input ticks (per source, scroll stops marked) and frame ticks. Every series is decimated to
/// four points per pixel column, so the file stays small for logs of any length.
public struct PlotRenderer: Sendable {
    public var width: Double

    public init(width: Double = 1200) {
        self.width = max(600, width)
    }

    static let marginLeft = 96.0
    static let marginRight = 28.0
    static let pageMargin = 24.0
    static let panelTitleHeight = 24.0
    static let panelGap = 16.0
    static let laneHeight = 18.0

    var plotLeft: Double { Self.marginLeft }
    var plotRight: Double { width - Self.marginRight }
    /// Pixel columns of the plot area, the resolution series are decimated to.
    var columns: Int { Int(plotRight - plotLeft) }

    public func render(_ series: PlotSeries) -> String {
        let d = series.description
        var document = SVGDocument(
            width: width, height: 0,
            title: "scrolld replay of \(d.logName): container \(d.container), physics profile \(d.configuration.physics.profile.rawValue)"
        )
        document.open("g", ["font-family": PlotStyle.font, "fill": PlotStyle.ink])
        document.element("rect", ["x": 0, "y": 0, "width": width, "height": "100%", "fill": "#ffffff"])
        var y = drawTitle(series, into: &document)
        if series.isEmpty {
            y = drawNote(
                "No input event reached container \u{201C}\(series.description.container)\u{201D}: nothing to plot.",
                at: y + 8, into: &document
            )
        } else {
            y = drawLegend(series, at: y, into: &document)
            let time = TimeScale(series: series, left: plotLeft, right: plotRight)
            drawBandDefinitions(series, time: time, into: &document)
            for panel in ValuePanel.panels(for: series) {
                y = draw(panel, time: time, at: y, into: &document)
            }
            y = drawInputs(series, time: time, at: y, into: &document)
            y = drawTimeAxis(time, at: y, into: &document)
        }
        document.close()
        document.height = (y + Self.pageMargin * 0.5).rounded(.up)
        return document.rendered
    }

    /// A framed message instead of panels.
    func drawNote(_ note: String, at top: Double, into document: inout SVGDocument) -> Double {
        let height = 120.0
        document.open("g", ["id": "note"])
        document.element("rect", [
            "x": plotLeft, "y": top, "width": plotRight - plotLeft, "height": height,
            "fill": "#f6f8fa", "stroke": PlotStyle.frame,
        ])
        document.element("text", [
            "x": (plotLeft + plotRight) / 2, "y": top + height / 2 + 5, "text-anchor": "middle",
            "font-size": 15, "fill": PlotStyle.muted,
        ], text: note)
        document.close()
        return top + height
    }
}

/// Maps seconds to x: from 0 (the first event) to a little past the last state or event.
struct TimeScale {
    var lower: Double
    var upper: Double
    var left: Double
    var right: Double

    init(series: PlotSeries, left: Double, right: Double) {
        lower = 0
        // 2 % of room after the end shows the final step; an instant log still gets a second.
        upper = series.duration > 0 ? series.duration * 1.02 : 1
        self.left = left
        self.right = right
    }

    func x(_ t: Double) -> Double {
        left + (t - lower) / (upper - lower) * (right - left)
    }

    var ticks: NiceTicks {
        NiceTicks(lower: lower, upper: upper, count: max(2, Int((right - left) / 90)))
    }
}

/// Maps values to y inside one panel.
struct ValueScale {
    var domain: PlotDomain
    var top: Double
    var height: Double

    func y(_ value: Double) -> Double {
        top + height - (value - domain.lower) / domain.span * height
    }

    func contains(_ value: Double) -> Bool {
        value >= domain.lower && value <= domain.upper
    }
}
