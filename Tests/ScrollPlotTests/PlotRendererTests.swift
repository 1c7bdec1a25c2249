import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import ScrollModel
import ScrollPlot
import Testing

/// Parses an SVG as XML, failing the test when it is not well-formed.
func parse(_ svg: String) throws -> XMLDocument {
    try XMLDocument(data: Data(svg.utf8), options: [])
}

func ids(_ document: XMLDocument, class name: String) throws -> [String] {
    try document.nodes(forXPath: "//*[@class='\(name)']/@id").compactMap(\.stringValue)
}

@Suite("PlotRenderer: panels, escaping and edge cases")
struct PlotRendererTests {
    func recorded(_ configuration: ContainerConfiguration, states: Int = 50) -> PlotSeries {
        var recorder = PlotRecorder()
        recorder.begin(at: 0, state: state(0, .idle, y: 0, header: configuration.header?.maxHeight))
        recorder.recordInput(ScrollEvent(time: 0, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil)))
        for index in 1...states {
            let y = Double(index) * 2
            recorder.record(
                state(Timestamp(index) * 8333, .interacting, y: y, vy: 240, header: configuration.header.map { max($0.minHeight, $0.maxHeight - y) }),
                isFrame: true
            )
        }
        recorder.record(state(Timestamp(states + 1) * 8333, .idle, y: Double(states) * 2, header: nil), isFrame: true)
        var description = PlotSeries.Description(logName: "x.scrolllog", container: "main", configuration: configuration, frameRate: 120)
        description.overrides = ["physics.wheel_animation=none"]
        return recorder.series(description)
    }

    @Test func panelsFollowTheAxesAndTheHeader() throws {
        let vertical = try parse(PlotRenderer().render(recorded(ContainerConfiguration())))
        #expect(try ids(vertical, class: "panel") == ["panel-offset-y", "panel-velocity", "panel-input"])
        #expect(try ids(vertical, class: "series") == ["series-offset-y", "series-velocity-y"])

        let everything = ContainerConfiguration(axes: .both, header: HeaderConfiguration(minHeight: 50, maxHeight: 150))
        let full = try parse(PlotRenderer().render(recorded(everything)))
        #expect(try ids(full, class: "panel") == [
            "panel-offset-y", "panel-offset-x", "panel-velocity", "panel-header-height", "panel-input",
        ])
        #expect(try ids(full, class: "series") == [
            "series-offset-y", "series-offset-x", "series-velocity-y", "series-velocity-x", "series-header-height",
        ])
        #expect(try ids(full, class: "ticks") == ["input-wheel", "frames"])

        let horizontal = try parse(PlotRenderer().render(recorded(ContainerConfiguration(axes: .horizontal))))
        #expect(try ids(horizontal, class: "panel") == ["panel-offset-x", "panel-velocity", "panel-input"])
    }

    @Test func titleNamesTheLogProfileAndOverrides() throws {
        let svg = PlotRenderer().render(recorded(ContainerConfiguration()))
        let document = try parse(svg)
        let title = try document.nodes(forXPath: "//*[@id='title']").first?.stringValue ?? ""
        #expect(title.contains("x.scrolllog"))
        #expect(title.contains("physics profile ios"))
        #expect(title.contains("--set physics.wheel_animation=none"))
        #expect(title.contains("container main \u{B7} 800 \u{D7} 600 px \u{B7} content 800 \u{D7} 20000 px \u{B7} vertical"))
    }

    @Test func textIsEscaped() throws {
        var series = recorded(ContainerConfiguration())
        series.description.logName = "a&b <c> \"d\" 'e'\u{1}.scrolllog"
        series.description.container = "<main>"
        let svg = PlotRenderer().render(series)
        #expect(svg.contains("a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;\u{FFFD}.scrolllog"))
        let document = try parse(svg)
        let title = try document.nodes(forXPath: "//*[@id='title']/*[1]").first?.stringValue ?? ""
        #expect(title.hasPrefix("a&b <c> \"d\" 'e'\u{FFFD}.scrolllog"))
        #expect(try document.nodes(forXPath: "//*[@id='title']").first?.stringValue?.contains("container <main>") == true)
    }

    @Test func nothingToPlotGivesANote() throws {
        let svg = PlotRenderer().render(PlotRecorder().series(description))
        let document = try parse(svg)
        #expect(try document.nodes(forXPath: "//*[@id='note']").first?.stringValue?.contains("No input event reached container \u{201C}main\u{201D}") == true)
        #expect(try ids(document, class: "panel").isEmpty)
    }

    @Test func aConstantInstantSeriesHasFiniteCoordinates() throws {
        // One event and one state at the same instant: duration 0, every series constant.
        var recorder = PlotRecorder()
        recorder.begin(at: 5_000, state: state(0, .idle, y: 0))
        recorder.recordInput(ScrollEvent(time: 5_000, device: 1, kind: .finger(AxisValues(y: 0))))
        recorder.record(state(5_000, .idle, y: 0), isFrame: false)
        let svg = PlotRenderer().render(recorder.series(description))
        let document = try parse(svg)
        for path in try document.nodes(forXPath: "//*[@class='series']/@d") {
            let d = path.stringValue ?? ""
            #expect(d.hasPrefix("M"))
            #expect(!d.lowercased().contains("nan") && !d.lowercased().contains("inf"))
        }
        #expect(!svg.lowercased().contains("nan"))
        // The flat line sits in the middle of the offset panel's −1…1 domain, with ticks.
        let labels = try document.nodes(forXPath: "//*[@id='panel-offset-y']/*[local-name()='text']").compactMap(\.stringValue)
        #expect(labels.contains("0.0"))
        #expect(labels.contains("\u{2212}1.0"))
    }

    @Test func aLongRecordingStaysSmallAndKeepsItsPeak() throws {
        var recorder = PlotRecorder()
        recorder.begin(at: 0, state: state(0, .idle, y: 0))
        for index in 1...300_000 {
            let y = index == 123_457 ? 9000 : Double(index % 50)
            recorder.record(state(Timestamp(index) * 8333, .interacting, y: y, vy: Double(index % 13)), isFrame: true)
        }
        let series = recorder.series(description)
        #expect(series.stateCount == 300_000)
        #expect(series.offsetY.count <= 4 * 4096)
        #expect(series.offsetY.contains { $0.v == 9000 })
        let svg = PlotRenderer().render(series)
        #expect(svg.utf8.count < 400_000, "\(svg.utf8.count) bytes")
        let document = try parse(svg)
        // The peak decides the panel's range: its highest tick label is in the thousands.
        let labels = try document.nodes(forXPath: "//*[@id='panel-offset-y']/*[local-name()='text']").compactMap(\.stringValue)
        #expect(labels.contains("8000"))
    }
}

@Suite("SVGDocument: numbers and escaping")
struct SVGDocumentTests {
    @Test func numbersHaveNoTrailingZerosOrNegativeZero() {
        #expect(SVGDocument.number(12) == "12")
        #expect(SVGDocument.number(12.04) == "12")
        #expect(SVGDocument.number(12.05, decimals: 2) == "12.05")
        #expect(SVGDocument.number(-3.25, decimals: 1) == "-3.3")
        #expect(SVGDocument.number(0.04) == "0")
        #expect(SVGDocument.number(-0.04) == "0")
        #expect(SVGDocument.number(0.5) == "0.5")
        #expect(SVGDocument.number(-0.008, decimals: 3) == "-0.008")
        #expect(SVGDocument.number(1200) == "1200")
        #expect(SVGDocument.number(.nan) == "0")
        #expect(SVGDocument.number(-.infinity) == "0")
    }

    @Test func escaping() {
        #expect(SVGDocument.escape("a<b>&\"c\"'d'") == "a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;")
        #expect(SVGDocument.escape("tab\tnl\nnul\u{0}") == "tab\tnl\nnul\u{FFFD}")
        #expect(SVGDocument.escape("\u{B7}\u{2212}") == "\u{B7}\u{2212}")
    }

    @Test func commentsNeverContainTwoDashes() throws {
        var document = SVGDocument(width: 10, height: 10)
        document.comment("--set a=b --- c")
        let svg = document.rendered
        #expect(svg.contains("<!-- - -set a=b - - - c -->"))
        _ = try parse(svg)
    }
}
