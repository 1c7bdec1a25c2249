import ScrollModel

extension PlotRenderer {
    /// Defines the phase bands once, in a unit-height group each panel reuses scaled to its
    /// height. Band edges are rounded to quarter pixels and equal neighbours joined, so even a
    /// log with a phase change every millisecond gives at most a few bands per pixel.
    func drawBandDefinitions(_ series: PlotSeries, time: TimeScale, into document: inout SVGDocument) {
        var bands: [(x0: Double, x1: Double, phase: ScrollPhase)] = []
        for (index, span) in series.phases.enumerated() {
            guard PlotStyle.tint(span.phase) != nil else { continue }
            // The last phase lasts to the right edge, like the last values.
            let end = index == series.phases.count - 1 ? max(span.end, time.upper) : span.end
            let x0 = (time.x(span.start) * 4).rounded() / 4
            let x1 = (time.x(end) * 4).rounded() / 4
            guard x1 > x0 else { continue }
            if let last = bands.last, last.phase == span.phase, last.x1 >= x0 {
                bands[bands.count - 1].x1 = x1
            } else {
                bands.append((x0, x1, span.phase))
            }
        }
        document.open("defs")
        document.open("g", ["id": "phase-bands", "shape-rendering": "crispEdges"])
        for band in bands {
            document.element("rect", [
                "class": "phase", "data-phase": band.phase.rawValue,
                "x": band.x0, "y": 0, "width": band.x1 - band.x0, "height": 1,
                "fill": PlotStyle.tint(band.phase)!,
            ])
        }
        document.close()
        document.close()
    }

    /// The phase bands over the plot area from `top`, `height` tall.
    func drawBands(top: Double, height: Double, into document: inout SVGDocument) {
        document.element("use", [
            "xlink:href": "#phase-bands",
            "transform": "translate(0 \(SVGDocument.number(top, decimals: 2))) scale(1 \(SVGDocument.number(height, decimals: 2)))",
        ])
    }

    /// Vertical grid lines at the time ticks.
    func drawTimeGrid(_ time: TimeScale, top: Double, height: Double, into document: inout SVGDocument) {
        var path = ""
        for t in time.ticks.values {
            path += "M\(SVGDocument.number(time.x(t))) \(SVGDocument.number(top))v\(SVGDocument.number(height))"
        }
        if !path.isEmpty {
            document.element("path", ["d": path, "stroke": PlotStyle.grid, "stroke-width": 1, "fill": "none", "shape-rendering": "crispEdges"])
        }
    }

    /// A panel: title, frame, bands, grid, reference lines, lines and value ticks; returns the
    /// y below it.
    func draw(_ panel: ValuePanel, time: TimeScale, at top: Double, into document: inout SVGDocument) -> Double {
        let plotTop = top + Self.panelTitleHeight
        let scale = ValueScale(domain: panel.domain, top: plotTop, height: panel.height)
        let ticks = NiceTicks(lower: scale.domain.lower, upper: scale.domain.upper, count: max(2, Int(panel.height / 40)), minimum: 3)
        let width = plotRight - plotLeft
        document.open("g", ["id": "panel-\(panel.id)", "class": "panel"])
        drawTitle(panel, above: plotTop, into: &document)
        document.element("rect", ["x": plotLeft, "y": plotTop, "width": width, "height": panel.height, "fill": "#ffffff"])
        drawBands(top: plotTop, height: panel.height, into: &document)
        var grid = ""
        for value in ticks.values where !(panel.emphasizesZero && value == 0) {
            grid += "M\(SVGDocument.number(plotLeft)) \(SVGDocument.number(scale.y(value), decimals: 2))h\(SVGDocument.number(width))"
        }
        if !grid.isEmpty {
            document.element("path", ["d": grid, "stroke": PlotStyle.grid, "stroke-width": 1, "fill": "none", "shape-rendering": "crispEdges"])
        }
        drawTimeGrid(time, top: plotTop, height: panel.height, into: &document)
        if panel.emphasizesZero, scale.contains(0) {
            document.element("line", [
                "x1": plotLeft, "y1": scale.y(0), "x2": plotRight, "y2": scale.y(0),
                "stroke": PlotStyle.zero, "stroke-width": 1, "shape-rendering": "crispEdges",
            ])
        }
        let references = panel.references.filter { scale.contains($0.value) }
        for reference in references {
            let y = scale.y(reference.value)
            document.element("line", [
                "class": "reference", "x1": plotLeft, "y1": y, "x2": plotRight, "y2": y,
                "stroke": PlotStyle.reference, "stroke-width": 1.1, "stroke-dasharray": "5 3",
            ])
        }
        drawLines(panel, time: time, scale: scale, into: &document)
        drawReferenceLabels(references, scale: scale, top: plotTop, into: &document)
        document.element("rect", [
            "x": plotLeft, "y": plotTop, "width": width, "height": panel.height,
            "fill": "none", "stroke": PlotStyle.frame, "shape-rendering": "crispEdges",
        ])
        for (value, label) in zip(ticks.values, ticks.labels) {
            document.element("text", [
                "x": plotLeft - 8, "y": scale.y(value) + 4, "text-anchor": "end", "font-size": 11, "fill": PlotStyle.muted,
            ], text: label)
        }
        document.close()
        return plotTop + panel.height + Self.panelGap
    }

    /// The panel's title and unit, and with several lines an inline key, right-aligned.
    private func drawTitle(_ panel: ValuePanel, above plotTop: Double, into document: inout SVGDocument) {
        document.text(["x": plotLeft, "y": plotTop - 8, "font-size": 13], runs: [
            (panel.title, ["font-weight": "bold"]),
            (panel.unit, ["dx": 7, "fill": PlotStyle.muted, "font-size": 12]),
        ])
        guard panel.lines.count > 1 else { return }
        var x = plotRight
        for line in panel.lines.reversed() {
            x -= Self.textWidth(line.label, size: 12)
            document.element("text", ["x": x, "y": plotTop - 8, "font-size": 12], text: line.label)
            x -= 24
            document.element("line", [
                "x1": x, "y1": plotTop - 12, "x2": x + 19, "y2": plotTop - 12, "stroke": line.color, "stroke-width": 2,
            ])
            x -= 14
        }
    }

    private func drawLines(_ panel: ValuePanel, time: TimeScale, scale: ValueScale, into document: inout SVGDocument) {
        for line in panel.lines {
            // After the last state nothing changes (replay runs until everything rests), so
            // the last value holds to the right edge.
            var points = line.points
            if let last = points.last, last.t < time.upper { points.append(PlotPoint(t: time.upper, v: last.v)) }
            points = Decimation.decimate(points, columns: columns, domain: time.lower...time.upper)
            document.element("path", [
                "id": "series-\(line.id)", "class": "series", "d": Self.path(points, time: time, scale: scale),
                "fill": "none", "stroke": line.color, "stroke-width": 1.6,
                "stroke-linejoin": "round", "stroke-linecap": "round",
            ])
        }
    }

    /// Each reference line's label: above the line unless that leaves the panel; over the
    /// series, with a white halo that keeps it legible where a line crosses it.
    private func drawReferenceLabels(_ references: [ValuePanel.Reference], scale: ValueScale, top plotTop: Double, into document: inout SVGDocument) {
        for reference in references {
            let y = scale.y(reference.value)
            let labelY = y - 4 < plotTop + 11 ? y + 12 : y - 4
            document.element("text", [
                "x": plotRight - 6, "y": labelY, "text-anchor": "end", "font-size": 10.5, "fill": PlotStyle.reference,
                "stroke": "#ffffff", "stroke-width": 3, "stroke-linejoin": "round", "paint-order": "stroke",
            ], text: reference.label)
        }
    }

    /// A polyline through the points, in 0.1 px.
    static func path(_ points: [PlotPoint], time: TimeScale, scale: ValueScale) -> String {
        var path = ""
        path.reserveCapacity(points.count * 12)
        for (index, point) in points.enumerated() {
            path += index == 0 ? "M" : index == 1 ? "L" : " "
            path += SVGDocument.number(time.x(point.t)) + " " + SVGDocument.number(scale.y(point.v))
        }
        return path
    }
}
