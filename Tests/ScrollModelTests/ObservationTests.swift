import ScrollModel
import Testing

/// docs/design.md §13's value derivations (every key and option) and §19's `rows.visible_in`.
@Suite("Observations: keys, options and values; visible rows under a header")
struct ObservationTests {
    /// 100 rows of 44 px under a header 60…200 (rows start at 200), H = 600, range [0, 4000].
    func list(visibleIn: RowVisibilityArea = .container, insets: EdgeInsets = .zero) -> ContainerConfiguration {
        var config = ContainerConfiguration(contentSize: nil, contentInsets: insets)
        config.header = HeaderConfiguration(minHeight: 60, maxHeight: 200)
        config.rows = RowsConfiguration(count: 100, height: 44, visibleIn: visibleIn)
        return config
    }

    /// A container of `config` resting at `y`, and its state.
    func resting(_ config: ContainerConfiguration, at y: Double) -> (ScrollContainer, ScrollState) {
        var container = ScrollContainer(name: "main", configuration: config)
        container.scroll(to: AxisValues(y: y), animation: .none, at: 0)
        return (container, container.state)
    }

    func observe(_ key: String, _ options: [(name: String, value: ScrollObservation.Option)] = []) throws(ObservationError) -> ScrollObservation {
        try ScrollObservation(of: key, options: options)
    }

    func failure(_ key: String, _ options: [(name: String, value: ScrollObservation.Option)] = []) -> ObservationError? {
        do {
            _ = try observe(key, options)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Keys and options

    @Test func everyKeyParsesWithItsOptionsAndDefaults() throws {
        #expect(try observe("phase") == .phase)
        #expect(try observe("contentOffset.x") == .contentOffset(.horizontal, step: nil))
        #expect(try observe("contentOffset.y", [("step", .integer(100))]) == .contentOffset(.vertical, step: 100))
        #expect(try observe("velocity.x", [("step", .number(0.5))]) == .velocity(.horizontal, step: 0.5))
        #expect(try observe("velocity.y") == .velocity(.vertical, step: nil))
        #expect(try observe("header.height", [("step", .integer(10))]) == .headerHeight(step: 10))
        #expect(try observe("header.progress") == .headerProgress(step: nil))
        #expect(try observe("visibleRows") == .visibleRows)
        #expect(try observe("rowVisible", [("row", .integer(7))]) == .rowVisible(row: 7, threshold: 0.5))
        #expect(try observe("rowVisible", [("row", .integer(7)), ("threshold", .integer(1))]) == .rowVisible(row: 7, threshold: 1))
        #expect(try observe("nearEnd", [("distance", .integer(300))]) == .nearEnd(distance: 300, axis: .vertical))
        #expect(try observe("nearEnd", [("distance", .number(0)), ("axis", .string("x"))]) == .nearEnd(distance: 0, axis: .horizontal))
        #expect(try observe("atEdge", [("edge", .string("bottom"))]) == .atEdge(.bottom))
        for key in ScrollObservation.keys where !["rowVisible", "nearEnd", "atEdge"].contains(key) {
            #expect(try observe(key).key == key)
        }
    }

    @Test func aBadKeyOrOptionIsNamed() {
        #expect(failure("contentOffset.z")?.option == "of")
        #expect(failure("contentOffset.z")?.description.hasPrefix("invalid \"of\": unknown key \"contentOffset.z\" (one of phase, contentOffset.x") == true)
        #expect(failure("phase", [("step", .integer(1))]) == ObservationError(option: "step", message: "phase takes no options"))
        #expect(failure("contentOffset.y", [("step", .integer(0))])?.option == "step")
        #expect(failure("contentOffset.y", [("step", .number(-1))])?.option == "step")
        #expect(failure("contentOffset.y", [("step", .string("1"))]) == ObservationError(option: "step", message: "must be between 1e-6 and 1e9, got \"1\""))
        // A step is told the range of a step, whatever is wrong with it.
        #expect(failure("contentOffset.y", [("step", .number(.nan))]) == ObservationError(option: "step", message: "must be between 1e-6 and 1e9, got nan"))
        #expect(failure("contentOffset.y", [("step", .number(1e300))]) == ObservationError(option: "step", message: "must be between 1e-6 and 1e9, got 1e+300"))
        #expect(failure("rowVisible")?.option == "row")
        #expect(failure("rowVisible", [("row", .integer(-1))])?.option == "row")
        #expect(failure("rowVisible", [("row", .number(1.5))])?.option == "row")
        #expect(failure("rowVisible", [("row", .integer(1)), ("threshold", .integer(0))])?.option == "threshold")
        #expect(failure("rowVisible", [("row", .integer(1)), ("threshold", .number(1.01))])?.option == "threshold")
        #expect(failure("rowVisible", [("row", .integer(1)), ("threshold", .other("a boolean"))]) == ObservationError(option: "threshold", message: "expected a number between -1e9 and 1e9, got a boolean"))
        #expect(failure("nearEnd")?.option == "distance")
        #expect(failure("nearEnd", [("distance", .number(-0.5))])?.option == "distance")
        #expect(failure("nearEnd", [("distance", .integer(1)), ("axis", .string("z"))])?.option == "axis")
        #expect(failure("nearEnd", [("distance", .integer(1)), ("edge", .string("top"))]) == ObservationError(option: "edge", message: "nearEnd takes axis, distance"))
        #expect(failure("atEdge")?.option == "edge")
        #expect(failure("atEdge", [("edge", .string("middle"))])?.description == "invalid \"edge\": expected one of top, leading, bottom, trailing, got \"middle\"")
        #expect(failure("visibleRows", [("row", .integer(1))])?.option == "row")
    }

    // MARK: Values

    @Test func numbersAreQuantisedDownToTheirStep() throws {
        let (container, state) = resting(ContainerConfiguration(), at: 1234.5)
        #expect(container.value(of: try observe("contentOffset.y"), in: state) == .number(1234.5))
        #expect(container.value(of: try observe("contentOffset.y", [("step", .integer(100))]), in: state) == .number(1200))
        #expect(container.value(of: try observe("contentOffset.y", [("step", .number(0.25))]), in: state) == .number(1234.5))
        #expect(container.value(of: try observe("contentOffset.x", [("step", .integer(10))]), in: state) == .number(0))
        #expect(ScrollObservation.contentOffset(.vertical, step: 100).value(
            in: ScrollState(time: 0, phase: .interacting, geometry: ScrollGeometry(contentOffset: Point(x: 0, y: -30), contentSize: Size(width: 800, height: 2000), containerSize: Size(width: 800, height: 600), contentInsets: .zero), velocity: Point(x: 0, y: -250)),
            rows: nil, header: nil, listAxis: .vertical
        ) == .number(-100))
    }

    @Test func phaseAndVelocityFollowTheState() throws {
        var h = Harness()
        let phase = try observe("phase"), velocity = try observe("velocity.y", [("step", .integer(100))])
        #expect(h.container.value(of: phase, in: h.state) == .phase(.idle))
        h.send(.finger(0, y: 10), .finger(10_000, y: 10))  // 20 px in 0.01 s
        #expect(h.container.value(of: phase, in: h.state) == .phase(.interacting))
        #expect(h.container.value(of: velocity, in: h.state) == .number(2000))
        h.send(.finger(20_000, y: 5))  // 25 px in 0.02 s: 1250
        #expect(h.container.value(of: try observe("velocity.y"), in: h.state) == .number(1250))
        #expect(h.container.value(of: velocity, in: h.state) == .number(1200))
    }

    @Test func theHeaderIsObservedOrNull() throws {
        let (container, state) = resting(list(), at: 70)
        #expect(container.value(of: try observe("header.height"), in: state) == .number(130))
        #expect(container.value(of: try observe("header.progress"), in: state) == .number(0.5))
        #expect(container.value(of: try observe("header.progress", [("step", .number(0.4))]), in: state) == .number(0.4))
        let (plain, plainState) = resting(ContainerConfiguration(), at: 70)
        #expect(plain.value(of: try observe("header.height"), in: plainState) == .null)
        #expect(plain.value(of: try observe("visibleRows"), in: plainState) == .null)
    }

    @Test func rowVisibilityNeedsAtLeastTheThreshold() throws {
        // At 500: row 6 (464–508) shows 8 of its 44 px in [500, 1100], row 7 (508–552) all.
        let (container, state) = resting(list(), at: 500)
        func visible(_ row: Int, _ threshold: Double) throws -> ObservationValue {
            container.value(of: try observe("rowVisible", [("row", .integer(row)), ("threshold", .number(threshold))]), in: state)
        }
        #expect(try visible(6, 0.5) == .bool(false))
        #expect(try visible(6, 0.18) == .bool(true))  // 7.92 px needed
        #expect(try visible(6, 0.19) == .bool(false))  // 8.36 px needed
        #expect(try visible(7, 1) == .bool(true))
        #expect(try visible(20, 0.45) == .bool(true))  // 1080–1124: 20 px inside
        #expect(try visible(20, 0.46) == .bool(false))
        #expect(try visible(200, 0.1) == .bool(false))  // no such row (yet)
        #expect(container.value(of: try observe("visibleRows"), in: state) == .visibleRows(VisibleRows(first: 7, last: 19)))
        // Without rows no row is visible.
        let (plain, plainState) = resting(ContainerConfiguration(), at: 0)
        #expect(plain.value(of: .rowVisible(row: 0, threshold: 0.5), in: plainState) == .bool(false))
    }

    @Test func visibleInUsableLeavesOutRowsUnderTheHeaderAndTheInsets() throws {
        // At 500 the header is collapsed to 60: U = [560, 1100]. Row 7 (508–552) is under it.
        let (container, state) = resting(list(visibleIn: .usable), at: 500)
        #expect(state.visibleRows == VisibleRows(first: 8, last: 19))
        #expect(container.value(of: .rowVisible(row: 7, threshold: 0.01), in: state) == .bool(false))
        #expect(container.value(of: .rowVisible(row: 8, threshold: 0.8), in: state) == .bool(true))  // 36 of 44 px
        #expect(container.value(of: .rowVisible(row: 8, threshold: 0.82), in: state) == .bool(false))
        // A bottom inset of 100 ends it at 1000: row 18 (992–1036) shows 8 px.
        let (inset, insetState) = resting(list(visibleIn: .usable, insets: EdgeInsets(bottom: 100)), at: 500)
        #expect(insetState.visibleRows == VisibleRows(first: 8, last: 17))
        #expect(inset.value(of: .rowVisible(row: 18, threshold: 0.18), in: insetState) == .bool(true))
        #expect(inset.value(of: .rowVisible(row: 18, threshold: 0.19), in: insetState) == .bool(false))
        // The default counts the whole container.
        #expect(resting(list(), at: 500).1.visibleRows == VisibleRows(first: 7, last: 19))
    }

    @Test func nearEndComparesTheDistanceToTheEnd() throws {
        let (container, state) = resting(list(), at: 3500)  // hi = 4000
        #expect(container.value(of: try observe("nearEnd", [("distance", .integer(500))]), in: state) == .bool(true))
        #expect(container.value(of: try observe("nearEnd", [("distance", .number(499.5))]), in: state) == .bool(false))
        // Along x a vertical container rests at its end (hi = lo = 0).
        #expect(container.value(of: .nearEnd(distance: 0, axis: .horizontal), in: state) == .bool(true))
    }

    @Test func atEdgeHoldsWithinHalfAPixelAndBeyond() throws {
        func at(_ y: Double, _ edge: Edge) -> ObservationValue {
            let (container, state) = resting(list(), at: y)
            return container.value(of: .atEdge(edge), in: state)
        }
        #expect(at(0, .top) == .bool(true))
        #expect(at(0.5, .top) == .bool(true))
        #expect(at(0.6, .top) == .bool(false))
        #expect(at(3999.5, .bottom) == .bool(true))
        #expect(at(4000, .bottom) == .bool(true))
        #expect(at(3999, .bottom) == .bool(false))
        #expect(at(1000, .leading) == .bool(true))
        #expect(at(1000, .trailing) == .bool(true))
        // Pulled past the top by a drag.
        var h = Harness(list())
        h.send(.finger(0, y: -20))
        #expect(h.state.contentOffset.y < 0)
        #expect(h.container.value(of: .atEdge(.top), in: h.state) == .bool(true))
        #expect(h.container.value(of: .atEdge(.bottom), in: h.state) == .bool(false))
    }

    @Test func theEngineEvaluatesInPlace() throws {
        var engine = ScrollEngine()
        let index = engine.add(ScrollContainer(name: "main", configuration: list()))
        let state = engine.update(container: index, at: 0) { $0.scroll(to: AxisValues(y: 500), animation: .none, at: 0) }
        #expect(engine.value(of: .visibleRows, container: index, in: state) == .visibleRows(VisibleRows(first: 7, last: 19)))
        #expect(engine.value(of: .headerHeight(step: nil), container: index, in: state) == .number(60))
    }
}
