import Observation
import ScrollClient
import Synchronization
import Testing

/// An app's `@Observable` model in a file that imports ScrollClient: the macro expands to
/// `Observation.Observable` and `Observation.ObservationRegistrar`, which a public type of the
/// library named `Observation` would shadow, and the app would not compile.
@Observable final class FeedModel {
    var offset = 0.0
    var rows: VisibleRows? = nil
}

@Suite("ScrollClient beside Swift's Observation")
struct ScrollClientObservableTests {
    @Test func anObservableModelBuildsAndTracksBesideTheLibrary() {
        let model = FeedModel()
        let changed = Mutex(false)
        withObservationTracking { _ = model.rows } onChange: { changed.withLock { $0 = true } }
        model.rows = .empty
        #expect(changed.withLock { $0 })
        // `.empty` (no row visible) is not nil (a container without rows).
        #expect(model.rows != nil)
    }
}
