import ScrollModel
import Testing

enum MaxKey: PreferenceKey {
    static let defaultValue = 0
    static func reduce(value: inout Int, nextValue: () -> Int) { value = max(value, nextValue()) }
}

enum ListKey: PreferenceKey {
    static let defaultValue: [Int] = []
    static func reduce(value: inout [Int], nextValue: () -> [Int]) { value += nextValue() }
}

@Suite("Preferences and geometry observers")
struct PreferenceTests {
    /// Three siblings under the root contributing `values` for MaxKey.
    func reduced(_ values: [Int]) -> Int {
        var tree = ViewTree(rootSize: Size(width: 100, height: 100))
        var contributions: [ViewTree.NodeID: Int] = [:]
        for value in values {
            contributions[tree.addChild(to: tree.root, frame: .zero)] = value
        }
        return tree.preference(MaxKey.self) { contributions[$0.node] }
    }

    @Test func theObserverFiresOnlyWhenTheReducedValueChanges() {
        var observer = PreferenceChangeObserver(MaxKey.self)
        var fired: [Int] = []
        observer.update(reduced([3, 7, 5])) { fired.append($0) }
        observer.update(reduced([3, 6, 5])) { fired.append($0) }
        observer.update(reduced([3, 6, 5])) { fired.append($0) }
        #expect(fired == [7, 6])
    }

    @Test func valuesAreReducedInTreeOrderParentsBeforeChildren() {
        var tree = ViewTree(rootSize: Size(width: 10, height: 10))
        let a = tree.addChild(to: tree.root, frame: .zero)
        let b = tree.addChild(to: tree.root, frame: .zero)
        let a1 = tree.addChild(to: a, frame: .zero)
        let b1 = tree.addChild(to: b, frame: .zero)
        let a2 = tree.addChild(to: a, frame: .zero)
        let names = [tree.root: 0, a: 1, a1: 2, a2: 3, b: 4, b1: 5]
        #expect(tree.preference(ListKey.self) { names[$0.node].map { [$0] } } == [0, 1, 2, 3, 4, 5])
        #expect(tree.preference(ListKey.self) { _ in nil } == [])
    }

    @Test func geometryChangeObserverActsOnlyOnChangesWithOldAndNew() {
        var tree = ViewTree(rootSize: Size(width: 100, height: 100))
        let node = tree.addChild(to: tree.root, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        var observer = GeometryChangeObserver(for: Double.self) { $0.frame(in: .global).minY }
        var changes: [(Double, Double)] = []
        observer.evaluate(tree.geometry(of: node)) { changes.append(($0, $1)) }
        tree.setOrigin(Point(x: 0, y: 5), of: node)
        observer.evaluate(tree.geometry(of: node)) { changes.append(($0, $1)) }
        tree.setOrigin(Point(x: 3, y: 5), of: node)  // x moved, the transformed value did not
        observer.evaluate(tree.geometry(of: node)) { changes.append(($0, $1)) }
        #expect(changes.count == 1)
        #expect(changes.first?.0 == 0 && changes.first?.1 == 5)
    }
}
