import ScrollModel
@testable import ScrollProtocol
import Testing

@Suite struct AnimationDecodingTests {
    func animation(_ json: String) -> Result<ScrollAnimation, ProtocolError> {
        decode(#"{"op":"scrollTo","container":"m","y":1,"animation":"# + json + "}").map { request in
            guard case .scrollTo(_, _, let animation) = request.operation else { fatalError("not scrollTo") }
            return animation
        }
    }

    @Test func presetsAndSprings() throws {
        let cases: [(String, ScrollAnimation)] = [
            (#""none""#, .none),
            (#""smooth""#, .smooth),
            (#""snappy""#, .snappy),
            (#""bouncy""#, .bouncy),
            (#"{"spring":{"duration":0.5,"bounce":0}}"#, .smooth),
            (#"{"spring":{"duration":0.5,"bounce":0.15}}"#, .snappy),
            (#"{"spring":{"duration":0.35,"bounce":0.2}}"#, .spring(Spring(duration: 0.35, bounce: 0.2))),
            (#"{"spring":{"bounce":-0.9,"duration":2}}"#, .spring(Spring(duration: 2, bounce: -0.9))),
            // SwiftUI's defaults for what is left out.
            (#"{"spring":{}}"#, .spring(Spring(duration: 0.5, bounce: 0))),
            (#"{"spring":{"duration":1}}"#, .spring(Spring(duration: 1, bounce: 0))),
            (#"{"spring":{"bounce":0.3}}"#, .bouncy),
            (#"{"spring":{"duration":1,"bounce":null}}"#, .spring(Spring(duration: 1, bounce: 0))),
            (#"{"spring":{"stiffness":100,"damping":20}}"#, .spring(Spring(stiffness: 100, damping: 20))),
        ]
        for (json, expected) in cases {
            #expect(try animation(json).get() == expected, "\(json)")
        }
    }

    @Test func refusesInvalidSprings() {
        let expected = #""none", "smooth", "snappy", "bouncy" or {"spring":{"duration":…,"bounce":…}}"#
        let cases: [(String, ErrorCode, String)] = [
            (#""Smooth""#, .invalidValue, #"invalid "animation": expected \#(expected), got "Smooth""#),
            ("0.5", .invalidValue, #"invalid "animation": expected \#(expected), got 0.5"#),
            ("[]", .invalidValue, #"invalid "animation": expected \#(expected), got []"#),
            ("{}", .invalidValue, #"invalid "animation": expected \#(expected), got {}"#),
            (#"{"spring":null}"#, .invalidValue, #"invalid "animation": expected \#(expected), got {"spring":null}"#),
            (#"{"spring":{},"curve":"ease"}"#, .invalidValue, #"unknown key "animation.curve" (expected one of: spring)"#),
            (#"{"spring":0.5}"#, .invalidValue, #"invalid "animation.spring": expected an object like {"duration":0.5,"bounce":0}, got 0.5"#),
            (#"{"spring":{"duration":0}}"#, .invalidValue, #"invalid "animation.spring.duration": expected a number between 0.001 and 10, got 0"#),
            (#"{"spring":{"duration":-0.5}}"#, .invalidValue, #"invalid "animation.spring.duration": expected a number between 0.001 and 10, got -0.5"#),
            (#"{"spring":{"duration":1e400}}"#, .invalidValue, #"invalid "animation.spring.duration": expected a number between 0.001 and 10, got 1e400"#),
            (#"{"spring":{"duration":1e-200}}"#, .invalidValue, #"invalid "animation.spring.duration": expected a number between 0.001 and 10, got 1e-200"#),
            (#"{"spring":{"duration":"0.5"}}"#, .invalidValue, #"invalid "animation.spring.duration": expected a number between 0.001 and 10, got "0.5""#),
            (#"{"spring":{"bounce":1}}"#, .invalidValue, #"invalid "animation.spring.bounce": expected a number between -0.9 and 0.9, got 1"#),
            (#"{"spring":{"bounce":-1}}"#, .invalidValue, #"invalid "animation.spring.bounce": expected a number between -0.9 and 0.9, got -1"#),
            (#"{"spring":{"bounce":7}}"#, .invalidValue, #"invalid "animation.spring.bounce": expected a number between -0.9 and 0.9, got 7"#),
            (#"{"spring":{"bounce":true}}"#, .invalidValue, #"invalid "animation.spring.bounce": expected a number between -0.9 and 0.9, got true"#),
            (#"{"spring":{"duration":1,"response":1}}"#, .invalidValue, #"unknown key "animation.spring.response" (expected one of: duration, bounce, stiffness, damping)"#),
            (#"{"spring":{"duration":1,"stiffness":100,"damping":20}}"#, .invalidValue, #"invalid "animation.spring": expected either duration and bounce or stiffness and damping, got {"duration":1,"stiffness":100,"damping":…"#),
            (#"{"spring":{"stiffness":100}}"#, .badRequest, #"missing "animation.spring.damping""#),
            (#"{"spring":{"damping":10}}"#, .badRequest, #"missing "animation.spring.stiffness""#),
            (#"{"spring":{"stiffness":0,"damping":10}}"#, .invalidValue, #"invalid "animation.spring.stiffness": expected a number between 0.1 and 1e7, got 0"#),
            (#"{"spring":{"stiffness":100,"damping":-1}}"#, .invalidValue, #"invalid "animation.spring.damping": expected a number between 0.05·2√stiffness and 20·2√stiffness (a damping ratio the spring settles with), got -1"#),
        ]
        for (json, code, message) in cases {
            guard case .failure(let error) = animation(json) else {
                Issue.record("accepted \(json)")
                continue
            }
            #expect(error.code == code, "\(json)")
            #expect(error.message == message, "\(json)")
        }
    }
}
