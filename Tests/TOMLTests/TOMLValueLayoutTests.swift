import TOML
import Testing

/// A configuration file may hold a list of ten million numbers (a list's row heights): each
/// parsed value costs its size, so dates and times, eight integers at the most, are boxed
/// and a value is no larger than a string and its tag.
@Suite("TOML values in memory")
struct TOMLValueLayoutTests {
    @Test func aValueIsAsSmallAsAStringAndItsTag() {
        #expect(MemoryLayout<TOMLValue>.stride <= MemoryLayout<String>.stride + 8, "\(MemoryLayout<TOMLValue>.stride) bytes")
    }
}
