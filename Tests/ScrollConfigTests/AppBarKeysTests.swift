import ScrollConfig
import ScrollModel
import Testing

/// docs/design.md §21's keys: `header.mode`, `rows.sticky` and `refresh`, in files, in their
/// ranges with errors that name the key, and in the recording's engine assignments.
@Suite("App bar keys")
struct AppBarKeysTests {
    func failure(_ body: () throws(ConfigurationError) -> Void) -> ConfigurationError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func modeStickyAndRefreshReadFromAFile() throws {
        let config = try Configuration.parse("""
            [containers.feed]
            header = { max_height = 100, min_height = 20, mode = "enterAlways" }
            rows = { count = 40, height = 50, sticky = [0, 5, 12] }

            [containers.feed.refresh]
            threshold = 80
            height = 60
            """, file: "f.toml")
        let feed = try config.resolve(container: "feed")
        #expect(feed.header?.mode == .enterAlways)
        #expect(feed.rows?.sticky == [0, 5, 12])
        #expect(feed.refresh == RefreshConfiguration(threshold: 80, height: 60))
        let main = try config.resolve(container: "main")
        #expect(main.refresh == nil)
        let pinned = try Configuration.parse("[containers.a]\nheader = { max_height = 10 }\nrows = { count = 3, height = 5 }\n", file: "f.toml")
        #expect(try pinned.resolve(container: "a").header?.mode == .pinned)
        #expect(try pinned.resolve(container: "a").rows?.sticky == [])
    }

    @Test func badValuesNameTheKey() {
        let cases: [(String, String, String)] = [
            ("header = { max_height = 100, mode = \"floating\" }", "containers.list.header.mode", "one of pinned, enterAlways"),
            ("header = { max_height = 100, mode = 1 }", "containers.list.header.mode", "one of pinned, enterAlways"),
            ("rows = { count = 40, height = 50, sticky = [5, 2] }", "containers.list.rows.sticky", "strictly ascending"),
            ("rows = { count = 40, height = 50, sticky = [5, 5] }", "containers.list.rows.sticky", "strictly ascending"),
            ("rows = { count = 40, height = 50, sticky = [-1] }", "containers.list.rows.sticky", "row indices"),
            ("rows = { count = 40, height = 50, sticky = [1.5] }", "containers.list.rows.sticky", "row indices"),
            ("rows = { count = 40, height = 50, sticky = 3 }", "containers.list.rows.sticky", "an array"),
            ("rows = { count = 40, height = 50, sticky = [40] }", "containers.list.rows.sticky", "past the last row"),
            ("refresh = { threshold = 80 }", "containers.list.refresh.height", "needs threshold and height"),
            ("refresh = { height = 60 }", "containers.list.refresh.threshold", "needs threshold and height"),
            ("refresh = { threshold = 50, height = 60 }", "containers.list.refresh.height", "must not exceed refresh.threshold"),
            ("refresh = { threshold = 0, height = 0 }", "containers.list.refresh.threshold", "greater than 0"),
            ("refresh = { threshold = 80, height = -1 }", "containers.list.refresh.height", "greater than 0"),
            ("refresh = { threshold = nan, height = 1 }", "containers.list.refresh.threshold", "finite"),
            ("refresh = { threshold = 1e10, height = 1 }", "containers.list.refresh.threshold", "between -1e9 and 1e9"),
            ("refresh = { threshold = 80, height = 60, distance = 3 }", "containers.list.refresh.distance", "unknown refresh key"),
            ("refresh = 80", "containers.list.refresh", "a table"),
        ]
        for (line, key, words) in cases {
            let error = failure { () throws(ConfigurationError) in
                let config = try Configuration.parse("[containers.list]\n\(line)\n", file: "f.toml")
                _ = try config.resolve(container: "list")
            }
            #expect(error?.key == key, "\(line): \(String(describing: error))")
            #expect(error?.message.contains(words) == true, "\(line): \(String(describing: error))")
        }
    }

    @Test func stickyHasADocumentedLimit() {
        var config = Configuration()
        let many = SettingValue.array((0...Limits.stickyRows).map { .integer($0) })
        let error = failure { () throws(ConfigurationError) in try config.set("containers.list.rows.sticky", many) }
        #expect(error?.key == "containers.list.rows.sticky")
        #expect(error?.message == "at most 10000 sticky rows, got 10001")
        let enough = SettingValue.array((0..<Limits.stickyRows).map { .integer($0) })
        #expect(failure { () throws(ConfigurationError) in try config.set("containers.list.rows.sticky", enough) } == nil)
    }

    @Test func assignmentsCarryThemAndAnEmptyRefreshRemovesIt() throws {
        var config = Configuration()
        try config.set("containers.list.header", .object([("max_height", .integer(100)), ("mode", .string("enterAlways"))]))
        try config.set("containers.list.rows", .object([("count", .integer(10)), ("height", .integer(40)), ("sticky", .array([.integer(0), .integer(4)]))]))
        try config.set("containers.list.refresh", .object([("threshold", .integer(90)), ("height", .double(50.5))]))
        let replayed = try Configuration(engineAssignments: config.engineAssignments)
        let list = try replayed.resolve(container: "list")
        #expect(list.header?.mode == .enterAlways)
        #expect(list.rows?.sticky == [0, 4])
        #expect(list.refresh == RefreshConfiguration(threshold: 90, height: 50.5))
        try config.set("containers.list.refresh", .object([]))
        #expect(try config.resolve(container: "list").refresh == nil)
    }

    /// Sticky indices are checked against the rows as described; rows removed later leave
    /// indices past the end, which are ignored rather than refused.
    @Test func rowEditsKeepStickyIndicesPastTheEnd() throws {
        var config = Configuration()
        try config.set("containers.list.rows", .object([("count", .integer(10)), ("height", .integer(40)), ("sticky", .array([.integer(0), .integer(8)]))]))
        _ = try config.setRows(of: "list", .object([("remove", .object([("at", .integer(5)), ("count", .integer(5))]))]))
        let list = try config.resolve(container: "list")
        #expect(list.rows?.heights.count == 5)
        #expect(list.rows?.sticky == [0, 8])
    }
}
