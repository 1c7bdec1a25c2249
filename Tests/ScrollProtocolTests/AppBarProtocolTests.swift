import ScrollModel
import ScrollProtocol
import Testing

/// docs/design.md §21 on the wire: the requests `beginRefresh` and `endRefresh`, the `refresh`
/// configure key, the state's `stickyRow` and `refreshing`, and the observation keys.
@Suite("App bars on the wire")
struct AppBarProtocolTests {
    @Test func refreshRequestsDecodeAndEncodeBack() throws {
        for (line, operation) in [
            (#"{"op":"beginRefresh","container":"feed"}"#, Operation.beginRefresh(container: "feed")),
            (#"{"op":"endRefresh","container":"feed"}"#, Operation.endRefresh(container: "feed")),
        ] {
            let request = try RequestDecoder.decode(line)
            #expect(request.operation == operation)
            #expect(RequestEncoder.encode(Request(operation: operation)) == line)
        }
        #expect(throws: ProtocolError.self) { try RequestDecoder.decode(#"{"op":"endRefresh"}"#) }
        do {
            _ = try RequestDecoder.decode(#"{"op":"startRefresh","container":"feed"}"#)
            Issue.record("an unknown op decoded")
        } catch {
            #expect(error.message.contains("beginRefresh, endRefresh"))
        }
    }

    @Test func configureCarriesRefreshAndTheNewMembers() throws {
        let line = #"{"op":"configure","container":"feed","header":{"maxHeight":100,"mode":"enterAlways"},"rows":{"count":9,"height":40,"sticky":[0,4]},"refresh":{"threshold":80,"height":60}}"#
        guard case let .configure(_, settings, _, _) = try RequestDecoder.decode(line).operation else {
            Issue.record("not a configure")
            return
        }
        #expect(settings.map(\.key) == ["header", "rows", "refresh"])
        #expect(settings[0].value == .object([("max_height", .integer(100)), ("mode", .string("enterAlways"))]))
        #expect(settings[2].value == .object([("threshold", .integer(80)), ("height", .integer(60))]))
    }

    @Test func stateCarriesStickyRowAndRefreshingAndReadsBack() throws {
        let geometry = ScrollGeometry(
            contentOffset: Point(x: 0, y: 230), contentSize: Size(width: 800, height: 1500),
            containerSize: Size(width: 800, height: 600), contentInsets: .zero
        )
        let state = ScrollState(
            time: 5, phase: .idle, geometry: geometry, velocity: .zero,
            visibleRows: VisibleRows(first: 4, last: 16), stickyRow: StickyRow(row: 0, top: 200), refreshing: true
        )
        let line = StateEncoder().encode(state, container: "feed", seq: 3)
        #expect(line.hasSuffix(#""visibleRows":{"first":4,"last":16},"stickyRow":{"row":0,"top":200},"refreshing":true}"#))
        guard case .state(let read) = try ReplyDecoder.decode(line) else {
            Issue.record("not a state")
            return
        }
        #expect(read.state == state)
        // Without a pinned row and without refresh the keys are absent; refreshing false is said.
        var plain = state
        plain.stickyRow = nil
        plain.refreshing = nil
        #expect(!StateEncoder().encode(plain, container: "feed", seq: 3).contains("sticky"))
        #expect(!StateEncoder().encode(plain, container: "feed", seq: 3).contains("refreshing"))
        plain.refreshing = false
        #expect(StateEncoder().encode(plain, container: "feed", seq: 3).hasSuffix(#","refreshing":false}"#))
    }

    @Test func observationKeysTakeNoOptions() throws {
        #expect(try ScrollObservation(of: "stickyRow", options: []) == .stickyRow)
        #expect(try ScrollObservation(of: "refreshing", options: []) == .refreshing)
        do {
            _ = try ScrollObservation(of: "stickyRow", options: [("row", .integer(3))])
            Issue.record("an option was taken")
        } catch {
            #expect(error.description == #"invalid "row": stickyRow takes no options"#)
        }
        let request = try RequestDecoder.decode(#"{"op":"observe","container":"feed","of":"refreshing","id":"r"}"#)
        guard case .observe(_, let observation, _, _) = request.operation else {
            Issue.record("not an observe")
            return
        }
        #expect(observation == .refreshing)
    }
}
