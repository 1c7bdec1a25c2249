import ScrollModel
@testable import ScrollProtocol
import Testing

/// docs/design.md §20: `"wait": true` on `subscribe` and `observe`, and the `waiting` reply.
@Suite struct WaitDecodingTests {
    @Test func subscribeAndObserveTakeWait() {
        #expect(operation(#"{"op":"subscribe","container":"log","wait":true}"#) == .subscribe(container: "log", rate: nil, wait: true))
        #expect(operation(#"{"op":"subscribe","container":"log","wait":false,"rate":5}"#) == .subscribe(container: "log", rate: 5, wait: false))
        #expect(operation(#"{"op":"subscribe","container":"log","wait":null}"#) == .subscribe(container: "log", rate: nil, wait: false))
        #expect(operation(#"{"op":"observe","container":"log","of":"phase","id":1,"wait":true}"#) == .observe(container: "log", observation: .phase, id: RequestID(1), wait: true))
    }

    @Test func waitMustBeABooleanAndIsNoConfigureKey() {
        #expect(refusal(#"{"op":"subscribe","container":"log","wait":1}"#)?.code == .invalidValue)
        #expect(refusal(#"{"op":"subscribe","container":"log","wait":"yes"}"#)?.message.contains("\"wait\"") == true)
        #expect(refusal(#"{"op":"configure","container":"log","wait":true}"#) != nil)
    }

    /// An observe option's value out of range or of the wrong kind is refused by its name.
    @Test func anObserveOptionsErrorNamesTheOption() {
        let row = refusal(#"{"op":"observe","container":"rr","of":"rowVisible","row":1e19,"id":"o"}"#)
        #expect(row?.message.hasPrefix(#"invalid "row": "#) == true, "\(row?.message ?? "")")
        let step = refusal(#"{"op":"observe","container":"rr","of":"contentOffset.y","step":1e999,"id":"o"}"#)
        #expect(step?.message.hasPrefix(#"invalid "step": "#) == true, "\(step?.message ?? "")")
    }

    @Test func waitRoundTrips() throws {
        for operation in [Operation.subscribe(container: "log", rate: 2, wait: true), .observe(container: "log", observation: .phase, id: RequestID("o"), wait: true)] {
            let line = encoded { RequestEncoder.encode(Request(operation: operation), into: &$0) }
            #expect(line.contains(#""wait":true"#))
            #expect(ScrollProtocolTests.operation(line) == operation)
        }
        #expect(!encoded { RequestEncoder.encode(Request(operation: .subscribe(container: "log", rate: nil)), into: &$0) }.contains("wait"))
    }

    @Test func theWaitingReply() {
        #expect(encoded { ReplyEncoder.waiting(container: "log", id: RequestID(3), into: &$0) } == #"{"type":"waiting","container":"log","id":3}"#)
    }
}
