import ScrollModel

extension PlotSeries.Description {
    /// The container's geometry in one line.
    public var containerSummary: String {
        let c = configuration
        var parts = ["container \(container)", "\(Self.size(c.containerSize)) px"]
        if let content = c.contentSize { parts.append("content \(Self.size(content)) px") }
        let i = c.contentInsets
        if i != EdgeInsets() {
            parts.append("insets \([i.top, i.leading, i.bottom, i.trailing].map { Self.n($0) }.joined(separator: ","))")
        }
        parts.append(c.axes == .both ? "both axes" : c.axes == .horizontal ? "horizontal" : "vertical")
        if let header = c.header { parts.append("header \(Self.n(header.minHeight))\u{2013}\(Self.n(header.maxHeight)) px") }
        if let rows = c.rows {
            if let height = rows.heights.uniformHeight {
                parts.append("rows \(rows.heights.count) \u{D7} \(Self.n(height)) px")
            } else {
                parts.append("rows \(rows.heights.count)")
            }
        }
        if c.scrollTarget != .none { parts.append("target \(c.scrollTarget.rawValue)") }
        return parts.joined(separator: " \u{B7} ")
    }

    /// The physics constants a tuner changes, in one line.
    public var physicsSummary: String {
        let p = configuration.physics
        let length = configuration.containerSize[configuration.listAxis]
        var parts: [String] = []
        let step: String
        switch p.wheelStep {
        case .auto: step = "auto (\(SVGDocument.number(p.wheelStep(forLength: length), decimals: 1)) px)"
        case .points(let points): step = "\(Self.n(points)) px"
        }
        if p.wheelAnimation == .smooth {
            parts.append("wheel step \(step), smooth \(Self.n(p.wheelDuration)) s")
        } else {
            parts.append("wheel step \(step), no animation")
        }
        parts.append("finger \u{D7}\(Self.n(p.fingerScale))")
        if p.momentum {
            if p.profile == .gtk {
                parts.append("friction \(Self.n(p.friction))/s")
            } else {
                parts.append("deceleration \(Self.n(p.decelerationRate))/ms")
            }
            parts.append("fling \u{2265} \(Self.n(p.minFlingVelocity)) px/s")
        } else {
            parts.append("no momentum")
        }
        if p.overscroll {
            parts.append("rubber band \(Self.n(p.rubberBand))")
            parts.append("bounce k \(Self.n(p.bounceStiffness))")
        } else {
            parts.append("no overscroll")
        }
        return "physics " + parts.joined(separator: " \u{B7} ")
    }

    /// How the states were taken.
    public var samplingSummary: String {
        if let interval = sampleInterval { return "sampled every \(Self.n(interval)) ms" }
        return "every published state, frames at \(Self.n(frameRate)) Hz"
    }

    static func size(_ size: Size) -> String { "\(n(size.width)) \u{D7} \(n(size.height))" }

    /// Up to four significant decimals, no trailing zeros.
    static func n(_ value: Double) -> String { SVGDocument.number(value, decimals: 4) }
}
