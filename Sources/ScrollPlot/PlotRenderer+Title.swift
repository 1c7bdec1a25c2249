import ScrollModel

extension PlotRenderer {
    /// The title (log and profile), the run's description and any `--set` overrides; returns
    /// the y below them.
    func drawTitle(_ series: PlotSeries, into document: inout SVGDocument) -> Double {
        let d = series.description
        let left = Self.pageMargin
        document.open("g", ["id": "title"])
        document.text(["x": left, "y": 34.0, "font-size": 20], runs: [
            (d.logName, ["font-weight": "bold"]),
            // SVG collapses leading spaces: the gap is a dx.
            ("physics profile \(d.configuration.physics.profile.rawValue)", ["dx": 14, "fill": PlotStyle.muted, "font-size": 15]),
        ])
        var y = 58.0
        document.element("text", ["x": left, "y": y, "font-size": 12.5, "fill": PlotStyle.muted], text: d.containerSummary)
        y += 18
        document.element("text", ["x": left, "y": y, "font-size": 12.5, "fill": PlotStyle.muted], text: d.physicsSummary)
        y += 18
        let duration = SVGDocument.number(series.duration, decimals: 3)
        let counts = [
            Self.count(series.eventCount, "input event"), Self.count(series.stateCount, "state"), "\(duration) s", d.samplingSummary,
        ].joined(separator: " \u{B7} ")
        document.element("text", ["x": left, "y": y, "font-size": 12.5, "fill": PlotStyle.muted], text: counts)
        if !d.overrides.isEmpty {
            y += 18
            document.element("text", [
                "x": left, "y": y, "font-size": 12, "fill": PlotStyle.muted, "font-family": "DejaVu Sans Mono, monospace",
            ], text: d.overrides.map { "--set \($0)" }.joined(separator: "  "))
        }
        document.close()
        return y + 12
    }

    /// The phase colours and the line and marker keys; returns the y below.
    func drawLegend(_ series: PlotSeries, at top: Double, into document: inout SVGDocument) -> Double {
        let baseline = top + 16
        var x = Self.pageMargin
        document.open("g", ["id": "legend", "font-size": 12])
        document.element("text", ["x": x, "y": baseline, "font-weight": "bold"], text: "Phase")
        x += 50
        for phase in ScrollPhase.allCases {
            document.element("rect", [
                "class": "phase-key", "data-phase": phase.rawValue,
                "x": x, "y": baseline - 10, "width": 14, "height": 12,
                "fill": PlotStyle.tint(phase) ?? "#ffffff", "stroke": PlotStyle.tintEdge(phase),
            ])
            document.element("text", ["x": x + 19, "y": baseline], text: phase.rawValue)
            x += 19 + Self.textWidth(phase.rawValue, size: 12) + 16
        }
        x += 14
        document.element("text", ["x": x, "y": baseline, "font-weight": "bold"], text: "Lines")
        x += 44
        let axes = series.description.configuration.axes
        var keys: [(String, String, String?)] = []
        if axes.contains(.vertical) { keys.append(("y axis", PlotStyle.lineY, nil)) }
        if axes.contains(.horizontal) { keys.append(("x axis", PlotStyle.lineX, nil)) }
        if series.description.configuration.header != nil { keys.append(("header", PlotStyle.lineHeader, nil)) }
        keys.append(("edge / limit", PlotStyle.reference, "5 3"))
        for (label, color, dash) in keys {
            var attributes: KeyValuePairs<String, any SVGAttributeValue> = [
                "x1": x, "y1": baseline - 4, "x2": x + 20, "y2": baseline - 4, "stroke": color, "stroke-width": 2,
            ]
            if let dash {
                attributes = [
                    "x1": x, "y1": baseline - 4, "x2": x + 20, "y2": baseline - 4, "stroke": color,
                    "stroke-width": 1.2, "stroke-dasharray": dash,
                ]
            }
            document.element("line", attributes)
            document.element("text", ["x": x + 25, "y": baseline], text: label)
            x += 25 + Self.textWidth(label, size: 12) + 16
        }
        if series.inputs.contains(where: { !$0.stops.isEmpty }) {
            document.element("circle", [
                "cx": x + 5, "cy": baseline - 4, "r": 3.2, "fill": "#ffffff", "stroke": PlotStyle.ink, "stroke-width": 1.3,
            ])
            document.element("text", ["x": x + 14, "y": baseline], text: "scroll stop")
        }
        document.close()
        return baseline + 14
    }

    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// An estimate of a DejaVu Sans text's width, for placing legend items (no font metrics
    /// without a font library; generous gaps absorb the error).
    static func textWidth(_ text: String, size: Double) -> Double {
        Double(text.count) * size * 0.6
    }
}
