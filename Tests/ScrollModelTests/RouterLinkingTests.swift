@testable import ScrollModel
import Testing

/// Containers coming and going leave the router's links as linking every container anew would
/// make them. Linking by name (a dictionary of every name) at each change made a start, a reload
/// or the close of a connection that owned a thousand containers quadratic: a container without
/// a parent, among containers that name none, joins without it, and a removal without nesting
/// only drops its entry; anything else links again, a parent named before it exists included.
@Suite("Links as containers come and go")
struct RouterLinkingTests {
    /// Containers added one by one, some naming parents (existing, later or never), some none.
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
            let linked = Self.linkedAnew(engine)
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

    /// Containers removed in a random order, with nesting and without.
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
            let linked = Self.linkedAnew(engine)
            #expect(engine.router.parents == linked.parents, "seed \(seed), left \(names)")
            #expect(engine.router.hasNesting == linked.hasNesting)
            #expect(engine.router.parents.count == names.count)
        }
    }

    /// The engine's router as linking every container anew makes it.
    static func linkedAnew(_ engine: ScrollEngine) -> InputRouter {
        var router = engine.router
        router.link(names: engine.slots.map(\.container.name), parentNames: engine.slots.map(\.container.configuration.parent))
        return router
    }
}
