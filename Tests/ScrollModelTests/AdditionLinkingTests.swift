@testable import ScrollModel
import Testing

/// An addition leaves the router's links as linking every container anew would make them: a
/// container without a parent, among containers that name none, joins without linking by name
/// (which made a start or reload of a thousand containers quadratic); anything else links again,
/// a parent named before it exists included.
@Suite("Links after additions")
struct AdditionLinkingTests {
    @Test(arguments: 0..<200)
    func additionsLinkAsLinkingAnew(seed: Int) {
        var random = RoutingPropertyTests.Seeded(state: UInt64(seed) &* 6151 &+ 11)
        var configurations = RoutingPropertyTests.configurations(&random)
        for index in configurations.indices {
            switch (seed % 3, Int.random(in: 0..<3, using: &random)) {
            case (0, _): configurations[index].parent = nil
            // A parent named before it is added: linked once it comes.
            case (1, 0): configurations[index].parent = "c\(Int.random(in: 0..<configurations.count, using: &random))"
            default: break
            }
        }
        var engine = ScrollEngine()
        for (index, configuration) in configurations.enumerated() {
            engine.add(ScrollContainer(name: "c\(index)", configuration: configuration, at: 0))
            var linked = engine.router
            linked.link(names: engine.slots.map(\.container.name), parentNames: engine.slots.map(\.container.configuration.parent))
            #expect(engine.router.parents == linked.parents, "seed \(seed), after c\(index)")
            #expect(engine.router.hasNesting == linked.hasNesting)
            #expect(engine.router.latches.count == index + 1 && engine.router.routed.count == index + 1)
        }
    }

    /// A container named as a parent before it exists is the parent once added, though every
    /// container added between names none.
    @Test func aParentAddedLaterIsLinked() {
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "child", configuration: ContainerConfiguration(parent: "outer"), at: 0))
        engine.add(ScrollContainer(name: "other", configuration: ContainerConfiguration(), at: 0))
        engine.add(ScrollContainer(name: "outer", configuration: ContainerConfiguration(), at: 0))
        #expect(engine.router.parents == [2, -1, -1])
        #expect(engine.router.hasNesting)
    }
}
