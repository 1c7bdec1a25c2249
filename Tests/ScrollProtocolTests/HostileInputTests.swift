import ScrollJSON
import ScrollLog
import ScrollModel
@testable import ScrollProtocol
import Testing

/// What the fuzzer will throw at the decoder: every outcome must be a request or a clean error
/// whose reply is one valid JSON line, never a trap or a hang.
@Suite struct HostileInputTests {
    /// A deterministic generator, so that a failure reproduces.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let validLines = [
        #"{"op":"scrollTo","container":"main","y":100,"animation":{"spring":{"duration":0.4,"bounce":0.2}},"id":1}"#,
        #"{"op":"configure","container":"main","header":{"minHeight":44,"maxHeight":120},"rows":{"count":100,"height":44},"contentInsets":[0,0,20,0],"id":"c"}"#,
        #"{"op":"subscribe","container":"main","rate":60,"id":{"a":[1,null,true]}}"#,
        #"{"op":"ping"}"#,
    ]

    /// Decodes `bytes` and checks the outcome is well-formed either way.
    func checkOutcome(_ bytes: [UInt8]) {
        switch decodeBytes(bytes) {
        case .success(let request):
            // What decodes must survive re-encoding.
            let line = RequestEncoder.encode(request)
            #expect((try? RequestDecoder.decode(line)) == request, "\(line)")
        case .failure(let error):
            #expect([ErrorCode.badRequest, .unknownOp, .invalidValue].contains(error.code))
            let reply = encoded { ReplyEncoder.error(error, into: &$0) }
            #expect(!reply.utf8.contains(UInt8(ascii: "\n")))
            #expect((try? ReplyDecoder.decode(reply)) == .error(code: error.code.rawValue, message: error.message, id: error.id), "\(reply)")
        }
    }

    @Test func randomBytes() {
        var rng = SplitMix64(state: 1)
        let alphabet = Array(#"{}[]:,"\ 0123456789.eE+-truefalsnop"#.utf8) + [0, 0x0A, 0x80, 0xC3, 0xA9, 0xFF, 0xED, 0xF0]
        for _ in 0..<3000 {
            let count = Int.random(in: 0...80, using: &rng)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            checkOutcome(bytes)
        }
    }

    @Test func everyPrefixAndEveryByteFlipOfValidLines() {
        var rng = SplitMix64(state: 2)
        for line in Self.validLines {
            let bytes = Array(line.utf8)
            for end in 0...bytes.count { checkOutcome(Array(bytes[..<end])) }
            for i in bytes.indices {
                var mutated = bytes
                mutated[i] = UInt8.random(in: 0...255, using: &rng)
                checkOutcome(mutated)
                mutated.remove(at: i)
                checkOutcome(mutated)
            }
        }
    }

    @Test func invalidUTF8AndControlBytes() {
        let cases: [[UInt8]] = [
            Array(#"{"op":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8),
            Array(#"{"op":""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
            Array(#"{"op":"ping"}"#.utf8) + [0],
            [0xEF, 0xBB, 0xBF] + Array(#"{"op":"ping"}"#.utf8),
            Array(#"{"op":"ping","x":"a"#.utf8) + [0x0A] + Array(#"b"}"#.utf8),
        ]
        for bytes in cases {
            guard case .failure(let error) = decodeBytes(bytes) else {
                Issue.record("accepted \(bytes)")
                continue
            }
            #expect(error.code == .badRequest)
            #expect(error.message.hasPrefix("invalid JSON: "))
        }
    }

    @Test func nestingIsLimitedByTheScanner() {
        let limit = JSONScanner.maximumDepth
        // The request object itself is one level.
        let deepest = #"{"op":"ping","x":"# + String(repeating: "[", count: limit - 1) + String(repeating: "]", count: limit - 1) + "}"
        #expect(operation(deepest) == .ping)
        let tooDeep = #"{"id":1,"op":"ping","x":"# + String(repeating: "[", count: limit) + String(repeating: "]", count: limit) + "}"
        #expect(refusal(tooDeep) == ProtocolError(.badRequest, "invalid JSON: nesting deeper than 64 levels at column \(24 + limit)", id: RequestID(1)))
        // A million brackets stop at the limit, not after reading them all into a stack.
        let brackets = String(repeating: "[", count: 1_000_000)
        #expect(refusal(brackets)?.message == "invalid JSON: nesting deeper than 64 levels at column 65")
        let settingsDeep = #"{"op":"configure","container":"m","rows":{"a":"# + String(repeating: #"{"b":"#, count: 200)
        #expect(refusal(settingsDeep)?.message.hasPrefix("invalid JSON: nesting deeper than 64 levels") == true)
    }

    /// A name quoted in an error is cut after 40 Unicode scalars, not Characters: an `a` with
    /// ten thousand combining accents is one Character, and was quoted whole (a 20 kB reply).
    @Test func aNameOfCombiningMarksIsCutInTheMessage() throws {
        let marks = String(repeating: "\u{301}", count: 10_000)
        for line in [#"{"op":"a"# + marks + #"","id":1}"#, #"{"op":"configure","container":"main","k"# + marks + #"":1,"id":1}"#] {
            let error = try #require(refusal(line))
            #expect(error.message.unicodeScalars.count < 400, "\(error.message.unicodeScalars.count) scalars")
            // the first 40 scalars: the letter and 39 accents, then the cut's mark
            #expect(error.message.unicodeScalars.filter { $0 == "\u{301}" }.count == 39, "\(error.message.prefix(100))")
            #expect(error.message.contains("\"…"), "\(error.message.prefix(100))")
        }
    }

    // MARK: A megabyte line, decoded in one linear pass

    static let megabyte = 1 << 20

    @Test func aMegabyteOfRowHeights() throws {
        var line = #"{"op":"configure","container":"main","rows":{"heights":["#
        var count = 0
        while line.utf8.count < Self.megabyte {
            line += count == 0 ? "44.5" : ",44.5"
            count += 1
        }
        line += #"]},"id":5}"#
        let request = try decode(line).get()
        guard case .configure(_, let settings, _, _) = request.operation,
              case .object(let rows)? = settings.first?.value, case .array(let heights) = rows.first?.1
        else {
            Issue.record("not the expected configure")
            return
        }
        #expect(heights.count == count)
        #expect(heights.allSatisfy { $0 == .double(44.5) })
        #expect(request.id == RequestID(5))
    }

    @Test func aMegabyteContainerNameAndId() throws {
        let name = String(repeating: "n\u{E9}", count: Self.megabyte / 3)
        let id = "[" + Array(repeating: #" "\u00e9" "#, count: Self.megabyte / 10).joined(separator: ",") + "]"
        let request = try decode(#"{"op":"get","container":""# + name + #"","id":"# + id + "}").get()
        #expect(request.operation == .get(container: name))
        #expect(request.id?.json == "[" + Array(repeating: #""\u00e9""#, count: Self.megabyte / 10).joined(separator: ",") + "]")
    }

    @Test func aMegabyteOfKeysWhitespaceAndNumbers() {
        let keys = #"{"op":"ping""# + String(repeating: #","k":1"#, count: Self.megabyte / 6) + "}"
        #expect(operation(keys) == .ping)
        let repeated = "{" + String(repeating: #""container":"a","#, count: Self.megabyte / 16) + #""op":"get"}"#
        #expect(refusal(repeated)?.message == #"key "container" given twice (in one spelling or two); give each key once"#)
        let spaces = String(repeating: " ", count: Self.megabyte) + #"{"op":"ping"}"# + String(repeating: "\t", count: Self.megabyte)
        #expect(operation(spaces) == .ping)
        let digits = #"{"op":"scrollTo","container":"m","y":1"# + String(repeating: "0", count: Self.megabyte) + "}"
        #expect(refusal(digits)?.message == #"invalid "y": expected a number between -1e9 and 1e9, got 1000000000000000000000000000000000000000…"#)
        let fraction = #"{"op":"scrollTo","container":"m","y":0."# + String(repeating: "0", count: Self.megabyte) + "1}"
        #expect(operation(fraction) == .scrollTo(container: "m", target: AxisValues(y: 0), animation: .smooth))
        let unknown = #"{"op":"configure","container":"m","# + String(repeating: #""junk":[1],"#, count: Self.megabyte / 11) + #""z":0}"#
        #expect(refusal(unknown)?.message.hasPrefix(#"unknown key "junk" for configure"#) == true)
    }
}
