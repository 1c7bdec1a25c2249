import ScrollModel
import Testing

/// docs/design.md §12 "Scroll anchoring" and "Default anchor", with docs/physics.md's worked
/// examples.
@Suite("Scroll anchoring: rows keep their place, a bottom-anchored list follows its end")
struct ScrollAnchoringTests {
    /// `count` rows of 44 px, the content their ideal size, in a container `height` px tall.
    func list(_ count: Int, height: Double = 600, anchor: DefaultScrollAnchor = .top) -> ContainerConfiguration {
        var config = ContainerConfiguration(containerSize: Size(width: 800, height: height), contentSize: nil)
        config.rows = RowsConfiguration(count: count, height: 44)
        config.anchor = anchor
        return config
    }

    func edited(_ config: ContainerConfiguration, _ edit: RowEdit) throws -> ContainerConfiguration {
        var config = config
        config.rows = try config.rows!.applying(edit)
        return config
    }

    @Test func rowsInsertedAboveMoveTheOffsetByTheirHeightAndNothingOnScreen() throws {
        let config = list(100)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 1000), at: 0)
        // [1000, 1600]: row 22 (968–1012) shows 12 of 44, row 35 (1540–1584) is the last whole.
        #expect(h.state.visibleRows == VisibleRows(first: 23, last: 35))
        let edit = RowEdit.insert(at: 0, count: 20, height: 44)
        let changed = h.configure(try edited(config, edit), edit: edit, at: 1_000_000)
        #expect(changed)
        #expect(h.state.contentOffset.y == 1880)
        #expect(h.state.geometry.contentSize.height == 5280)
        #expect(h.state.visibleRows == VisibleRows(first: 43, last: 55))
        #expect(h.state.phase == .idle)
    }

    @Test func aFlingGoesOnUnbrokenAndEndsExactlyTheInsertedHeightFurther() throws {
        let config = list(200)
        var plain = Harness(config)
        var anchored = Harness(config)
        for event in LivingContentTests.flingAt2000 {
            plain.send(event)
            anchored.send(event)
        }
        let edit = RowEdit.insert(at: 0, count: 20, height: 44)
        anchored.configure(try edited(config, edit), edit: edit, at: 350_000)
        plain.settle()
        anchored.settle()
        let before = plain.published.filter { $0.state.time > 350_000 }.map(\.state)
        let after = anchored.published.filter { $0.state.time > 350_000 }.map(\.state)
        #expect(before.count == after.count)
        for (a, b) in zip(before, after) {
            #expect(b.time == a.time)
            #expect(b.contentOffset.y == a.contentOffset.y + 880)
            #expect(b.phase == a.phase)
        }
        let end = Deceleration.ios(from: 0, velocity: 2000, rate: 0.998).restingPoint
        #expect(before.last!.contentOffset.y == end)
        #expect(after.last!.contentOffset.y == end + 880)
    }

    @Test func aRemovedAnchorRowHandsOverToTheRowThatFollows() throws {
        let config = list(100)
        for (edit, offset) in [
            (RowEdit.remove(at: 22, count: 2), 912.0),  // the anchor (22) and 23 go: row 24 (1056) keeps its place
            (.remove(at: 50, count: 10), 1000),  // below: nothing moves
            (.remove(at: 0, count: 10), 560),  // above: 440 less
            (.insertHeights(at: 22, heights: [10, 20]), 1030),  // before the anchor itself: it moves down by 30
        ] {
            var h = Harness(config)
            try h.scroll(to: ScrollPosition(y: 1000), at: 0)
            h.configure(try edited(config, edit), edit: edit, at: 1_000_000)
            #expect(h.state.contentOffset.y == offset, "\(edit)")
        }
    }

    @Test func heightsChangedBeforeTheAnchorRowMoveTheOffsetByTheDifference() {
        var config = ContainerConfiguration(contentSize: nil)
        config.rows = RowsConfiguration(heights: .explicit(Array(repeating: 100, count: 30)))
        var h = Harness(config)
        _ = try? h.scroll(to: ScrollPosition(y: 1000), at: 0)  // row 10 (1000–1100) is the anchor
        var taller = config
        taller.rows = RowsConfiguration(heights: .explicit([150] + Array(repeating: 100, count: 29)))
        h.configure(taller, at: 1_000_000)
        #expect(h.state.contentOffset.y == 1050)
    }

    @Test func theAnchorIsTheFirstRowBelowTheStartOfTheUsableArea() throws {
        // Header 60…200: rows start at 200 and U(1000) starts at 1060, inside row 19 (1036–1080).
        var config = list(100)
        config.header = HeaderConfiguration(minHeight: 60, maxHeight: 200)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 1000), at: 0)
        // Inserting before row 19 moves it; inserting after it (at 20) does not.
        let after = RowEdit.insert(at: 20, count: 1, height: 100)
        h.configure(try edited(config, after), edit: after, at: 1_000_000)
        #expect(h.state.contentOffset.y == 1000)
        let before = RowEdit.insert(at: 19, count: 1, height: 100)
        h.configure(try edited(try edited(config, after), before), edit: before, at: 2_000_000)
        #expect(h.state.contentOffset.y == 1100)
        // A taller header moves every row, the anchor with them.
        var taller = try edited(try edited(config, after), before)
        taller.header = HeaderConfiguration(minHeight: 60, maxHeight: 300)
        h.configure(taller, at: 3_000_000)
        #expect(h.state.contentOffset.y == 1200)
    }

    @Test func withoutRowsNothingIsAnchoredAndTheOffsetIsClamped() throws {
        var h = Harness(ContainerConfiguration(contentSize: Size(width: 800, height: 2000)))
        try h.scroll(to: ScrollPosition(y: 1000), at: 0)
        h.configure(ContainerConfiguration(contentSize: Size(width: 800, height: 9000)), at: 1_000_000)
        #expect(h.state.contentOffset.y == 1000)
        h.configure(ContainerConfiguration(contentSize: Size(width: 800, height: 1200)), at: 2_000_000)
        #expect(h.state.contentOffset.y == 600)
    }

    @Test func aSpringAndItsTargetMoveWithTheAnchor() throws {
        let config = list(200)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 2000), animation: .smooth, at: 0)
        let edit = RowEdit.insert(at: 0, count: 20, height: 44)
        h.configure(try edited(config, edit), edit: edit, at: 100_000)
        h.settle()
        #expect(h.state.contentOffset.y == 2880)
    }

    @Test func aDragMovesWithTheAnchorAndReleasesWithTheSameVelocity() throws {
        let config = list(200)
        let events: [ScrollEvent] = (0..<10).map { .finger(Timestamp($0) * 10_000, y: 30) } + [.stop(100_000)]
        var plain = Harness(config)
        var anchored = Harness(config)
        let edit = RowEdit.insert(at: 0, count: 2, height: 50)
        for event in events {
            plain.send(event)
            anchored.send(event)
            if event.time == 40_000 { anchored.configure(try edited(config, edit), edit: edit, at: 45_000) }
        }
        #expect(anchored.state.velocity.y == plain.state.velocity.y)
        plain.settle()
        anchored.settle()
        // Released 100 px further down with the same velocity: y∞ = y0 − v/k from there.
        expectClose(anchored.published.last!.state.contentOffset.y, plain.published.last!.state.contentOffset.y + 100, tolerance: 1e-9)
    }

    @Test func anAnimatedInsertAboveKeepsTheRowsStillWhileTheContentGrows() throws {
        let config = list(100)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 3800), at: 0)  // at the bottom: nothing below to grow into yet
        let edit = RowEdit.insert(at: 0, count: 20, height: 44)
        h.configure(try edited(config, edit), edit: edit, animation: .smooth, at: 1_000_000)
        h.settle()
        let states = h.published.filter { $0.state.time >= 1_000_000 }.map(\.state)
        #expect(states.count > 10)
        #expect(states.allSatisfy { $0.contentOffset.y == 4680 && $0.visibleRows == VisibleRows(first: 106, last: 119) })
        #expect(states.last!.geometry.contentSize.height == 5280)
    }

    @Test func aHorizontalListIsAnchoredAlongX() throws {
        var config = ContainerConfiguration(contentSize: nil, axes: .horizontal)
        config.rows = RowsConfiguration(count: 100, height: 120)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(x: 1000), at: 0)
        let edit = RowEdit.insert(at: 0, count: 3, height: nil)
        h.configure(try edited(config, edit), edit: edit, at: 1_000_000)
        #expect(h.state.contentOffset == Point(x: 1360, y: 0))
    }

    // MARK: Default anchor

    @Test func aBottomAnchoredListStartsAtItsEndAndFollowsAppendedRows() throws {
        var config = list(10, height: 300, anchor: .bottom)
        var h = Harness(config)
        #expect(h.state.contentOffset.y == 140)
        for step in 1...5 {
            let edit = RowEdit.insert(at: config.rows!.heights.count, count: 1, height: nil)
            config = try edited(config, edit)
            let count = h.published.count
            h.configure(config, edit: edit, at: Timestamp(step) * 1_000_000)
            // One state per append, already at the new end.
            #expect(h.published.count == count + 1)
            #expect(h.published.last!.state.contentOffset.y == 140 + 44 * Double(step))
            #expect(!h.container.isMoving)
        }
        // Scrolled up, it stays where the user is.
        try h.scroll(to: ScrollPosition(y: 50), at: 10_000_000)
        let edit = RowEdit.insert(at: config.rows!.heights.count, count: 3, height: nil)
        h.configure(try edited(config, edit), edit: edit, at: 11_000_000)
        #expect(h.state.contentOffset.y == 50)
    }

    @Test func aBottomAnchoredListShorterThanItsContainerFollowsOnceItFills() throws {
        var config = list(2, height: 300, anchor: .bottom)
        var h = Harness(config)
        #expect(h.state.contentOffset.y == 0)
        for step in 1...8 {
            let edit = RowEdit.insert(at: config.rows!.heights.count, count: 1, height: nil)
            config = try edited(config, edit)
            h.configure(config, edit: edit, at: Timestamp(step) * 1_000_000)
            #expect(h.state.contentOffset.y == max(0, 44 * Double(2 + step) - 300))
        }
    }

    @Test func aBottomAnchorTakesPrecedenceOverRowAnchoring() throws {
        // A shorter container moves hi down the content: row anchoring alone keeps the rows
        // where they are (a top-anchored list stays at 3800), the bottom anchor follows hi.
        for (anchor, offset) in [(DefaultScrollAnchor.bottom, 3900.0), (.top, 3800)] {
            let config = list(100, anchor: anchor)
            var h = Harness(config)
            try h.scroll(to: ScrollPosition(y: 3800), at: 0)
            var shorter = config
            shorter.containerSize = Size(width: 800, height: 500)
            h.configure(shorter, at: 1_000_000)
            #expect(h.state.contentOffset.y == offset)
        }
    }

    @Test func aBottomAnchoredListFollowsItsAnimatedEnd() throws {
        var config = list(10, height: 300, anchor: .bottom)
        var h = Harness(config)
        let edit = RowEdit.insert(at: 10, count: 5, height: nil)
        config = try edited(config, edit)
        h.configure(config, edit: edit, animation: .smooth, at: 1_000_000)
        h.settle()
        let states = h.published.filter { $0.state.time >= 1_000_000 }.map(\.state)
        #expect(states.count > 10)
        #expect(states.allSatisfy { $0.contentOffset.y == $0.geometry.restingRange(.vertical).upperBound })
        #expect(states.last!.contentOffset.y == 360)
        #expect(Set(states.map(\.contentOffset.y)).count > 5)
    }
}
