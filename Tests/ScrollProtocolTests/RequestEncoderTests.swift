import ScrollModel
@testable import ScrollProtocol
import Testing

@Suite struct RequestEncoderTests {
    @Test func writesTheDesignsExample() {
        #expect(RequestEncoder.encode(Request(id: RequestID(1), operation: .scrollTo(container: "main", target: AxisValues(y: 100), animation: .smooth)))
            == #"{"op":"scrollTo","container":"main","y":100,"animation":"smooth","id":1}"#)
    }

    @Test func writesEveryOperation() {
        let cases: [(Operation, String)] = [
            (.subscribe(container: "main", rate: nil), #"{"op":"subscribe","container":"main"}"#),
            (.subscribe(container: "main", rate: 30.5), #"{"op":"subscribe","container":"main","rate":30.5}"#),
            (.unsubscribe(container: nil), #"{"op":"unsubscribe"}"#),
            (.unsubscribe(container: "main"), #"{"op":"unsubscribe","container":"main"}"#),
            (.get(container: "a\"b"), #"{"op":"get","container":"a\"b"}"#),
            (.scrollTo(container: "m", target: AxisValues(x: -0.5, y: 1e300), animation: .none), #"{"op":"scrollTo","container":"m","x":-0.5,"y":1e+300,"animation":"none"}"#),
            (.scrollBy(container: "m", delta: AxisValues(x: 3), animation: .snappy), #"{"op":"scrollBy","container":"m","dx":3,"animation":"snappy"}"#),
            (.scrollBy(container: "m", delta: AxisValues(y: -40), animation: .bouncy), #"{"op":"scrollBy","container":"m","dy":-40,"animation":"bouncy"}"#),
            (.scrollTo(container: "m", target: AxisValues(y: 1), animation: .spring(Spring(duration: 0.35, bounce: 0.2))), #"{"op":"scrollTo","container":"m","y":1,"animation":{"spring":{"duration":0.35,"bounce":0.2}}}"#),
            (.scrollTo(container: "m", target: AxisValues(y: 1), animation: .spring(Spring(duration: 1.25, bounce: -0.4))), #"{"op":"scrollTo","container":"m","y":1,"animation":{"spring":{"duration":1.25,"bounce":-0.4}}}"#),
            (.scrollTo(container: "m", target: AxisValues(y: 1), animation: .spring(.criticallyDamped(stiffness: 100))), #"{"op":"scrollTo","container":"m","y":1,"animation":{"spring":{"stiffness":100,"damping":20}}}"#),
            (.scrollTo(container: "m", target: AxisValues(y: 1), animation: .spring(Spring(stiffness: 100, damping: 300))), #"{"op":"scrollTo","container":"m","y":1,"animation":{"spring":{"stiffness":100,"damping":300}}}"#),
            (.pause(container: "m"), #"{"op":"pause","container":"m"}"#),
            (.resume(container: "m"), #"{"op":"resume","container":"m"}"#),
            (.devices, #"{"op":"devices"}"#),
            (.reload, #"{"op":"reload"}"#),
            (.ping, #"{"op":"ping"}"#),
        ]
        for (operation, line) in cases {
            #expect(RequestEncoder.encode(Request(operation: operation)) == line)
        }
    }

    @Test func writesConfigureWithProtocolNames() {
        let request = Request(id: RequestID("cfg"), operation: .configure(container: "main", settings: [
            ConfigureSetting(key: "containerSize", value: .object([("width", .integer(800)), ("height", .double(600))])),
            ConfigureSetting(key: "insets", value: .array([.integer(0), .double(0.5), .integer(20), .integer(0)])),
            ConfigureSetting(key: "header", value: .object([("min_height", .integer(44)), ("max_height", .integer(120)), ("stretch", .bool(false))])),
            ConfigureSetting(key: "physics", value: .object([("wheel_animation", .string("none")), ("deceleration_rate", .double(0.998))])),
            ConfigureSetting(key: "scroll_target", value: .string("paging")),
            ConfigureSetting(key: "devices", value: .array([])),
            ConfigureSetting(key: "rows", value: .null),
        ], animation: .smooth))
        #expect(RequestEncoder.encode(request) == #"{"op":"configure","container":"main","containerSize":{"width":800,"height":600.0},"contentInsets":[0,0.5,20,0],"header":{"minHeight":44,"maxHeight":120,"stretch":false},"physics":{"wheelAnimation":"none","decelerationRate":0.998},"scrollTarget":"paging","devices":[],"rows":null,"animation":"smooth","id":"cfg"}"#)
    }

    @Test func roundTripsEveryOperation() throws {
        let requests: [Request] = [
            Request(operation: .subscribe(container: "main", rate: 59.94)),
            Request(id: RequestID(json: #"{"a":[1,"b"]}"#), operation: .unsubscribe(container: nil)),
            Request(id: RequestID(-3), operation: .get(container: "caf\u{E9}\n")),
            Request(operation: .configure(container: "main", settings: [
                ConfigureSetting(key: "rows", value: .object([("count", .integer(10)), ("heights", .array([.double(1.5), .integer(-2), .double(1e300), .double(3)]))])),
                ConfigureSetting(key: "axes", value: .string("both")),
                ConfigureSetting(key: "insets", value: .object([("top", .integer(1))])),
                ConfigureSetting(key: "scroll_target", value: .string("rows")),
                ConfigureSetting(key: "physics", value: .object([("profile", .string("gtk")), ("overscroll", .bool(false)), ("x", .null)])),
            ], animation: .spring(Spring(duration: 0.8, bounce: 0.1)))),
            Request(operation: .configure(container: "c", settings: [], animation: nil)),
            Request(id: RequestID(1), operation: .scrollTo(container: "main", target: AxisValues(x: 0.1 + 0.2, y: -0.0), animation: .none)),
            Request(operation: .scrollBy(container: "main", delta: AxisValues(y: .leastNonzeroMagnitude), animation: .bouncy)),
            Request(operation: .pause(container: "p")),
            Request(operation: .resume(container: "p")),
            Request(operation: .devices),
            Request(id: RequestID("r"), operation: .reload),
            Request(operation: .ping),
        ]
        for request in requests {
            let line = RequestEncoder.encode(request)
            #expect(try RequestDecoder.decode(line) == request, "\(line)")
        }
    }

    /// A custom spring travels as the duration and bounce it was made from, short decimals and
    /// all, and comes back bit for bit.
    @Test func springsRoundTripExactly() throws {
        var rng = HostileInputTests.SplitMix64(state: 3)
        var physical = 0
        for i in 0..<2000 {
            let duration: Double, bounce: Double
            if i < 1000 {
                duration = Double(Int.random(in: 1...5000, using: &rng)) / 1000
                bounce = Double(Int.random(in: -90...90, using: &rng)) / 100
            } else {
                duration = Double.random(in: 0.001...10, using: &rng)
                bounce = Double.random(in: -0.9...0.9, using: &rng)
            }
            let animation = ScrollAnimation.spring(Spring(duration: duration, bounce: bounce))
            let line = RequestEncoder.encode(Request(operation: .scrollTo(container: "m", target: AxisValues(y: 0), animation: animation)))
            #expect(try RequestDecoder.decode(line).operation == .scrollTo(container: "m", target: AxisValues(y: 0), animation: animation), "\(line)")
            if i < 1000 {
                // The decimals a user typed are what goes on the wire.
                guard case .scrollTo(_, _, .spring(let decoded))? = try? RequestDecoder.decode(line).operation else {
                    Issue.record("no spring in \(line)")
                    continue
                }
                #expect(decoded.parameters == Spring.Parameters(duration: duration, bounce: bounce), "\(line)")
            }
            if line.contains("stiffness") { physical += 1 }
        }
        // A spring made from duration and bounce always travels as those.
        #expect(physical == 0)
        for k in [1.0, 100, 1234.5678] {
            for c in [0.2 * k.squareRoot(), 20, 2 * k.squareRoot(), 30 * k.squareRoot()] {
                let animation = ScrollAnimation.spring(Spring(stiffness: k, damping: c))
                let line = RequestEncoder.encode(Request(operation: .scrollTo(container: "m", target: AxisValues(y: 0), animation: animation)))
                #expect(try RequestDecoder.decode(line).operation == .scrollTo(container: "m", target: AxisValues(y: 0), animation: animation), "\(line)")
            }
        }
    }
}
