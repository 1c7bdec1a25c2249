import ScrollConfig
import ScrollModel
import Testing

/// The container keys of docs/design.md §12 and §19 (`anchor`, `rows.visible_in`) and `configure`'s
/// row edits, through the same `Configuration` the file and requests use.
@Suite("Container keys: anchor, rows.visible_in, row edits")
struct ContainerKeysTests {
    func rows(_ config: Configuration, _ name: String = "list") throws -> RowsConfiguration? {
        try config.resolve(container: name).rows
    }

    func list(count: Int = 100, height: Double = 44) throws -> Configuration {
        var config = Configuration()
        try config.set("containers.list.rows.count", .integer(count))
        try config.set("containers.list.rows.height", .double(height))
        return config
    }

    func failure(_ body: () throws(ConfigurationError) -> Void) -> ConfigurationError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func anchorTakesTopBottomAndTheirHorizontalSynonyms() throws {
        var config = Configuration()
        #expect(try config.resolve(container: "main").anchor == .top)
        for (value, anchor) in [("bottom", DefaultScrollAnchor.bottom), ("trailing", .bottom), ("leading", .top), ("top", .top)] {
            try config.set("containers.main.anchor", .string(value))
            #expect(try config.resolve(container: "main").anchor == anchor)
        }
        let error = failure { () throws(ConfigurationError) in try config.set("containers.main.anchor", .string("middle")) }
        #expect(error?.key == "containers.main.anchor")
        #expect(error?.message == "expected top, bottom, leading or trailing, got a string \"middle\"")
        let parsed = try Configuration.parse("[containers.log]\nanchor = \"bottom\"\n", file: "t.toml")
        #expect(try parsed.resolve(container: "log").anchor == .bottom)
    }

    @Test func visibleInTakesContainerOrUsable() throws {
        var config = try list()
        #expect(try rows(config)?.visibleIn == .container)
        try config.set("containers.list.rows.visible_in", .string("usable"))
        #expect(try rows(config)?.visibleIn == .usable)
        let error = failure { () throws(ConfigurationError) in try config.set("containers.list.rows.visible_in", .string("screen")) }
        #expect(error?.key == "containers.list.rows.visible_in")
        #expect(error?.message == "expected one of container, usable, got a string \"screen\"")
        let located = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.main.rows]\ncount = 3\nheight = 4\nvisible_in = 1\n", file: "t.toml") }
        #expect(located?.line == 4)
    }

    @Test func anInsertEditsTheRowsInForceAndIsReturned() throws {
        var config = try list()
        let edit = try config.setRows(of: "list", .object([("insert", .object([("at", .integer(0)), ("count", .integer(20))]))]))
        #expect(edit == .insert(at: 0, count: 20, height: nil))
        #expect(try rows(config)?.heights == .uniform(count: 120, height: 44))
        let heights = try config.setRows(of: "list", .object([("insert", .object([("at", .integer(120)), ("heights", .array([.integer(10), .double(20.5)]))]))]))
        #expect(heights == .insertHeights(at: 120, heights: [10, 20.5]))
        #expect(try rows(config)?.heights == .explicit(Array(repeating: 44, count: 120) + [10, 20.5]))
        let removal = try config.setRows(of: "list", .object([("remove", .object([("at", .integer(5)), ("count", .integer(100))]))]))
        #expect(removal == .remove(at: 5, count: 100))
        #expect(try rows(config)?.heights == .explicit(Array(repeating: 44, count: 20) + [10, 20.5]))
        // The rows' other keys stay; the content follows the rows.
        try config.set("containers.list.rows.threshold", .double(0.25))
        #expect(try rows(config)?.heights.count == 22)
        #expect(try rows(config)?.threshold == 0.25)
        #expect(try config.resolve(container: "list").contentSize == nil)
        // A description replaces the edited rows: count, height or heights.
        try config.set("containers.list.rows.height", .integer(50))
        #expect(try rows(config)?.heights == .uniform(count: 22, height: 50))
    }

    @Test func aDescriptionInConfigureIsMergedAsTheFilesKeysAre() throws {
        var config = try list()
        let edit = try config.setRows(of: "list", .object([("count", .integer(7))]))
        #expect(edit == nil)
        #expect(try rows(config)?.heights == .uniform(count: 7, height: 44))
    }

    @Test func editsThatDoNotFitNameTheirField() throws {
        var config = try list()
        func edit(_ value: SettingValue, container: String = "list") -> ConfigurationError? {
            failure { () throws(ConfigurationError) in _ = try config.setRows(of: container, value) }
        }
        func insert(_ fields: [(String, SettingValue)]) -> SettingValue { .object([("insert", .object(fields))]) }
        #expect(edit(insert([("at", .integer(101)), ("count", .integer(1))]))?.key == "containers.list.rows.insert.at")
        #expect(edit(insert([("count", .integer(1))]))?.description == "containers.list.rows.insert.at: insert needs at")
        #expect(edit(insert([("at", .integer(0))]))?.key == "containers.list.rows.insert.count")
        #expect(edit(insert([("at", .double(0.5)), ("count", .integer(1))]))?.key == "containers.list.rows.insert.at")
        #expect(edit(insert([("at", .integer(0)), ("count", .integer(1)), ("height", .integer(-4))]))?.key == "containers.list.rows.insert.height")
        #expect(edit(insert([("at", .integer(0)), ("heights", .array([.string("x")]))]))?.key == "containers.list.rows.insert.heights")
        #expect(edit(insert([("at", .integer(0)), ("heights", .array([])), ("count", .integer(1))]))?.key == "containers.list.rows.insert.heights")
        #expect(edit(insert([("at", .integer(0)), ("count", .integer(1)), ("colour", .string("red"))]))?.description == "containers.list.rows.insert.colour: unknown insert key (at, count, height, heights)")
        #expect(edit(.object([("remove", .object([("at", .integer(90)), ("count", .integer(11))]))]))?.key == "containers.list.rows.remove.count")
        #expect(edit(.object([("remove", .integer(3))]))?.key == "containers.list.rows.remove")
        #expect(edit(.object([("insert", .object([])), ("remove", .object([]))]))?.message == "a rows edit comes alone (exactly one insert or remove), got insert and remove together")
        #expect(edit(.object([("insert", .object([])), ("count", .integer(3))]))?.message == "a rows edit comes alone (exactly one insert or remove), got an edit together with count")
        #expect(edit(.object([("remove", .object([("at", .integer(0)), ("count", .integer(1))]))]), container: "main")?.key == "containers.main.rows")
        #expect(edit(.object([("remove", .object([("at", .integer(0)), ("count", .integer(1))]))]), container: "a.b")?.key == "containers.a.b.rows")
        // Nothing changed.
        #expect(try rows(config)?.heights == .uniform(count: 100, height: 44))
        // Rows given as heights need a height for a count insert.
        var explicit = Configuration()
        try explicit.set("containers.list.rows.heights", .array([.integer(10), .integer(20)]))
        let error = failure { () throws(ConfigurationError) in _ = try explicit.setRows(of: "list", insert([("at", .integer(0)), ("count", .integer(1))])) }
        #expect(error?.key == "containers.list.rows.insert.height")
    }

    @Test func editsAreNotConfigurationKeys() {
        let error = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.main.rows]\ncount = 3\nheight = 4\ninsert = { at = 0, count = 1 }\n", file: "t.toml") }
        #expect(error?.key == "containers.main.rows.insert")
        #expect(error?.line == 4)
        #expect(error?.message.hasPrefix("insert and remove edit the rows of a running container") == true)
    }

    @Test func aReloadKeepsTheEditedRowsOfAClientsContainer() throws {
        var config = try list()
        _ = try config.setRows(of: "list", .object([("insert", .object([("at", .integer(3)), ("count", .integer(2)), ("height", .integer(10))]))]))
        var reloaded = Configuration()
        reloaded.keepContainers(from: config)
        #expect(try rows(reloaded)?.heights.count == 102)
        #expect(try rows(reloaded)?.heights[3] == 10)
    }

    /// A request's `header: {}` or `rows: {}` is a header or rows without what they need, as a
    /// file's empty section is, not a key that changes nothing; on a container that has them
    /// it changes nothing.
    @Test func anEmptyHeaderOrRowsTableIsRefusedAsTheFilesSectionIs() throws {
        var config = Configuration()
        try config.set("containers.fresh.header", .object([]))
        #expect(throws: ConfigurationError(key: "containers.fresh.header.max_height", message: "a header needs max_height")) {
            _ = try config.resolve(container: "fresh")
        }
        config = Configuration()
        try config.set("containers.fresh.rows", .object([]))
        #expect(throws: ConfigurationError(key: "containers.fresh.rows", message: "rows need count and height, or heights")) {
            _ = try config.resolve(container: "fresh")
        }
        config = try list()
        try config.set("containers.list.rows", .object([]))
        #expect(try rows(config)?.heights.count == 100)
    }

    /// Of `runs`, `heights` and `count`, the last one given holds: a count and height after a
    /// list describe the rows anew.
    @Test func aCountAfterAListOfHeightsDescribesTheRowsAnew() throws {
        var config = Configuration()
        try config.set("containers.list.rows", .object([("heights", .array([.double(1), .double(2)]))]))
        try config.set("containers.list.rows", .object([("count", .integer(20)), ("height", .double(3)), ("sticky", .array([.integer(15)]))]))
        let described = try #require(try rows(config))
        #expect(described.heights.count == 20)
        #expect(described.heights.offset(ofRow: 20) == 60)
        try config.set("containers.list.rows.heights", .array(Array(repeating: .double(5), count: 16)))
        #expect(try rows(config)?.heights.count == 16)
    }
}

/// `rows.runs`: how rows edited by `configure` are written down in a recording's header and the
/// restart store (one entry per run of equal heights, not one per row), taken back the same.
@Suite("Rows as runs")
struct RowRunsKeyTests {
    @Test func editedRowsAreWrittenAsRunsAndReadBackEqual() throws {
        var config = Configuration()
        try config.set("containers.list.containerSize", .object([("width", .integer(400)), ("height", .integer(600))]))
        try config.set("containers.list.rows", .object([("count", .integer(Limits.rows - 3)), ("height", .double(44.5)), ("threshold", .double(0.25))]))
        _ = try config.setRows(of: "list", .object([("insert", .object([("at", .integer(0)), ("count", .integer(1)), ("height", .integer(80))]))]))
        _ = try config.setRows(of: "list", .object([("insert", .object([("at", .integer(1)), ("heights", .array([.double(44.5), .integer(10)]))]))]))
        let rows = try #require(config.engineAssignments.first { $0.key == "containers.list.rows" }?.value)
        guard case .object(let fields) = rows else { Issue.record("rows: \(rows)"); return }
        #expect(fields.map(\.0) == ["height", "runs", "threshold"])
        // 80, then 44.5 (an explicit one beside the long run joins it after the 10), 10, then the run.
        #expect(fields.first { $0.0 == "runs" }?.1 == .array([
            .array([.integer(1), .double(80)]), .array([.integer(1), .double(44.5)]), .array([.integer(1), .double(10)]),
            .array([.integer(Limits.rows - 3), .double(44.5)]),
        ]))
        let replayed = try Configuration(engineAssignments: config.engineAssignments)
        let heights = try #require(try replayed.resolve(container: "list").rows?.heights)
        #expect(heights == (try config.resolve(container: "list").rows?.heights))
        #expect(heights.count == Limits.rows)
        #expect(heights.storedEntries == 4)
        #expect(try replayed.resolve(container: "list").rows?.threshold == 0.25)
        // Described again with count, or heights, the runs give way.
        var described = replayed
        try described.set("containers.list.rows.count", .integer(3))
        #expect(try described.resolve(container: "list").rows?.heights == .uniform(count: 3, height: 44.5))
        try described.set("containers.list.rows.runs", .array([.array([.integer(2), .integer(7)])]))
        try described.set("containers.list.rows.heights", .array([.integer(1), .integer(2)]))
        #expect(try described.resolve(container: "list").rows?.heights == .explicit([1, 2]))
    }

    @Test func runsAreCountHeightPairsOfAtMostTheRowLimitInAll() throws {
        var config = Configuration()
        func refusal(_ value: SettingValue) -> String? {
            do {
                try config.set("containers.list.rows.runs", value)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(refusal(.array([.array([.integer(2), .integer(7)]), .array([.integer(0), .double(1.5)])])) == nil)
        #expect(try config.resolve(container: "list").rows?.heights == .runs([(2, 7)]))
        #expect(refusal(.array([.array([.integer(2)])])) == "containers.list.rows.runs: expected [count, height] pairs (a count between 0 and 10000000, a height ≥ 0), got [2]")
        #expect(refusal(.array([.array([.integer(-1), .integer(7)])]))?.hasPrefix("containers.list.rows.runs: expected [count, height] pairs") == true)
        #expect(refusal(.array([.array([.integer(2), .integer(-7)])])) != nil)
        #expect(refusal(.array([.array([.integer(Limits.rows), .integer(1)]), .array([.integer(1), .integer(1)])])) == "containers.list.rows.runs: expected at most 10000000 rows in all, got more")
    }
}
