extension PlotRenderer {
    /// Lanes of ticks under the panels: one per input source that sent events (scroll stops
    /// circled), then the frames; returns the y below them.
    func drawInputs(_ series: PlotSeries, time: TimeScale, at top: Double, into document: inout SVGDocument) -> Double {
        var lanes: [(id: String, label: String, color: String, ticks: [Double], stops: [Double])] = series.inputs.map {
            ("input-\($0.source.rawValue)", $0.source.rawValue, PlotStyle.tick($0.source), $0.events, $0.stops)
        }
        if !series.frames.isEmpty {
            lanes.append(("frames", "frames", PlotStyle.frameTick, series.frames, []))
        }
        guard !lanes.isEmpty else { return top }
        let lanesTop = top + Self.panelTitleHeight
        let height = Double(lanes.count) * Self.laneHeight
        let width = plotRight - plotLeft
        document.open("g", ["id": "panel-input", "class": "panel"])
        document.text(["x": plotLeft, "y": lanesTop - 8, "font-size": 13], runs: [
            ("Input", ["font-weight": "bold"]),
            ("events reaching the container" + (series.frames.isEmpty ? "" : ", and the engine's frames"), ["dx": 7, "fill": PlotStyle.muted, "font-size": 12]),
        ])
        document.element("rect", ["x": plotLeft, "y": lanesTop, "width": width, "height": height, "fill": "#ffffff"])
        drawBands(top: lanesTop, height: height, into: &document)
        drawTimeGrid(time, top: lanesTop, height: height, into: &document)
        // The frame goes under the ticks: an event at 0 s sits on its left edge.
        document.element("rect", [
            "x": plotLeft, "y": lanesTop, "width": width, "height": height,
            "fill": "none", "stroke": PlotStyle.frame, "shape-rendering": "crispEdges",
        ])
        for (index, lane) in lanes.enumerated() {
            let laneTop = lanesTop + Double(index) * Self.laneHeight
            if index > 0 {
                document.element("line", [
                    "x1": plotLeft, "y1": laneTop, "x2": plotRight, "y2": laneTop,
                    "stroke": PlotStyle.grid, "shape-rendering": "crispEdges",
                ])
            }
            document.element("text", [
                "x": plotLeft - 8, "y": laneTop + Self.laneHeight / 2 + 4, "text-anchor": "end",
                "font-size": 11, "fill": lane.color, "font-weight": "bold",
            ], text: lane.label)
            let inset = lane.id == "frames" ? 5.0 : 3.0
            document.element("path", [
                "id": lane.id, "class": "ticks",
                "d": Self.ticks(lane.ticks, time: time, top: laneTop + inset, height: Self.laneHeight - 2 * inset),
                "stroke": lane.color, "stroke-width": 1, "fill": "none", "shape-rendering": "crispEdges",
            ])
            if !lane.stops.isEmpty {
                document.open("g", ["class": "stops", "fill": "#ffffff", "stroke": PlotStyle.ink, "stroke-width": 1.3])
                for x in Self.columnsOf(lane.stops, time: time) {
                    document.element("circle", ["cx": x, "cy": laneTop + Self.laneHeight / 2, "r": 3.2])
                }
                document.close()
            }
        }
        document.close()
        return lanesTop + height
    }

    /// Vertical ticks, at most one per half pixel.
    static func ticks(_ times: [Double], time: TimeScale, top: Double, height: Double) -> String {
        var path = ""
        let y = SVGDocument.number(top)
        let h = SVGDocument.number(height)
        for x in columnsOf(times, time: time) {
            path += "M\(SVGDocument.number(x)) \(y)v\(h)"
        }
        return path
    }

    /// The distinct x positions of `times`, rounded to half pixels.
    static func columnsOf(_ times: [Double], time: TimeScale) -> [Double] {
        var result: [Double] = []
        for t in times {
            let x = (time.x(t) * 2).rounded() / 2
            if result.last != x { result.append(x) }
        }
        return result
    }

    /// Tick marks and labels of the shared time axis, and its title; returns the y below.
    func drawTimeAxis(_ time: TimeScale, at top: Double, into document: inout SVGDocument) -> Double {
        let ticks = time.ticks
        document.open("g", ["id": "time-axis", "font-size": 11, "fill": PlotStyle.muted])
        var path = ""
        for t in ticks.values {
            path += "M\(SVGDocument.number(time.x(t))) \(SVGDocument.number(top))v5"
        }
        document.element("path", ["d": path, "stroke": PlotStyle.frame, "fill": "none", "shape-rendering": "crispEdges"])
        for (t, label) in zip(ticks.values, ticks.labels) {
            document.element("text", ["x": time.x(t), "y": top + 18, "text-anchor": "middle"], text: label)
        }
        document.element("text", [
            "x": (plotLeft + plotRight) / 2, "y": top + 38, "text-anchor": "middle", "font-size": 12, "fill": PlotStyle.ink,
        ], text: "time since the first event (s)")
        document.close()
        return top + 44
    }
}
