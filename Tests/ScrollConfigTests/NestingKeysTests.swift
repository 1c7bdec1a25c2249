import ScrollConfig
import ScrollModel
import Testing

/// docs/design.md §14's container keys, `parent` and `overscroll`, in files, assignments and the
/// recording's engine assignments.
@Suite("Container keys: parent and overscroll")
struct NestingKeysTests {
    func failure(_ body: () throws(ConfigurationError) -> Void) -> ConfigurationError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aParentMayBeDefinedFurtherDown() throws {
        let config = try Configuration.parse("""
            [containers.carousel]
            parent = "list"
            axes = "horizontal"
            overscroll = "contain"

            [containers.list]
            """, file: "f.toml")
        let carousel = try config.resolve(container: "carousel")
        #expect(carousel.parent == "list")
        #expect(carousel.overscroll == .contain)
        #expect(carousel.physics.overscroll)
        #expect(try config.resolve(container: "list").parent == nil)
        #expect(try config.resolve(container: "list").overscroll == .auto)
    }

    @Test func unknownParentsCyclesAndBadBehavioursNameTheKeyAndLine() {
        let unknown = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.a]\nparent = \"b\"\n", file: "f.toml") }
        #expect(unknown?.key == "containers.a.parent")
        #expect(unknown?.line == 2)
        let cycle = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.a]\nparent = \"b\"\n[containers.b]\nparent = \"a\"\n", file: "f.toml") }
        #expect(cycle?.key == "containers.a.parent")
        #expect(cycle?.message.contains("a → b → a") == true)
        let itself = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.a]\nparent = \"a\"\n", file: "f.toml") }
        #expect(itself?.message.contains("cycle") == true)
        let behaviour = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.a]\noverscroll = \"bounce\"\n", file: "f.toml") }
        #expect(behaviour?.key == "containers.a.overscroll")
        #expect(behaviour?.line == 2)
        let type = failure { () throws(ConfigurationError) in _ = try Configuration.parse("[containers.a]\nparent = 3\n", file: "f.toml") }
        #expect(type?.key == "containers.a.parent")
    }

    @Test func overscrollNoneTurnsThePhysicsOverscrollOff() throws {
        var config = Configuration()
        try config.set("containers.inner.overscroll", .string("none"))
        #expect(try config.resolve(container: "inner").physics.overscroll == false)
        try config.set("containers.inner.overscroll", .string("auto"))
        #expect(try config.resolve(container: "inner").physics.overscroll == true)
    }

    @Test func anEmptyParentClearsItAndAssignmentsCarryBothKeys() throws {
        var config = Configuration()
        try config.set("containers.list.axes", .string("vertical"))
        try config.set("containers.carousel.parent", .string("list"))
        try config.set("containers.carousel.overscroll", .string("none"))
        try config.checkNesting()
        let copy = try Configuration(engineAssignments: config.engineAssignments)
        #expect(try copy.resolve(container: "carousel").parent == "list")
        #expect(try copy.resolve(container: "carousel").overscroll == OverscrollBehavior.none)
        #expect(try copy.resolve(container: "list").parent == nil)
        try config.set("containers.carousel.parent", .string(""))
        #expect(try config.resolve(container: "carousel").parent == nil)
    }
}
