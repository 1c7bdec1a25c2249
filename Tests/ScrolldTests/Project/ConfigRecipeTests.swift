import Foundation
import Testing

/// The README's configuration recipes are real files that `scrolld check-config` accepts.
@Suite("Configuration recipes")
struct ConfigRecipeTests {
    static let recipes: [(file: String, containers: String)] = [
        ("kiosk.toml", "main"),
        ("carousel.toml", "main, carousel"),
        ("knob.toml", "main, dial"),
        ("list-of-carousels.toml", "main, home, movies, series, trailers"),
        ("touchpad-flings.toml", "main"),
    ]

    @Test(arguments: recipes.map(\.file))
    func recipeIsAValidConfiguration(file: String) throws {
        let path = Scrolld.example(file)
        let check = try Scrolld.run(["check-config", path])
        #expect(check.status == 0, "\(check.stderr)")
        let containers = Self.recipes.first { $0.file == file }!.containers
        #expect(String(decoding: check.stdout, as: UTF8.self) == "\(path): ok\ncontainers: \(containers)\n")
        #expect(check.stderr == "")
    }

    /// Every recipe in examples/ is checked above and linked from the README.
    @Test func everyRecipeIsCheckedAndInTheReadme() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Scrolld.packageRoot.appendingPathComponent("examples").path)
            .filter { $0.hasSuffix(".toml") }.sorted()
        #expect(names == Self.recipes.map(\.file).sorted())
        let readme = try String(contentsOf: Scrolld.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for name in names { #expect(readme.contains("examples/\(name)"), "\(name)") }
    }

    /// What a client of the daemon sees with each recipe: the geometry the recipe's comments
    /// promise (sizes, the rows' ideal content size, the header, the visible rows at rest).
    @Test func theDaemonServesTheRecipesContainers() throws {
        func state(_ recipe: String, _ container: String) throws -> [String: Any] {
            let config = try String(contentsOfFile: Scrolld.example(recipe), encoding: .utf8)
            let daemon = try DaemonProcess(config: config)
            defer { daemon.stop() }
            let client = try LineClient(path: daemon.socketPath)
            defer { client.close() }
            _ = client.read(type: "welcome")
            return try #require(client.request(["op": "get", "container": container], id: 1), "\(recipe): \(daemon.stderr)")
        }
        func size(_ object: Any?) -> [Double] {
            let size = object as? [String: Any] ?? [:]
            return [size["width"], size["height"]].map { ($0 as? NSNumber)?.doubleValue ?? .nan }
        }
        func rows(_ state: [String: Any]) -> [Int] {
            let rows = state["visibleRows"] as? [String: Any] ?? [:]
            return [rows["first"], rows["last"]].map { ($0 as? NSNumber)?.intValue ?? -1 }
        }

        // 250 rows of 160 px under a 480 px header; rows 0-8 fill the 1440 px below it.
        let kiosk = try state("kiosk.toml", "main")
        #expect(size(kiosk["containerSize"]) == [1080, 1920])
        #expect(size(kiosk["contentSize"]) == [1080, 480 + 250 * 160])
        #expect(kiosk.number("header", "height") == 480)
        #expect(rows(kiosk) == [0, 8])

        // 24 cards of 300 px side by side, starting 40 px in: cards 0-3 show (the 4th by 260 px).
        let carousel = try state("carousel.toml", "carousel")
        #expect(size(carousel["containerSize"]) == [1200, 360])
        #expect(size(carousel["contentSize"]) == [24 * 300, 360])
        #expect(carousel.number("contentOffset", "x") == -40)
        #expect(rows(carousel) == [0, 3])

        // 12 entries of 44 px, five showing.
        let dial = try state("knob.toml", "dial")
        #expect(size(dial["containerSize"]) == [240, 220])
        #expect(size(dial["contentSize"]) == [240, 12 * 44])
        #expect(rows(dial) == [0, 4])
    }

    /// The nested recipe on a live daemon: the focused shelf takes sideways input and the list
    /// up/down input (input from a real event log, `run --replay`), the focus shows in
    /// `devices`, and a recipe with a cycle is refused naming the key.
    @Test func theNestedRecipeRoutesSidewaysToTheFocusedShelf() throws {
        let config = try String(contentsOfFile: Scrolld.example("list-of-carousels.toml"), encoding: .utf8)
        let log = try Scrolld.temporaryFile([
            #"{"format":"scrolld-events","version":1,"created":"2026-11-25T12:00:00Z","source":"recipe"}"#,
            #"{"t":0,"dev":1,"type":"wheel","v120":{"x":0}}"#,
            #"{"t":2000000,"dev":1,"type":"wheel","v120":{"x":120}}"#,
            #"{"t":2000000,"dev":1,"type":"wheel","v120":{"y":120}}"#,
        ].joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(config: config, arguments: ["--loop"], replay: log)
        defer { daemon.stop() }
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        let welcome = try #require(client.read(type: "welcome"))
        #expect(welcome["containers"] as? [String] == ["main", "home", "movies", "series", "trailers"])
        #expect(client.request(["op": "focus", "container": "series"], id: 1)?["type"] as? String == "ok")
        #expect(client.request(["op": "devices"], id: 2)?["focus"] as? String == "series")
        func x(_ name: String) -> Double { client.request(["op": "get", "container": name], id: 3)?.number("contentOffset", "x") ?? .nan }
        func y(_ name: String) -> Double { client.request(["op": "get", "container": name], id: 4)?.y ?? .nan }
        // The shelves start at their leading inset; the focused one moves right, home down.
        #expect(waitUntil(timeout: 60) { x("series") > -48 && y("home") > 0 })
        #expect(x("movies") == -48)
        #expect(y("trailers") == 0)

        let bad = try Scrolld.temporaryFile(config.replacingOccurrences(of: "[containers.home]\n", with: "[containers.home]\nparent = \"trailers\"\n"), name: "cycle.toml")
        let check = try Scrolld.run(["check-config", bad])
        #expect(check.status != 0)
        #expect(check.stderr.contains("containers.home.parent"), "\(check.stderr)")
        #expect(check.stderr.contains("cycle"), "\(check.stderr)")
    }

    /// "Touchpad flings, trackball never": the recipe, replayed with a trackball and a touchpad
    /// making the same drag in one container — the trackball's release rests where it is
    /// (momentum false, speed 1.5), the touchpad's flings (speed_y 0.8).
    @Test func touchpadFlingsTrackballNever() throws {
        let lines = [
            #"{"format":"scrolld-events","version":1,"created":"2026-11-25T12:00:00Z","source":"test"}"#,
            #"{"t":1,"dev":1,"type":"device_added","name":"Kensington Slimblade Trackball","caps":["continuous"]}"#,
            #"{"t":1,"dev":2,"type":"device_added","name":"ELAN0676:00 04F3:3195 Touchpad","caps":["finger","hold"]}"#,
            #"{"t":1000000,"dev":1,"type":"continuous","delta":{"y":10}}"#,
            #"{"t":1010000,"dev":1,"type":"continuous","delta":{"y":10}}"#,
            #"{"t":1020000,"dev":1,"type":"continuous","delta":{"y":10}}"#,
            #"{"t":1030000,"dev":1,"type":"continuous","delta":{"y":0}}"#,
            #"{"t":2000000,"dev":2,"type":"finger","delta":{"y":10}}"#,
            #"{"t":2010000,"dev":2,"type":"finger","delta":{"y":10}}"#,
            #"{"t":2020000,"dev":2,"type":"finger","delta":{"y":10}}"#,
            #"{"t":2030000,"dev":2,"type":"finger","delta":{"y":0}}"#,
        ]
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let result = try Scrolld.run(["replay", log, "--config", Scrolld.example("touchpad-flings.toml")])
        #expect(result.status == 0, "\(result.stderr)")
        let states = result.states
        #expect(states.prefix(4).map(\.y) == [15, 30, 45, 45])
        #expect(states.prefix(4).map(\.phase) == ["interacting", "interacting", "interacting", "idle"])
        // The scroll indicator hides 500 ms after that rest (docs/design.md §22).
        #expect(states[4].t == 1_530_000 && states[4].indicatorVisible == false)
        #expect(states[5].t == 2_000_000)
        let touchpad: [Double] = [53, 61, 69, 69]  // 45 + 10 × 0.8 per delta
        #expect(states[5...8].map(\.y) == touchpad)
        #expect(states[8].phase == "decelerating")
        #expect(states.last?.phase == "idle")
        #expect((states.last?.y ?? 0) > 45 + 24 + 100)
    }
}
