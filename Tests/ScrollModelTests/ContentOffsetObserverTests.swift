@testable import ScrollModel
import Testing

/// `ScrollContainer.layout()` computes the content-origin preference directly (only the content
/// writes it); these tests hold it to the full tree walk that `ViewTree.preference` does.
@Suite("The content-offset observer equals the full preference reduction")
struct ContentOffsetObserverTests {
    func walked(_ container: ScrollContainer) -> Point? {
        let space = CoordinateSpace.named(container.coordinateSpaceName)
        let content = container.contentNode
        return container.tree.preference(ScrollContentOriginKey.self) { proxy in
            proxy.node == content ? proxy.frame(in: space).origin : nil
        }
    }

    @Test func atRestWithInsetsDuringADragPastTheEdgeAndThroughAFling() {
        var configuration = ContainerConfiguration()
        configuration.contentInsets = EdgeInsets(top: 40, leading: 0, bottom: 10, trailing: 0)
        var container = ScrollContainer(name: "main", configuration: configuration, at: 0)
        #expect(container.contentOffset == -(walked(container) ?? .zero))
        #expect(container.contentOffset == Point(x: 0, y: -40))

        var time: Timestamp = 0
        for delta in [-30.0, -30, -30, 12, 0] {
            time += 8_000
            container.handle(ScrollEvent(time: time, device: 1, kind: .finger(AxisValues(x: 0, y: delta))))
            #expect(container.contentOffset == -(walked(container) ?? .zero))
        }
        for _ in 0..<60 {
            time += 8_333
            container.tick(at: time)
            container.layout()
            #expect(container.contentOffset == -(walked(container) ?? .zero))
        }
        #expect(container.contentOffset.y != -40 || container.phase == .idle)
    }
}
