import Testing

/// The overload test's notion of a subscriber that fell behind its socket (docs/security.md,
/// "Healthy is checked"): only a reader that came back late to a socket's worth of bytes.
@Suite struct StreamCheckTests {
    @Test func aLateReadOfASocketsWorthFellBehindAPromptOneOrASmallOneDidNot() {
        let full = LineClient.neverFullBelow
        let late = StreamCheck.promptRead + 1
        var prompt = StreamCheck(fd: -1, rate: nil)
        prompt.read(lower: 0, arrival: StreamCheck.promptRead, bytes: full)  // a burst, read at once
        #expect(!prompt.fellBehind)
        var small = StreamCheck(fd: -1, rate: nil)
        small.read(lower: 0, arrival: late, bytes: full - 1)  // late, but less than a full socket
        #expect(!small.fellBehind)
        var behind = StreamCheck(fd: -1, rate: nil)
        behind.read(lower: 0, arrival: late, bytes: full)
        #expect(behind.fellBehind)
        #expect(behind.mostQueued == full)
    }
}
