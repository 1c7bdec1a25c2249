import ScrollConfig
import ScrollModel
import Testing

/// docs/design.md §25's keys: `touch_frame` (container), `touch_slop` (physics) and
/// `[input] touchscreens`, in files, ranges and the recording's engine assignments.
@Suite("Touch keys")
struct TouchKeysTests {
    func failure(_ body: () throws(ConfigurationError) -> Void) -> ConfigurationError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aFrameASlopAndTouchscreensReadFromAFile() throws {
        let config = try Configuration.parse("""
            [input]
            touchscreens = false

            [containers.list]
            touch_frame = { x = 0, y = 0.5, width = 1, height = 0.25 }
            physics = { touch_slop = 12 }
            """, file: "f.toml")
        let list = try config.resolve(container: "list")
        #expect(list.touchFrame == Rect(x: 0, y: 0.5, width: 1, height: 0.25))
        #expect(list.physics.touchSlop == 12)
        #expect(try config.resolve(container: "main").touchFrame == nil)
        #expect(try config.resolve(container: "main").physics.touchSlop == 8)
        #expect(!config.input.touchscreens)
        #expect(Configuration().input.touchscreens)
    }

    @Test func outOfRangeValuesNameTheKey() {
        let cases: [(String, String)] = [
            ("touch_frame = { x = 0, y = 0, width = 0, height = 1 }", "containers.list.touch_frame.width"),
            ("touch_frame = { x = 0, y = 0, width = 1, height = 2 }", "containers.list.touch_frame.height"),
            ("touch_frame = { x = 3, y = 0, width = 1, height = 1 }", "containers.list.touch_frame.x"),
            ("touch_frame = { x = 0, y = nan, width = 1, height = 1 }", "containers.list.touch_frame.y"),
            ("touch_frame = { x = 0, y = 0, width = 1 }", "containers.list.touch_frame"),
            ("touch_frame = { x = 0, y = 0, width = 1, height = 1, depth = 1 }", "containers.list.touch_frame.depth"),
            ("touch_frame = \"everywhere\"", "containers.list.touch_frame"),
            ("physics = { touch_slop = -1 }", "containers.list.physics.touch_slop"),
            ("physics = { touch_slop = 1e5 }", "containers.list.physics.touch_slop"),
        ]
        for (line, key) in cases {
            let error = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.list]\n\(line)\n", file: "f.toml") }
            #expect(error?.key == key, "\(line): \(String(describing: error))")
        }
    }

    @Test func anEmptyFrameRemovesItAndAssignmentsCarryIt() throws {
        var config = Configuration()
        try config.set("containers.list.touch_frame", .object([("x", .double(0.25)), ("y", .integer(0)), ("width", .double(0.5)), ("height", .integer(1))]))
        #expect(try config.resolve(container: "list").touchFrame == Rect(x: 0.25, y: 0, width: 0.5, height: 1))
        let replayed = try Configuration(engineAssignments: config.engineAssignments)
        #expect(try replayed.resolve(container: "list").touchFrame == Rect(x: 0.25, y: 0, width: 0.5, height: 1))
        try config.set("containers.list.touch_frame", .object([]))
        #expect(try config.resolve(container: "list").touchFrame == nil)
        // Written out as `{}`, so that a replay's container loses a frame it had.
        var had = replayed
        for (key, value) in config.engineAssignments { try had.set(key, value) }
        #expect(try had.resolve(container: "list").touchFrame == nil)
    }
}
