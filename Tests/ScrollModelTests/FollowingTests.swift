@testable import ScrollModel
import Testing

/// docs/design.md §20 "Following through a bounce": a bottom-anchored container follows its end
/// through a motion that will come to rest there, not only at rest.
@Suite("Following through a bounce: a bottom-anchored log keeps following while it moves")
struct FollowingTests {
    /// The log of docs/design.md §20: `count` rows of 24 px in a 420 × 720 container.
    func log(_ count: Int, anchor: DefaultScrollAnchor = .bottom) -> ContainerConfiguration {
        var config = ContainerConfiguration(containerSize: Size(width: 420, height: 720), contentSize: nil)
        config.rows = RowsConfiguration(count: count, height: 24)
        config.anchor = anchor
        return config
    }

    func appended(_ config: ContainerConfiguration) throws -> (ContainerConfiguration, RowEdit) {
        var config = config
        let edit = RowEdit.insert(at: config.rows!.heights.count, count: 1, height: nil)
        config.rows = try config.rows!.applying(edit)
        return (config, edit)
    }

    /// A fling released at `from` + 1 s with exactly 2000 px/s (200 px back in its last 100 ms).
    func fling(_ h: inout Harness, from start: Double) throws {
        try h.scroll(to: ScrollPosition(y: start + 200), at: 1_000_000)
        h.send(.finger(1_000_000, y: -200), .finger(1_150_000, y: 100), .finger(1_250_000, y: 100), .stop(1_250_000))
        #expect(h.state.contentOffset.y == start + 200)
        #expect(h.state.velocity.y == 2000)
    }

    /// The first 10 ms frame at which the fling is beyond `hi` and heading back.
    func bouncingBack(_ h: inout Harness, beyond hi: Double) -> Timestamp {
        var t: Timestamp = 1_250_000
        while t < 5_000_000 {
            t += 10_000
            let state = h.sample(at: t)
            if state.contentOffset.y > hi + 20, state.velocity.y < 0 { return t }
        }
        Issue.record("never bounced back")
        return t
    }

    @Test func aLogFlungPastItsEndFollowsARowArrivingWhileItBouncesBack() throws {
        var config = log(60)
        var h = Harness(config)
        #expect(h.state.contentOffset.y == 720)
        #expect(h.state.geometry.contentSize.height == 1440)
        try fling(&h, from: 500)
        let t = bouncingBack(&h, beyond: 720)
        let before = h.sample(at: t)
        #expect(before.phase == .decelerating)
        #expect(before.contentOffset.y > 740 && before.velocity.y < 0)
        // One row arrives while it bounces back (hi 744): nothing jumps, it comes to rest at 744.
        let edit: RowEdit
        (config, edit) = try appended(config)
        h.configure(config, edit: edit, at: t)
        #expect(h.state.contentOffset.y == before.contentOffset.y)
        #expect(h.state.velocity.y == before.velocity.y)
        #expect(h.state.phase == .decelerating)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 744)
        #expect(h.published.last!.state.geometry.contentSize.height == 1464)
        #expect(h.published.last!.state.phase == .idle)
        #expect(h.published.filter { $0.state.time >= t && $0.state.phase == .idle }.count == 1)
        // One more row at rest (hi 768): it still follows.
        let next: RowEdit
        (config, next) = try appended(config)
        h.configure(config, edit: next, at: 10_000_000)
        #expect(h.state.contentOffset.y == 768)
        #expect(!h.container.isMoving)
    }

    @Test func aTopAnchoredLogBouncesBackToTheOldEndAndStaysThere() throws {
        var config = log(60, anchor: .top)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 720), at: 0)
        try fling(&h, from: 500)
        let t = bouncingBack(&h, beyond: 720)
        let edit: RowEdit
        (config, edit) = try appended(config)
        h.configure(config, edit: edit, at: t)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 720)
    }

    @Test func aSpringToTheBottomEdgeFollowsRowsArrivingMidway() throws {
        var config = log(60)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 0), at: 0)
        try h.scroll(to: ScrollPosition(edge: .bottom), animation: .smooth, at: 1_000_000)
        let before = h.sample(at: 1_100_000)
        #expect(before.phase == .animating)
        #expect(before.contentOffset.y > 0 && before.contentOffset.y < 700)
        for step in 0..<3 {
            let edit: RowEdit
            (config, edit) = try appended(config)
            let t = 1_100_000 + Timestamp(step) * 20_000
            let shown = h.sample(at: t)
            h.configure(config, edit: edit, at: t)
            // Row anchoring would move it by nothing here too; what changes is where it ends.
            #expect(h.state.contentOffset.y == shown.contentOffset.y)
            #expect(h.state.velocity.y == shown.velocity.y)
        }
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 792)
        #expect(h.published.last!.state.phase == .idle)
    }

    @Test func aFlingClampedAtTheEndFollowsRowsArrivingBeforeItGetsThere() throws {
        var config = log(60)
        var h = Harness(config)
        try fling(&h, from: 0)
        // Released at 200 with 2000 px/s: its end point (1199) lies beyond hi (720), so it meets
        // hi and bounces. Two rows arrive on the way, then 40 at once (hi 1728, beyond its end
        // point): it still comes to rest at the end.
        let first = h.sample(at: 1_300_000)
        #expect(first.contentOffset.y < 720 && first.velocity.y > 0)
        for t: Timestamp in [1_300_000, 1_320_000] {
            let edit: RowEdit
            (config, edit) = try appended(config)
            h.configure(config, edit: edit, at: t)
        }
        var many = config
        let bulk = RowEdit.insert(at: 62, count: 40, height: nil)
        many.rows = try many.rows!.applying(bulk)
        let shown = h.sample(at: 1_340_000)
        h.configure(many, edit: bulk, at: 1_340_000)
        #expect(h.state.contentOffset.y == shown.contentOffset.y)
        #expect(h.state.velocity.y == shown.velocity.y)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 102 * 24 - 720)
        #expect(h.published.last!.state.phase == .idle)
    }

    @Test func aFlingComingToRestAboveTheEndDoesNotFollow() throws {
        var config = log(200)
        var h = Harness(config)
        try fling(&h, from: 1000)
        // Its end point (2199) lies above hi (4080): rows anchor it, the end does not.
        let edit: RowEdit
        (config, edit) = try appended(config)
        h.configure(config, edit: edit, at: 1_300_000)
        h.settle()
        expectClose(h.published.last!.state.contentOffset.y, 2199.0, tolerance: 0.5)
    }
}
