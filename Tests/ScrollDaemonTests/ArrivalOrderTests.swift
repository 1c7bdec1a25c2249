@testable import ScrollDaemon
import Testing

/// `ArrivalOrder` keeps values in the order they came, through replacements, removals and the
/// compaction that follows many removals.
@Suite("Arrival order")
struct ArrivalOrderTests {
    @Test func valuesKeepTheOrderTheyCameIn() {
        var order = ArrivalOrder<Int, String>()
        for key in 0..<100 { order.append("v\(key)", for: key) }
        // A value given again under its key goes last.
        order.append("again", for: 3)
        // Removing most compacts the storage; the rest keep their order and their keys.
        for key in 0..<100 where key % 10 != 0 { if key != 3 { order.remove(key) } }
        #expect(order.remove(99) == nil)
        #expect(order.count == 11)
        #expect(order.inOrder == (0..<10).map { "v\($0 * 10)" } + ["again"])
        #expect(order[30] == "v30" && order[3] == "again" && order[31] == nil)
        order.append("new", for: 31)
        #expect(order.inOrder.last == "new" && order[31] == "new")
        order.removeAll()
        #expect(order.isEmpty && order.inOrder.isEmpty)
    }
}
