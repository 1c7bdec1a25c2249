import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `scrolld replay --plot`, run for real: the SVG must be well-formed XML with the expected
/// panels and series, plot the same states the replay prints, and render with librsvg.
@Suite("scrolld replay --plot: the chart physics is tuned with")
struct ReplayPlotTests {
    static let demoOptions = ["--header", "60:200", "--rows", "200x44", "--axes", "both", "--content-size", "1600x9000"]

    /// A path in a fresh directory, not created.
    func outputPath(_ name: String = "plot.svg") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name).path
    }

    func plot(_ log: String, _ options: [String] = []) throws -> (svg: String, path: String, result: Scrolld.Result) {
        let path = try outputPath()
        let result = try Scrolld.run(["replay", log] + options + ["--plot", path])
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "", path, result)
    }

    func xml(_ svg: String) throws -> XMLDocument {
        try XMLDocument(data: Data(svg.utf8), options: [])
    }

    func strings(_ node: XMLNode, _ xpath: String) throws -> [String] {
        try node.nodes(forXPath: xpath).compactMap(\.stringValue)
    }

    /// The root element's numeric attribute (read through XPath: FoundationXML's
    /// `attribute(forName:)` does not find attributes of an element in a default namespace).
    func rootNumber(_ document: XMLDocument, _ name: String) throws -> Int? {
        try strings(document, "/*/@\(name)").first.flatMap { Int($0) }
    }

    @Test func demoPlotIsWellFormedWithEveryPanelAndSeries() throws {
        let (svg, _, result) = try plot(Scrolld.example("demo.scrolllog"), Self.demoOptions)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.isEmpty, "--plot writes no state lines")
        let document = try xml(svg)
        let root = try #require(document.rootElement())
        #expect(root.name == "svg")
        #expect(try rootNumber(document, "width") == 1200)
        #expect(try strings(document, "//*[@class='panel']/@id") == [
            "panel-offset-y", "panel-offset-x", "panel-velocity", "panel-header-height", "panel-input",
        ])
        #expect(try strings(document, "//*[@class='series']/@id") == [
            "series-offset-y", "series-offset-x", "series-velocity-y", "series-velocity-x", "series-header-height",
        ])
        for d in try strings(document, "//*[@class='series']/@d") {
            #expect(d.hasPrefix("M") && d.count > 100)
        }
        // The demo's wheels, touchpad drags and holds, each in its lane, and the frames.
        #expect(try strings(document, "//*[@class='ticks']/@id") == ["input-wheel", "input-finger", "input-hold", "frames"])
        // Three scroll stops (two vertical releases and the horizontal one).
        #expect(try document.nodes(forXPath: "//*[@class='stops']/*").count == 3)
        let phases = Set(try strings(document, "//*[@class='phase']/@data-phase"))
        #expect(phases == ["tracking", "interacting", "decelerating"])
        let title = try strings(document, "//*[@id='title']").joined()
        #expect(title.contains("demo.scrolllog"))
        #expect(title.contains("physics profile ios"))
        #expect(title.contains("header 60\u{2013}200 px"))
        // The plot saw exactly the states the replay prints.
        let states = try Scrolld.run(["replay", Scrolld.example("demo.scrolllog")] + Self.demoOptions).states
        #expect(title.contains("\(states.count) states"), "\(title)")
        #expect(title.contains("56 input events"))
    }

    /// The offset-y curve's highest and lowest pixels, read back through the panel's own tick
    /// labels, are the replay's highest and lowest offsets.
    @Test func demoPlotCurveMatchesTheReplayedOffsets() throws {
        let (svg, _, result) = try plot(Scrolld.example("demo.scrolllog"), Self.demoOptions)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try xml(svg)
        let labels = try document.nodes(forXPath: "//*[@id='panel-offset-y']/*[local-name()='text' and @text-anchor='end' and not(@stroke)]")
        var ticks: [(value: Double, y: Double)] = []
        for label in labels {
            guard let text = label.stringValue, let y = try strings(label, "@y").first.flatMap({ Double($0) }),
                let value = Double(text.replacingOccurrences(of: "\u{2212}", with: "-"))
            else { continue }
            ticks.append((value, y - 4))
        }
        try #require(ticks.count >= 3)
        let (a, b) = (ticks.first!, ticks.last!)
        let valuePerPixel = (b.value - a.value) / (b.y - a.y)
        let d = try #require(try strings(document, "//*[@id='series-offset-y']/@d").first)
        let numbers = d.split(whereSeparator: { "ML ".contains($0) }).compactMap { Double($0) }
        let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
        let plottedMax = a.value + (ys.min()! - a.y) * valuePerPixel
        let plottedMin = a.value + (ys.max()! - a.y) * valuePerPixel
        let offsets = try Scrolld.run(["replay", Scrolld.example("demo.scrolllog")] + Self.demoOptions).states.map(\.y)
        // Coordinates have 0.1 px resolution.
        let tolerance = abs(valuePerPixel) * 0.1
        #expect(abs(plottedMax - offsets.max()!) <= tolerance, "\(plottedMax) vs \(offsets.max()!)")
        #expect(abs(plottedMin - min(0, offsets.min()!)) <= tolerance, "\(plottedMin) vs \(offsets.min()!)")
    }

    @Test func demoPlotRendersToAPNGOfItsSizeThatShowsBandsAndLines() throws {
        let rsvg = try #require(Tool.find("rsvg-convert"), "rsvg-convert not found: install librsvg2-bin (make deps does)")
        let (svg, path, result) = try plot(Scrolld.example("demo.scrolllog"), Self.demoOptions)
        #expect(result.status == 0, "\(result.stderr)")
        let height = try #require(try rootNumber(xml(svg), "height"))
        let png = path + ".png"
        let render = try Tool.run(rsvg, ["--format", "png", "--output", png, path])
        #expect(render.status == 0, "\(render.stderr)")
        let image = try PNGInspector(path: png)
        #expect(image.width == 1200)
        #expect(image.height == height)
        #expect(height > 900)
        // Not one colour: white, phase tints, lines, text and their anti-aliasing.
        #expect(image.colors.count > 50, "\(image.colors.count) colours")
        #expect((image.colors["ffffff"] ?? 0) > image.width * image.height / 3)
        // Bands are flat fills of their exact tint; lines are anti-aliased, so near their colour.
        for tint in ["d9e9f8", "fde5c8", "e9def5"] {
            #expect((image.colors[tint] ?? 0) > 2000, "tint \(tint): \(image.colors[tint] ?? 0) px")
        }
        for line in ["1d4ea8", "c0392b", "6b2c91"] {
            #expect(image.pixels(near: line, tolerance: 24) > 300, "line \(line): \(image.pixels(near: line, tolerance: 24)) px")
        }
    }

    @Test func plotComposesWithProfileEveryAndStandardOutput() throws {
        let result = try Scrolld.run([
            "replay", Scrolld.example("demo.scrolllog"), "--profile", "gtk", "--every", "5",
            "--set", "physics.friction=3", "--plot", "-",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try xml(String(decoding: result.stdout, as: UTF8.self))
        let title = try strings(document, "//*[@id='title']").joined()
        #expect(title.contains("physics profile gtk"))
        #expect(title.contains("friction 3/s"))
        #expect(title.contains("--set physics.friction=3"))
        #expect(title.contains("sampled every 5 ms"))
        // Sampled states carry no frames; --every's samples are what the replay prints.
        #expect(try strings(document, "//*[@class='ticks']/@id") == ["input-wheel", "input-finger", "input-hold"])
        let samples = try Scrolld.run(["replay", Scrolld.example("demo.scrolllog"), "--profile", "gtk", "--every", "5", "--set", "physics.friction=3"])
        #expect(title.contains("\(samples.states.count) states"))
    }

    @Test func aLogWithoutInputGivesANoteAndSaysSo() throws {
        let log = try Scrolld.temporaryFile(
            #"{"format":"scrolld-events","version":1,"created":"2026-11-22T12:00:00Z","source":"test"}"# + "\n"
                + #"{"t":1000,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"# + "\n"
        )
        let (svg, _, result) = try plot(log)
        #expect(result.status == 0)
        #expect(result.stderr.contains("no input event reached container 'main'"), "\(result.stderr)")
        let document = try xml(svg)
        #expect(try strings(document, "//*[@id='note']").joined().contains("nothing to plot"))
        #expect(try document.nodes(forXPath: "//*[@class='panel']").isEmpty)
    }

    @Test func aSingleEventPlotsFiniteCoordinates() throws {
        let log = try Scrolld.temporaryFile(
            #"{"format":"scrolld-events","version":1,"created":"2026-11-22T12:00:00Z","source":"test"}"# + "\n"
                + #"{"t":1000,"dev":1,"type":"finger","delta":{"y":5}}"# + "\n"
        )
        let (svg, _, result) = try plot(log)
        #expect(result.status == 0, "\(result.stderr)")
        let document = try xml(svg)
        #expect(!svg.lowercased().contains("nan") && !svg.lowercased().contains("inf"))
        #expect(try strings(document, "//*[@class='series']/@id") == ["series-offset-y", "series-velocity-y"])
        #expect(try strings(document, "//*[@id='title']").joined().contains("1 input event \u{B7} 1 state \u{B7}"))
    }

    @Test func theLogNameIsEscaped() throws {
        let log = try Scrolld.temporaryFile(
            #"{"format":"scrolld-events","version":1,"created":"2026-11-22T12:00:00Z","source":"test"}"# + "\n"
                + #"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"# + "\n",
            name: #"a&b <c> "d" 'e'.scrolllog"#
        )
        let (svg, _, result) = try plot(log)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(svg.contains("a&amp;b &lt;c&gt; &quot;d&quot; &apos;e&apos;.scrolllog"))
        let title = try strings(try xml(svg), "//*[@id='title']/*[1]").first ?? ""
        #expect(title.hasPrefix(#"a&b <c> "d" 'e'.scrolllog"#))
    }

    @Test func aMalformedLogWritesNoPlot() throws {
        let log = try Scrolld.temporaryFile(
            #"{"format":"scrolld-events","version":1,"created":"2026-11-22T12:00:00Z","source":"test"}"# + "\n"
                + #"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"# + "\n"
                + #"{"t":2000,"dev":1,"type":"wheel","v120":{"y":120}"# + "\n"
                + #"{"t":3000,"dev":1,"type":"wheel","v120":{"y":120}}"# + "\n"
        )
        let (_, path, result) = try plot(log)
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 3"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func badPlotOptionsNameTheProblem() throws {
        let demo = Scrolld.example("demo.scrolllog")
        let never = try outputPath()
        let withAt = try Scrolld.run(["replay", demo, "--at", "1", "--plot", never])
        #expect(withAt.status == 64)
        #expect(withAt.stderr.contains("--plot draws the whole replay and excludes --at"), "\(withAt.stderr)")
        #expect(!FileManager.default.fileExists(atPath: never))
        let uncreatable = try Scrolld.run(["replay", demo, "--plot", "/nonexistent/dir/plot.svg"])
        #expect(uncreatable.status == 73)
        #expect(uncreatable.stderr.contains("cannot create the plot /nonexistent/dir/plot.svg"), "\(uncreatable.stderr)")
        // Made but not written (a full disk): a write error, 74.
        let full = try Scrolld.run(["replay", demo, "--plot", "/dev/full"])
        #expect(full.status == 74)
        #expect(full.stderr.contains("cannot write the plot to /dev/full: No space left on device"), "\(full.stderr)")
    }
}
