import ScrollModel
@testable import ScrollProtocol
import Testing

@Suite struct RequestDecoderTests {
    @Test func decodesEveryOperation() {
        let cases: [(String, Operation)] = [
            (#"{"op":"subscribe","container":"main"}"#, .subscribe(container: "main", rate: nil)),
            (#"{"op":"subscribe","container":"main","rate":60}"#, .subscribe(container: "main", rate: 60)),
            (#"{"op":"subscribe","container":"main","rate":1000}"#, .subscribe(container: "main", rate: 1000)),
            (#"{"op":"subscribe","container":"main","rate":0.5}"#, .subscribe(container: "main", rate: 0.5)),
            (#"{"op":"subscribe","container":"main","rate":null}"#, .subscribe(container: "main", rate: nil)),
            (#"{"op":"unsubscribe"}"#, .unsubscribe(container: nil)),
            (#"{"op":"unsubscribe","container":null}"#, .unsubscribe(container: nil)),
            (#"{"op":"unsubscribe","container":"side"}"#, .unsubscribe(container: "side")),
            (#"{"op":"get","container":"main"}"#, .get(container: "main")),
            (#"{"op":"configure","container":"main"}"#, .configure(container: "main", settings: [], animation: nil)),
            (#"{"op":"scrollTo","container":"main","y":100}"#, .scrollTo(container: "main", target: AxisValues(y: 100), animation: .smooth)),
            (#"{"op":"scrollTo","container":"main","x":-2.5,"y":null}"#, .scrollTo(container: "main", target: AxisValues(x: -2.5), animation: .smooth)),
            (#"{"op":"scrollTo","container":"main","x":1,"y":2,"animation":"none"}"#, .scrollTo(container: "main", target: AxisValues(x: 1, y: 2), animation: .none)),
            (#"{"op":"scrollBy","container":"main","dy":-40}"#, .scrollBy(container: "main", delta: AxisValues(y: -40), animation: .smooth)),
            (#"{"op":"scrollBy","container":"main","dx":3,"animation":"bouncy"}"#, .scrollBy(container: "main", delta: AxisValues(x: 3), animation: .bouncy)),
            (#"{"op":"pause","container":"main"}"#, .pause(container: "main")),
            (#"{"op":"resume","container":"main"}"#, .resume(container: "main")),
            (#"{"op":"remove","container":"main"}"#, .remove(container: "main")),
            (#"{"op":"beginRefresh","container":"main"}"#, .beginRefresh(container: "main")),
            (#"{"op":"endRefresh","container":"main"}"#, .endRefresh(container: "main")),
            (#"{"op":"flashIndicators","container":"main"}"#, .flashIndicators(container: "main")),
            (#"{"op":"devices"}"#, .devices),
            (#"{"op":"reload"}"#, .reload),
            (#"{"op":"ping"}"#, .ping),
        ]
        for (line, expected) in cases {
            #expect(operation(line) == expected, "\(line)")
            #expect(operation(line)?.name == expected.name)
        }
    }

    @Test func theDefaultAnimationOfProgrammaticScrollsIsSmooth() {
        #expect(operation(#"{"op":"scrollTo","container":"m","y":1}"#) == .scrollTo(container: "m", target: AxisValues(y: 1), animation: .smooth))
        #expect(operation(#"{"op":"scrollTo","container":"m","y":1,"animation":null}"#) == .scrollTo(container: "m", target: AxisValues(y: 1), animation: .smooth))
        #expect(operation(#"{"op":"scrollBy","container":"m","dy":1}"#) == .scrollBy(container: "m", delta: AxisValues(y: 1), animation: .smooth))
    }

    @Test func keysComeInAnyOrderWithAnyWhitespaceAndEscapes() {
        let expected = Operation.scrollTo(container: "main", target: AxisValues(y: 100), animation: .snappy)
        #expect(operation(#"{"animation":"snappy","y":100,"container":"main","op":"scrollTo"}"#) == expected)
        #expect(operation(" \t{ \"op\" : \"scrollTo\" ,\"container\":\"main\", \"y\" : 1e2 , \"animation\":\"snappy\" }\r\n") == expected)
        #expect(operation(#"{"\u006fp":"scroll\u0054o","container":"m\u0061in","y":100,"animation":"snappy"}"#) == expected)
        #expect(operation("{\"op\":\"get\",\"container\":\"caf\u{E9} \u{1F600}\"}") == .get(container: "caf\u{E9} \u{1F600}"))
    }

    /// An id is echoed as sent; one holding a number beyond a double's range is refused and
    /// not echoed, so no reply ever carries a number a strict reader refuses.
    @Test func anIdWithANumberBeyondADoubleIsRefusedAndNotEchoed() throws {
        for line in [#"{"op":"ping","id":1e400}"#, #"{"op":"ping","id":[1,{"a":-1e999}]}"#, #"{"id":1e400,"op":"ping","x":NaN}"#] {
            let error = refusal(line)
            #expect(error?.code == .badRequest, "\(line)")
            #expect(error?.id == nil, "\(line)")
            if !line.contains("NaN") {
                #expect(error?.message == #""id" holds a number beyond the range of a double; an id is echoed as sent, so its numbers must be finite"#)
            }
        }
        #expect(try decode(#"{"op":"ping","id":123456789012345678901234567890}"#).get().id?.json == "123456789012345678901234567890")
    }

    /// Every error message is one line, whatever it quotes from the request.
    @Test func aMessageQuotingAControlCharacterStaysOneLine() {
        let error = refusal("{\"op\":\"observe\",\"id\":1,\"container\":\"a\",\"of\":\"\\n\\u0007\"}")
        #expect(error?.code == .invalidValue)
        #expect(error?.message.hasPrefix(#"invalid "of": unknown key "\n\u0007""#) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("\n") == false)
    }

    /// JSON leaves a repeated name's meaning open: two readers of one line could act on two
    /// different values, so a known key given twice is refused, naming it.
    @Test func aRepeatedKeyIsRefused() {
        let twice = #"key "container" given twice (in one spelling or two); give each key once"#
        #expect(refusal(#"{"op":"get","container":"a","container":"b"}"#)?.message == twice)
        #expect(refusal(#"{"op":"get","container":"a","container":"b"}"#)?.code == .badRequest)
        #expect(refusal(#"{"op":"frob","op":"ping"}"#)?.message == #"key "op" given twice (in one spelling or two); give each key once"#)
        #expect(refusal(#"{"op":"configure","container":"m","insets":[1,2,3,4],"contentInsets":[5,6,7,8]}"#)?.message
            == #"key "contentInsets" given twice (in one spelling or two); give each key once"#)
        #expect(refusal(#"{"op":"configure","container":"m","header":{"maxHeight":9,"maxHeight":10}}"#)?.message
            == #"key "maxHeight" given twice in "header"; give each key once"#)
        // Member names of header, rows and physics become snake_case keys, so two spellings of
        // one key, or two names that differ in the case of a letter, are one key given twice.
        #expect(refusal(#"{"op":"configure","container":"m","header":{"maxHeight":9,"max_height":10}}"#)?.message
            == #"key "max_height" given twice in "header", as "maxHeight" and "max_height"; give each key once"#)
        #expect(refusal(#"{"op":"configure","container":"m","rows":{"a":10,"A":-1.5e-3}}"#)?.message
            == #"key "a" given twice in "rows", as "a" and "A"; give each key once"#)
        #expect(refusal(#"{"op":"configure","container":"m","physics":{"A":1,"a":2}}"#)?.code == .badRequest)
        #expect(refusal(#"{"op":"scrollTo","container":"m","y":1,"animation":{"spring":{"duration":1,"duration":2}}}"#)?.message
            == #"key "duration" given twice (in one spelling or two); give each key once"#)
        // Keys the op does not know are ignored, repeated or not.
        #expect(operation(#"{"op":"ping","k":1,"k":2}"#) == .ping)
    }

    @Test func otherOpsIgnoreKeysTheyDoNotUse() {
        #expect(operation(#"{"op":"ping","container":5,"future":{"x":[1,2]}}"#) == .ping)
        #expect(operation(#"{"op":"get","container":"main","rate":"fast","y":"z"}"#) == .get(container: "main"))
    }

    // MARK: id

    @Test func echoesTheIdVerbatim() throws {
        let ids: [(String, String)] = [
            ("7", "7"),
            ("-0", "-0"),
            ("1.50", "1.50"),
            ("1e3", "1e3"),
            ("123456789012345678901234567890", "123456789012345678901234567890"),
            (#""abc""#, #""abc""#),
            (#""a\"b\u00e9\n""#, #""a\"b\u00e9\n""#),
            ("\"caf\u{E9}\"", "\"caf\u{E9}\""),
            (#"{"req" : 1, "tag" : [ "x y" , true ] }"#, #"{"req":1,"tag":["x y",true]}"#),
            ("[ ]", "[]"),
            ("null", "null"),
            ("false", "false"),
        ]
        for (sent, echoed) in ids {
            let request = try decode(#"{"op":"ping","id":"# + sent + "}").get()
            #expect(request.id?.json == echoed, "\(sent)")
            #expect(encoded { ReplyEncoder.pong(id: request.id, into: &$0) } == #"{"type":"pong","id":"# + echoed + "}")
        }
        #expect(try decode(#"{"op":"ping"}"#).get().id == nil)
    }

    @Test func errorsEchoTheIdWhereverTheProblemIs() {
        // A bad value after the id, before it, and a syntax error after it.
        #expect(refusal(#"{"id":7,"op":"get","container":5}"#)?.id?.json == "7")
        #expect(refusal(#"{"op":"get","container":5,"id":"x"}"#)?.id?.json == #""x""#)
        #expect(refusal(#"{"op":"frob","id":{"n":1}}"#)?.id?.json == #"{"n":1}"#)
        #expect(refusal(#"{"id":[1, 2],"op":"ping","y":}"#)?.id?.json == "[1,2]")
        #expect(refusal(#"{"id":7,"op":"ping"} trailing"#)?.id?.json == "7")
        #expect(refusal(#"{"id":7,"#)?.id?.json == "7")
        // Not recoverable: the line breaks before or inside the id.
        #expect(refusal(#"{"op":"ping",,"id":7}"#)?.id == nil)
        #expect(refusal(#"{"op":"ping","id":[7,}"#)?.id == nil)
        #expect(refusal(#"[{"id":7}]"#)?.id == nil)
    }

    @Test func requestIDsFromClients() {
        #expect(RequestID(42).json == "42")
        #expect(RequestID("a\"b").json == #""a\"b""#)
        #expect(RequestID(json: #" { "a" : [1, "x y"] } "#)?.json == #"{"a":[1,"x y"]}"#)
        #expect(RequestID(json: "1 2") == nil)
        #expect(RequestID(json: "") == nil)
        #expect(RequestID(json: "{") == nil)
    }

    // MARK: Errors

    /// Every class of error the decoder produces, as the daemon's reply line.
    @Test func refusesWithTheRightCodeAndMessage() {
        let cases: [(String, String)] = [
            ("", #"{"type":"error","code":"bad_request","message":"invalid JSON: unexpected end of line at column 1 (expected a value)"}"#),
            ("hello", #"{"type":"error","code":"bad_request","message":"invalid JSON: expected a value at column 1"}"#),
            (#"{"op":"ping""#, #"{"type":"error","code":"bad_request","message":"invalid JSON: unexpected end of line at column 13 (expected ',' or '}')"}"#),
            (#"{"op":"ping"} {}"#, #"{"type":"error","code":"bad_request","message":"invalid JSON: unexpected characters after the value at column 15"}"#),
            (#"[1,2]"#, #"{"type":"error","code":"bad_request","message":"expected a JSON object, got an array"}"#),
            (#""ping""#, #"{"type":"error","code":"bad_request","message":"expected a JSON object, got a string"}"#),
            ("42", #"{"type":"error","code":"bad_request","message":"expected a JSON object, got a number"}"#),
            ("null", #"{"type":"error","code":"bad_request","message":"expected a JSON object, got null"}"#),
            (#"[1,"#, #"{"type":"error","code":"bad_request","message":"invalid JSON: unexpected end of line at column 4 (expected a value)"}"#),
            (#"{}"#, #"{"type":"error","code":"bad_request","message":"missing \"op\""}"#),
            (#"{"id":1,"op":null}"#, #"{"type":"error","id":1,"code":"bad_request","message":"invalid \"op\": expected a string, got null"}"#),
            (#"{"id":1,"op":["ping"]}"#, #"{"type":"error","id":1,"code":"bad_request","message":"invalid \"op\": expected a string, got [\"ping\"]"}"#),
            (#"{"id":2,"op":"Ping"}"#, #"{"type":"error","id":2,"code":"unknown_op","message":"unknown op \"Ping\" (expected one of: subscribe, unsubscribe, get, configure, scrollTo, scrollBy, pause, resume, remove, flashIndicators, focus, observe, unobserve, beginRefresh, endRefresh, devices, reload, ping)"}"#),
            (#"{"op":"get"}"#, #"{"type":"error","code":"bad_request","message":"missing \"container\""}"#),
            (#"{"op":"pause","id":3}"#, #"{"type":"error","id":3,"code":"bad_request","message":"missing \"container\""}"#),
            (#"{"op":"get","container":null}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"container\": expected a non-empty string, got null"}"#),
            (#"{"op":"get","container":7}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"container\": expected a non-empty string, got 7"}"#),
            (#"{"op":"resume","container":""}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"container\": expected a non-empty string, got \"\""}"#),
            (#"{"op":"unsubscribe","container":[]}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"container\": expected a non-empty string, got []"}"#),
            (#"{"op":"subscribe","container":"m","rate":0}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"rate\": expected a number between 0.001 and 1000, got 0"}"#),
            (#"{"op":"subscribe","container":"m","rate":1000.5}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"rate\": expected a number between 0.001 and 1000, got 1000.5"}"#),
            (#"{"op":"subscribe","container":"m","rate":-60}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"rate\": expected a number between 0.001 and 1000, got -60"}"#),
            (#"{"op":"subscribe","container":"m","rate":"60"}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"rate\": expected a number between 0.001 and 1000, got \"60\""}"#),
            (#"{"op":"subscribe","container":"m","rate":1e999}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"rate\": expected a number between 0.001 and 1000, got 1e999"}"#),
            (#"{"op":"scrollTo","container":"m"}"#, #"{"type":"error","code":"bad_request","message":"missing \"x\", \"y\", \"row\" or \"edge\""}"#),
            (#"{"op":"scrollTo","container":"m","x":null,"y":null}"#, #"{"type":"error","code":"bad_request","message":"missing \"x\", \"y\", \"row\" or \"edge\""}"#),
            (#"{"op":"scrollTo","container":"m","dy":5}"#, #"{"type":"error","code":"bad_request","message":"missing \"x\", \"y\", \"row\" or \"edge\""}"#),
            (#"{"op":"scrollBy","container":"m","y":5}"#, #"{"type":"error","code":"bad_request","message":"missing \"dx\" or \"dy\""}"#),
            (#"{"op":"scrollTo","container":"m","y":"100"}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"y\": expected a number between -1e9 and 1e9, got \"100\""}"#),
            (#"{"op":"scrollTo","container":"m","x":-1e309}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"x\": expected a number between -1e9 and 1e9, got -1e309"}"#),
            (#"{"op":"scrollBy","container":"m","dx":true}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"dx\": expected a number between -1e9 and 1e9, got true"}"#),
            (#"{"op":"scrollBy","container":"m","dy":{"v":1}}"#, #"{"type":"error","code":"invalid_value","message":"invalid \"dy\": expected a number between -1e9 and 1e9, got {\"v\":1}"}"#),
        ]
        for (line, reply) in cases {
            #expect(errorReply(line) == reply, "\(line)")
        }
    }

    @Test func checksTheOpBeforeItsArguments() {
        #expect(refusal(#"{"container":5}"#)?.code == .badRequest)
        #expect(refusal(#"{"op":"frob","container":5}"#)?.code == .unknownOp)
        #expect(refusal(#"{"op":"get","container":5,"y":"x"}"#)?.message.contains("\"container\"") == true)
        #expect(refusal(#"{"op":"scrollTo","y":"x"}"#)?.message == #"missing "container""#)
    }

    @Test func shortensWhatItQuotes() {
        let long = String(repeating: "é", count: 100)
        #expect(refusal(#"{"op":""# + long + #""}"#)?.message == #"unknown op ""# + String(repeating: "é", count: 40) + #""… (expected one of: subscribe, unsubscribe, get, configure, scrollTo, scrollBy, pause, resume, remove, flashIndicators, focus, observe, unobserve, beginRefresh, endRefresh, devices, reload, ping)"#)
        // 40 bytes of the value, cut back to a character boundary: "\"" and 19 two-byte "é".
        #expect(refusal(#"{"op":"get","container":[""# + long + #""]}"#)?.message == #"invalid "container": expected a non-empty string, got [""# + String(repeating: "é", count: 19) + "…")
    }

    @Test func theDaemonsOwnErrors() {
        let cases: [(ProtocolError, String)] = [
            (.unknownContainer("side", id: RequestID(4)), #"{"type":"error","id":4,"code":"unknown_container","message":"unknown container \"side\""}"#),
            (.tooLarge(), #"{"type":"error","code":"too_large","message":"line longer than 65536 bytes"}"#),
            (.forbidden(uid: 1001), #"{"type":"error","code":"forbidden","message":"uid 1001 may not connect"}"#),
        ]
        for (error, reply) in cases {
            #expect(encoded { ReplyEncoder.error(error, into: &$0) } == reply)
        }
        #expect(ErrorCode.allCases.map(\.rawValue) == ["bad_request", "unknown_op", "unknown_container", "invalid_value", "too_large", "forbidden"])
    }

    @Test func convenienceEntryPointsAgree() throws {
        let line = #"{"op":"get","container":"main","id":1}"#
        let fromString = try RequestDecoder.decode(line)
        let fromBytes = try RequestDecoder.decode(Array(line.utf8))
        let fromBuffer = try Array(line.utf8).withUnsafeBytes { raw in
            Result { () throws(ProtocolError) in try RequestDecoder.decode(raw) }
        }.get()
        #expect(fromString == fromBytes && fromBytes == fromBuffer)
        #expect(fromString == Request(id: RequestID(1), operation: .get(container: "main")))
    }
}
