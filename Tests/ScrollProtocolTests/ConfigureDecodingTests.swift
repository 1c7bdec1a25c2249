import ScrollModel
@testable import ScrollProtocol
import Testing

@Suite struct ConfigureDecodingTests {
    func settings(_ line: String) -> [ConfigureSetting]? {
        guard case .configure(_, let settings, _, _)? = operation(line) else { return nil }
        return settings
    }

    @Test func keepsRequestOrderAndNormalisesKeys() throws {
        let line = #"{"op":"configure","container":"main","physics":{"wheelAnimation":"none","wheel_step":40,"minFlingVelocity":50.5},"contentInsets":{"top":10,"leading":0,"bottom":0,"trailing":0},"containerSize":{"width":800,"height":600},"header":{"minHeight":44,"maxHeight":120,"stretch":true},"scrollTarget":"paging","rows":{"count":100,"height":44,"threshold":0.5,"heights":null},"axes":"both","contentSize":[800,5000],"devices":["Logitech MX","ELAN Touchpad"],"id":9}"#
        let expected: [ConfigureSetting] = [
            ConfigureSetting(key: "physics", value: .object([("wheel_animation", .string("none")), ("wheel_step", .integer(40)), ("min_fling_velocity", .double(50.5))])),
            ConfigureSetting(key: "insets", value: .object([("top", .integer(10)), ("leading", .integer(0)), ("bottom", .integer(0)), ("trailing", .integer(0))])),
            ConfigureSetting(key: "containerSize", value: .object([("width", .integer(800)), ("height", .integer(600))])),
            ConfigureSetting(key: "header", value: .object([("min_height", .integer(44)), ("max_height", .integer(120)), ("stretch", .bool(true))])),
            ConfigureSetting(key: "scroll_target", value: .string("paging")),
            ConfigureSetting(key: "rows", value: .object([("count", .integer(100)), ("height", .integer(44)), ("threshold", .double(0.5)), ("heights", .null)])),
            ConfigureSetting(key: "axes", value: .string("both")),
            ConfigureSetting(key: "contentSize", value: .array([.integer(800), .integer(5000)])),
            ConfigureSetting(key: "devices", value: .array([.string("Logitech MX"), .string("ELAN Touchpad")])),
        ]
        #expect(settings(line) == expected)
        #expect(try decode(line).get().id == RequestID(9))
    }

    @Test func acceptsTheConfigurationSpellingsToo() {
        #expect(settings(#"{"op":"configure","container":"m","scroll_target":"rows","insets":"10,0,0,0"}"#) == [
            ConfigureSetting(key: "scroll_target", value: .string("rows")),
            ConfigureSetting(key: "insets", value: .string("10,0,0,0")),
        ])
        // Two spellings of one key are one key given twice: refused (RequestDecoderTests).
        #expect(settings(#"{"op":"configure","container":"m","insets":[1,2,3,4],"axes":"both","contentInsets":[5,6,7,8]}"#) == nil)
    }

    @Test func convertsOnlyTheMembersOfHeaderRowsAndPhysics() {
        #expect(settings(#"{"op":"configure","container":"m","header":{"minHeight":{"innerKey":1},"snap":false},"containerSize":{"widthPx":1}}"#) == [
            ConfigureSetting(key: "header", value: .object([("min_height", .object([("innerKey", .integer(1))])), ("snap", .bool(false))])),
            ConfigureSetting(key: "containerSize", value: .object([("widthPx", .integer(1))])),
        ])
        #expect(settings(#"{"op":"configure","container":"m","rows":null}"#) == [ConfigureSetting(key: "rows", value: .null)])
    }

    @Test func numbersKeepTheirIntegerOrFractionalSpelling() {
        let values = settings(#"{"op":"configure","container":"m","rows":{"a":10,"b":10.0,"c":1e1,"d":-0,"e":9223372036854775807,"f":9223372036854775808,"g":-1.5e-3}}"#)
        #expect(values == [ConfigureSetting(key: "rows", value: .object([
            ("a", .integer(10)), ("b", .double(10)), ("c", .double(10)), ("d", .integer(0)),
            ("e", .integer(.max)), ("f", .double(9_223_372_036_854_775_808)), ("g", .double(-0.0015)),
        ]))])
    }

    @Test func carriesAnOptionalAnimation() {
        #expect(operation(#"{"op":"configure","container":"m","containerSize":[400,300],"animation":"smooth"}"#)
            == .configure(container: "m", settings: [ConfigureSetting(key: "containerSize", value: .array([.integer(400), .integer(300)]))], animation: .smooth))
        #expect(operation(#"{"op":"configure","container":"m","animation":null}"#) == .configure(container: "m", settings: [], animation: nil))
        #expect(operation(#"{"op":"configure","container":"m","animation":{"spring":{"duration":1,"bounce":-0.5}}}"#)
            == .configure(container: "m", settings: [], animation: .spring(Spring(duration: 1, bounce: -0.5))))
    }

    @Test func refusesUnknownKeysNamingTheFirst() {
        let accepted = "op, id, container, containerSize, contentSize, contentInsets, axes, header, rows, physics, scrollTarget, anchor, devices, parent, overscroll, touchFrame, refresh, directionalLock, bounce, snapType, snapProximity, snapStop, indicatorMinLength, indicatorLingerMs, owned, animation"
        let cases: [(String, String)] = [
            (#"{"op":"configure","container":"m","contentsize":[1,2]}"#, "contentsize"),
            (#"{"op":"configure","container":"m","y":5}"#, "y"),
            (#"{"op":"configure","container":"m","header":{},"rate":5,"zzz":1}"#, "rate"),
            (#"{"op":"configure","container":"m","zzz":1,"rate":5}"#, "zzz"),
            (#"{"op":"configure","container":"m","\u0041":1}"#, "A"),
        ]
        for (line, key) in cases {
            let error = refusal(line)
            #expect(error?.code == .invalidValue, "\(line)")
            #expect(error?.message == "unknown key \"\(key)\" for configure (expected one of: \(accepted))", "\(line)")
        }
    }

    @Test func refusesMalformedSettings() {
        let cases: [(String, ErrorCode, String)] = [
            (#"{"op":"configure","container":"m","header":44}"#, .invalidValue, #"invalid "header": expected an object, got 44"#),
            (#"{"op":"configure","container":"m","rows":[1]}"#, .invalidValue, #"invalid "rows": expected an object, got [1]"#),
            (#"{"op":"configure","container":"m","physics":"ios"}"#, .invalidValue, #"invalid "physics": expected an object, got "ios""#),
            (#"{"op":"configure","container":"m","rows":{"heights":[1,2e400]}}"#, .invalidValue, #"invalid "rows": expected numbers within the range of a double, got 2e400"#),
            (#"{"op":"configure","container":"m","contentSize":-1e400}"#, .invalidValue, #"invalid "contentSize": expected numbers within the range of a double, got -1e400"#),
            (#"{"op":"configure","axes":"both"}"#, .badRequest, #"missing "container""#),
            (#"{"op":"configure","container":"m","axes":"both","animation":"fast"}"#, .invalidValue, #"invalid "animation": expected "none", "smooth", "snappy", "bouncy" or {"spring":{"duration":…,"bounce":…}}, got "fast""#),
        ]
        for (line, code, message) in cases {
            #expect(refusal(line)?.code == code, "\(line)")
            #expect(refusal(line)?.message == message, "\(line)")
        }
    }

    @Test func keyCaseConversions() {
        #expect(KeyCase.snake("minHeight") == "min_height")
        #expect(KeyCase.snake("wheelAnimation") == "wheel_animation")
        #expect(KeyCase.snake("min_height") == "min_height")
        #expect(KeyCase.snake("MaxHeight") == "max_height")
        #expect(KeyCase.snake("wheelV120") == "wheel_v120")
        #expect(KeyCase.snake("caf\u{E9}Au") == "caf\u{E9}_au")
        #expect(KeyCase.camel("min_height") == "minHeight")
        #expect(KeyCase.camel("deceleration_rate") == "decelerationRate")
        #expect(KeyCase.camel("count") == "count")
        for key in ["min_height", "wheel_v120", "a_1", "a__b", "_lead", "trail_", "x", "gtk_overshoot_drag"] {
            #expect(KeyCase.snake(KeyCase.camel(key)) == key, "\(key)")
        }
    }
}
