import ScrollLog
import ScrollModel
@testable import ScrollProtocol
import Testing

@Suite struct ReplyEncoderTests {
    @Test func welcome() {
        #expect(encoded { ReplyEncoder.welcome(server: "scrolld 0.1.0", containers: ["main", "side \"b\""], into: &$0) }
            == #"{"type":"welcome","protocol":1,"server":"scrolld 0.1.0","containers":["main","side \"b\""],"features":[]}"#)
        #expect(encoded { ReplyEncoder.welcome(server: "scrolld 2", containers: [], features: ["observe", "routing"], into: &$0) }
            == #"{"type":"welcome","protocol":1,"server":"scrolld 2","containers":[],"features":["observe","routing"]}"#)
    }

    @Test func okAndPong() {
        #expect(encoded { ReplyEncoder.ok(id: nil, into: &$0) } == #"{"type":"ok"}"#)
        #expect(encoded { ReplyEncoder.ok(id: RequestID(7), into: &$0) } == #"{"type":"ok","id":7}"#)
        #expect(encoded { ReplyEncoder.pong(id: nil, into: &$0) } == #"{"type":"pong"}"#)
        #expect(encoded { ReplyEncoder.pong(id: RequestID("p"), into: &$0) } == #"{"type":"pong","id":"p"}"#)
    }

    /// The daemon's observation and a decoded one (ScrollClient, tools) encode to the same line.
    @Test func observations() {
        let line = #"{"type":"observation","id":4,"container":"main","of":"phase","seq":9,"t":1500,"old":"idle","new":"tracking"}"#
        #expect(encoded { ReplyEncoder.observation(id: RequestID(4), container: "main", of: "phase", seq: 9, time: 1500, old: .phase(.idle), new: .phase(.tracking), into: &$0) } == line)
        let message = ObservationMessage(id: RequestID(4), container: "main", of: "phase", seq: 9, time: 1500, old: .string("idle"), new: .string("tracking"))
        #expect(ReplyEncoder.encode(.observation(message)) == line)
        let first = #"{"type":"observation","id":"o","container":"m","of":"contentOffset.y","seq":1,"t":0,"old":null,"new":12.5}"#
        #expect(encoded { ReplyEncoder.observation(id: RequestID("o"), container: "m", of: "contentOffset.y", seq: 1, time: 0, old: nil, new: .number(12.5), into: &$0) } == first)
        let firstMessage = ObservationMessage(id: RequestID("o"), container: "m", of: "contentOffset.y", seq: 1, time: 0, old: nil, new: .double(12.5))
        #expect(ReplyEncoder.encode(.observation(firstMessage)) == first)
    }

    @Test func errors() {
        #expect(encoded { ReplyEncoder.error(ProtocolError(.unknownOp, #"unknown op "x""#), into: &$0) }
            == #"{"type":"error","code":"unknown_op","message":"unknown op \"x\""}"#)
        #expect(encoded { ReplyEncoder.error(ProtocolError(.invalidValue, "tab\there\n", id: RequestID(json: #"{"a":1}"#)), into: &$0) }
            == #"{"type":"error","id":{"a":1},"code":"invalid_value","message":"tab\\there\\n"}"#)
    }

    @Test func statesWithAndWithoutId() {
        let broadcast = #"{"type":"state","container":"main","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16}}"#
        #expect(encoded { ReplyEncoder.state(sampleState, container: "main", seq: 42, into: &$0) } == broadcast)
        #expect(broadcast == StateEncoder().encode(sampleState, container: "main", seq: 42))
        #expect(encoded { ReplyEncoder.state(sampleState, container: "main", seq: 42, id: RequestID(7), into: &$0) }
            == #"{"type":"state","id":7,"container":"main","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16}}"#)
        #expect(encoded { ReplyEncoder.state(sampleState, container: "main", seq: 42, id: RequestID(json: #"{"q":[1]}"#), into: &$0) }
            .hasPrefix(#"{"type":"state","id":{"q":[1]},"container":"main","seq":42,"#))
    }

    @Test func appendsToTheCallersBuffer() {
        var buffer = Array("x\n".utf8)
        ReplyEncoder.ok(id: RequestID(1), into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        ReplyEncoder.state(sampleState, container: "main", seq: 1, id: RequestID(2), into: &buffer)
        let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == #"{"type":"ok","id":1}"#)
        #expect(lines[2].hasPrefix(#"{"type":"state","id":2,"container":"main","seq":1,"t":1815000,"#))
    }

    @Test func devices() {
        let devices = [
            DeviceInfo(id: 3, name: "Logitech \"MX\"", capabilities: [.finger, .wheel], path: "/dev/input/event5", containers: ["main"]),
            DeviceInfo(id: 4, name: "Touchpad", capabilities: [.hold, .continuous, .finger, .wheel]),
            DeviceInfo(id: 5, name: "Knob", capabilities: [], path: nil, containers: []),
        ]
        #expect(encoded { ReplyEncoder.devices(devices, id: RequestID(9), into: &$0) }
            == #"{"type":"devices","id":9,"devices":[{"id":3,"name":"Logitech \"MX\"","caps":["wheel","finger"],"path":"/dev/input/event5","containers":["main"]},{"id":4,"name":"Touchpad","caps":["wheel","finger","continuous","hold"]},{"id":5,"name":"Knob","caps":[],"containers":[]}],"input":{"state":"active","reason":null}}"#)
        #expect(encoded { ReplyEncoder.devices([], id: nil, into: &$0) } == #"{"type":"devices","devices":[],"input":{"state":"active","reason":null}}"#)
    }

    /// docs/design.md §15: the `input` object, for each state a daemon can be in.
    @Test func devicesInputState() {
        #expect(encoded { ReplyEncoder.devices([], input: .paused(.sessionInactive), id: RequestID(1), into: &$0) }
            == #"{"type":"devices","id":1,"devices":[],"input":{"state":"paused","reason":"session_inactive"}}"#)
        #expect(encoded { ReplyEncoder.devices([], input: .paused(.sleep), id: nil, into: &$0) }
            == #"{"type":"devices","devices":[],"input":{"state":"paused","reason":"sleep"}}"#)
        #expect(encoded { ReplyEncoder.devices([], input: .active, id: nil, into: &$0) }
            == #"{"type":"devices","devices":[],"input":{"state":"active","reason":null}}"#)
    }

    @Test func reloaded() {
        #expect(encoded { ReplyEncoder.reloaded(ReloadResult(ok: true, file: "/home/u/.config/scrolld/scrolld.toml", message: "reloaded"), id: RequestID(3), into: &$0) }
            == #"{"type":"reloaded","id":3,"ok":true,"file":"/home/u/.config/scrolld/scrolld.toml","message":"reloaded"}"#)
        #expect(encoded { ReplyEncoder.reloaded(ReloadResult(ok: false, file: nil, message: "containers.main.axes: expected vertical, horizontal or both"), id: nil, into: &$0) }
            == #"{"type":"reloaded","ok":false,"file":null,"message":"containers.main.axes: expected vertical, horizontal or both"}"#)
    }

    @Test func unknownRepliesWriteTheirType() {
        #expect(ReplyEncoder.encode(.unknown(type: "future")) == #"{"type":"future"}"#)
    }
}
