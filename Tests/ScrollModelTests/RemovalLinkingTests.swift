@testable import ScrollModel
import Testing

/// A removal leaves the router's links as linking the containers left anew would make them:
/// with nesting it links again; without, it only drops the removed container's entry (linking by
/// name per removal made closing a connection that owned a thousand containers quadratic).
@Suite("Links after removals")
struct RemovalLinkingTests {
    @Test(arguments: 0..<200)
    func removalsLinkAsLinkingAnew(seed: Int) {
        var random = RoutingPropertyTests.Seeded(state: UInt64(seed) &* 7919 &+ 3)
        var configurations = RoutingPropertyTests.configurations(&random)
        // Half the cases without nesting: the path that does not link again.
        if seed.isMultiple(of: 2) {
            for index in configurations.indices { configurations[index].parent = nil }
        }
        var engine = ScrollEngine()
        var names: [String] = []
        for (index, configuration) in configurations.enumerated() {
            _ = engine.add(ScrollContainer(name: "c\(index)", configuration: configuration, at: 0))
            names.append("c\(index)")
        }
        while !names.isEmpty {
            let index = Int.random(in: 0..<names.count, using: &random)
            engine.remove(container: index)
            names.remove(at: index)
            var linked = engine.router
            linked.link(names: engine.slots.map(\.container.name), parentNames: engine.slots.map(\.container.configuration.parent))
            #expect(engine.router.parents == linked.parents, "seed \(seed), left \(names)")
            #expect(engine.router.hasNesting == linked.hasNesting)
            #expect(engine.router.parents.count == names.count)
        }
    }
}
