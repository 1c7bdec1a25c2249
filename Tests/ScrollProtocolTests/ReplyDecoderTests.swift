import ScrollLog
import ScrollModel
@testable import ScrollProtocol
import Testing

@Suite struct ReplyDecoderTests {
    @Test func decodesTheContractsStateLine() throws {
        let line = #"{"type":"state","container":"main","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16}}"#
        #expect(try ReplyDecoder.decode(line) == .state(StateLine(container: "main", seq: 42, state: sampleState)))
    }

    /// docs/design.md §19: a paused container's state says so; the decoder keeps it, and a
    /// `paused` that is not a boolean is named.
    @Test func decodesPaused() throws {
        let line = #"{"type":"state","container":"main","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16},"paused":true}"#
        #expect(try ReplyDecoder.decode(line) == .state(StateLine(container: "main", seq: 42, state: sampleState, paused: true)))
        #expect(throws: ProtocolError.self) { try ReplyDecoder.decode(String(line.dropLast(5)) + "1}") }
    }

    @Test func decodesEveryReply() throws {
        var plain = sampleState
        plain.header = nil
        plain.visibleRows = VisibleRows.empty
        plain.phase = .decelerating
        let cases: [(String, Reply)] = [
            (#"{"type":"welcome","protocol":1,"server":"scrolld 0.1.0","containers":["main"]}"#, .welcome(protocol: 1, server: "scrolld 0.1.0", containers: ["main"])),
            (#"{"type":"ok"}"#, .ok(id: nil)),
            (#"{"type":"ok","id":"a"}"#, .ok(id: RequestID("a"))),
            (#"{"type":"pong","id":{"n" : 1}}"#, .pong(id: RequestID(json: #"{"n":1}"#))),
            (#"{"type":"error","id":7,"code":"unknown_container","message":"unknown container \"x\""}"#, .error(code: "unknown_container", message: #"unknown container "x""#, id: RequestID(7))),
            (#"{"type":"error","code":"some_future_code","message":"m"}"#, .error(code: "some_future_code", message: "m", id: nil)),
            (#"{"type":"state","id":3,"container":"s","seq":0,"t":-5,"phase":"decelerating","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"visibleRows":{"first":null,"last":null}}"#,
             .state(StateLine(container: "s", seq: 0, id: RequestID(3), state: { var s = plain; s.time = -5; return s }()))),
            (#"{"type":"devices","id":1,"devices":[{"id":3,"name":"Mouse","caps":["wheel","tilt"],"path":null},{"id":4,"name":"Pad","caps":[],"path":"/dev/input/event2","containers":["a","b"]}]}"#,
             .devices(id: RequestID(1), devices: [
                DeviceInfo(id: 3, name: "Mouse", capabilities: .wheel),
                DeviceInfo(id: 4, name: "Pad", capabilities: [], path: "/dev/input/event2", containers: ["a", "b"]),
             ], input: nil)),
            (#"{"type":"devices","devices":[],"input":{"state":"paused","reason":"session_inactive"}}"#, .devices(id: nil, devices: [], input: .paused(.sessionInactive))),
            (#"{"type":"devices","devices":[],"input":{"reason":"sleep","state":"paused"}}"#, .devices(id: nil, devices: [], input: .paused(.sleep))),
            (#"{"type":"devices","devices":[],"input":{"state":"active","reason":null}}"#, .devices(id: nil, devices: [], input: .active)),
            (#"{"type":"devices","devices":[],"input":null}"#, .devices(id: nil, devices: [], input: nil)),
            (#"{"type":"reloaded","ok":false,"file":null,"message":"bad"}"#, .reloaded(id: nil, result: ReloadResult(ok: false, file: nil, message: "bad"))),
            (#"{"type":"reloaded","id":2,"ok":true,"file":"/etc/xdg/scrolld/scrolld.toml","message":"ok"}"#, .reloaded(id: RequestID(2), result: ReloadResult(ok: true, file: "/etc/xdg/scrolld/scrolld.toml", message: "ok"))),
            (#"{"type":"hello","anything":[1,2,3]}"#, .unknown(type: "hello")),
            (#"{"extra":{"ignored":true},"type":"ok","more":null}"#, .ok(id: nil)),
        ]
        for (line, reply) in cases {
            #expect(try ReplyDecoder.decode(line) == reply, "\(line)")
        }
    }

    @Test func roundTripsEveryReply() throws {
        var odd = sampleState
        odd.geometry.contentOffset = Point(x: 0.1 + 0.2, y: -1e-300)
        odd.velocity = Point(x: 1e16, y: -123456.789)
        odd.header = nil
        odd.visibleRows = VisibleRows(first: 0, last: nil)
        let replies: [Reply] = [
            .welcome(protocol: WireProtocol.version, server: "scrolld 1.2.3", containers: ["main", "side"]),
            .ok(id: nil), .ok(id: RequestID(1)), .pong(id: RequestID(json: "[1,{\"a\":null}]")),
            .error(code: "invalid_value", message: "invalid \"y\": expected a finite number, got \"é\"", id: RequestID(5)),
            .state(StateLine(container: "main", seq: 42, state: sampleState)),
            .state(StateLine(container: "x\ty", seq: Int.max, id: RequestID("g"), state: odd)),
            .devices(id: nil, devices: [DeviceInfo(id: 1, name: "n", capabilities: [.wheel, .hold], path: "/p", containers: nil)], input: .active),
            .devices(id: RequestID(2), devices: [], input: .paused(.sessionInactive)),
            .devices(id: RequestID(3), devices: [], input: .paused(.sleep)),
            .reloaded(id: RequestID(3), result: ReloadResult(ok: true, file: "/f", message: "m")),
            .reloaded(id: nil, result: ReloadResult(ok: false, file: nil, message: "")),
            .unknown(type: "future"),
        ]
        for reply in replies {
            let line = ReplyEncoder.encode(reply)
            #expect(try ReplyDecoder.decode(line) == reply, "\(line)")
            #expect(try ReplyDecoder.decode(line).id == reply.id)
        }
    }

    @Test func refusesBrokenLines() {
        let state = #"{"type":"state","container":"main","seq":1,"t":0,"phase":"idle","contentOffset":{"x":0,"y":0},"velocity":{"x":0,"y":0},"contentSize":{"width":1,"height":1},"containerSize":{"width":1,"height":1},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0}}"#
        #expect((try? ReplyDecoder.decode(state)) != nil)
        let cases: [(String, String)] = [
            ("{", "invalid JSON: unexpected end of line at column 2 (expected a key or '}')"),
            ("[]", "expected a JSON object, got an array"),
            (#"{"id":1}"#, #"missing "type""#),
            (#"{"type":1}"#, #"invalid "type": expected a string, got 1"#),
            (#"{"type":"welcome","server":"s","containers":[]}"#, #"missing "protocol""#),
            (#"{"type":"welcome","protocol":1,"server":"s","containers":[1]}"#, #"invalid "containers": expected an array of strings, got [1]"#),
            (#"{"type":"error","code":"x"}"#, #"missing "message""#),
            (#"{"type":"reloaded","ok":"yes","message":""}"#, #"invalid "ok": expected true or false, got "yes""#),
            (#"{"type":"devices","devices":[{"id":1,"caps":[]}]}"#, #"missing "devices[].name""#),
            (#"{"type":"devices","devices":{}}"#, #"invalid "devices": expected an array of devices, got {}"#),
            (#"{"type":"devices","devices":[],"input":{"reason":null}}"#, #"missing "input.state""#),
            (#"{"type":"devices","devices":[],"input":{"state":"asleep","reason":null}}"#, #"invalid "input.state": expected "active" or "paused", got "asleep""#),
            (#"{"type":"devices","devices":[],"input":"paused"}"#, #"invalid "input": expected an object, got "paused""#),
            (state.replacingFirst(#""phase":"idle""#, with: #""phase":"scrolling""#), #"invalid "phase": expected idle, tracking, interacting, decelerating or animating, got "scrolling""#),
            (state.replacingFirst(#""t":0"#, with: #""t":0.5"#), #"invalid "t": expected an integer number of microseconds, got 0.5"#),
            (state.replacingFirst(#""seq":1"#, with: #""seq":"1""#), #"invalid "seq": expected an integer, got "1""#),
            (state.replacingFirst(#"{"x":0,"y":0},"velocity""#, with: #"{"x":0},"velocity""#), #"missing "contentOffset.y""#),
            (state.replacingFirst(#""height":1},"containerSize""#, with: #""height":null},"containerSize""#), #"invalid "contentSize.height": expected a finite number, got null"#),
            (state.replacingFirst(#""trailing":0}"#, with: #""trailing":0},"visibleRows":{"first":1}"#), #"missing "visibleRows.last""#),
            (state.replacingFirst(#""trailing":0}"#, with: #""trailing":0},"header":[]"#), #"invalid "header": expected an object, got []"#),
        ]
        for (line, message) in cases {
            guard case .failure(let error) = decodeReply(line) else {
                Issue.record("accepted \(line)")
                continue
            }
            #expect(error.message == message, "\(line)")
        }
    }
}

extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        precondition(contains(target), "\(target) not in \(self)")
        return replacing(target, with: replacement, maxReplacements: 1)
    }
}
