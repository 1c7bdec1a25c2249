@testable import ScrollConfig
import ScrollModel
import Testing

/// A `rows.heights` list is read into row heights once, as it is set (a file's list may hold ten
/// million, and the container is resolved again at every reload, on the daemon's loop). What
/// was read holds exactly as long as the list describes the rows.
@Suite("Listed row heights")
struct ListedHeightsTests {
    @Test func aListHoldsThroughOtherRowKeysAndGivesWayToAnyNewDescription() throws {
        var config = Configuration()
        func heights() throws -> RowHeights? { try config.resolve(container: "list").rows?.heights }
        try config.set("containers.list.rows.heights", .array([.integer(10), .double(20.5), .integer(0)]))
        try config.set("containers.list.rows.threshold", .double(0.25))
        try config.set("containers.list.rows.top", .integer(4))
        #expect(try heights() == .explicit([10, 20.5, 0]))
        try config.set("containers.list.rows.runs", .array([.array([.integer(2), .integer(7)])]))
        #expect(try heights() == .runs([(2, 7)]))
        try config.set("containers.list.rows.heights", .array([.integer(3)]))
        #expect(try heights() == .explicit([3]))
        try config.set("containers.list.rows", .object([("heights", .array([.integer(1), .integer(2)])), ("sticky", .array([.integer(1)]))]))
        #expect(try heights() == .explicit([1, 2]))
        // The rows set as a whole are read from what was set, never from an older list.
        let index = try #require(config.containers.firstIndex { $0.name == "list" })
        config.containers[index].rows = ["heights": .array([.integer(5), .integer(6), .integer(7)])]
        #expect(try heights() == .explicit([5, 6, 7]))
    }
}
