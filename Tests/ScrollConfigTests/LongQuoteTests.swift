import ScrollConfig
import Testing

/// A configuration error quotes the key, value or name at fault; a long one is cut (after 100
/// characters, saying how long the whole is), so that one error is one short log line and one
/// short `reload` reply whatever a file or a request holds.
@Suite("Long keys, values and names in configuration errors")
struct LongQuoteTests {
    static let mebibyte = 1 << 20
    /// Generous room for a message around a few cut quotes.
    static let bound = 1_000

    @Test func aLongValueIsCutAndTheErrorStillNamesKeyFileAndLine() throws {
        let value = String(repeating: "x", count: Self.mebibyte)
        let error = try #require(failure("[physics]\nwheel_animation = \"\(value)\"\n"))
        #expect(error.description.utf8.count <= Self.bound)
        #expect(error.key == "physics.wheel_animation")
        #expect(error.line == 2)
        #expect(error.file == "scrolld.toml")
        #expect(error.description.hasPrefix("scrolld.toml:2: physics.wheel_animation: "))
        let quote = "\"" + String(repeating: "x", count: 100) + "…\" (1048576 bytes)"
        #expect(error.description.hasSuffix(quote))
    }

    @Test func aLongKeySectionDeviceOrContainerNameIsCut() throws {
        let long = String(repeating: "k", count: Self.mebibyte)
        let files = [
            "[physics]\n\(long) = 1\n",
            "[\(long)]\n",
            "[input.devices.\(long)]\nbogus = 1\n",
            "[containers.\(long)]\n",
            "[containers.main]\nparent = \"\(long)\"\n",
        ]
        for text in files {
            let error = try #require(failure(text))
            #expect(error.description.utf8.count <= Self.bound)
            #expect(error.description.contains("… (1048576 bytes)") || error.description.contains("…\" (1048576 bytes)"))
        }
    }

    /// A cut falls at a character's end: a value of multi-byte characters is cut after whole ones.
    @Test func aCutFallsAtACharactersEnd() throws {
        let value = String(repeating: "é", count: 5_000)
        let error = try #require(failure("[physics]\nwheel_animation = \"\(value)\"\n"))
        #expect(error.description.hasSuffix("\"" + String(repeating: "é", count: 100) + "…\" (10000 bytes)"))
    }

    /// A character may hold any number of combining marks (`a` and half a million U+0301 is one
    /// Swift Character): the cut counts Unicode scalars, so such a value is cut too.
    @Test func combiningMarksAreCutLikeAnyCharacter() throws {
        let value = "a" + String(repeating: "\u{301}", count: Self.mebibyte / 2)
        let error = try #require(failure("[physics]\nwheel_animation = \"\(value)\"\n"))
        #expect(error.description.utf8.count <= Self.bound, "\(error.description.utf8.count) bytes")
        #expect(error.description.hasSuffix("\"a" + String(repeating: "\u{301}", count: 99) + "…\" (1048577 bytes)"))
        let message = ConfigurationError(key: "k", message: "a" + String(repeating: "\u{301}", count: Self.mebibyte))
        #expect(message.message.utf8.count <= 5_000, "\(message.message.utf8.count) bytes")
    }

    /// A message of at most 2000 characters is kept whole however many bytes they take.
    @Test func aMessageOfFewCharactersIsNotMarkedCut() {
        let message = String(repeating: "中", count: 700)
        #expect(ConfigurationError(key: "k", message: message).message == message)
    }

    /// What a `configure` request sets goes through the same settings code.
    @Test func aLongValueSetAsARequestSetsItIsCut() {
        var configuration = Configuration.defaults
        let value = String(repeating: "y", count: Self.mebibyte)
        let error = #expect(throws: ConfigurationError.self) { try configuration.set("physics.wheel_animation", .string(value)) }
        #expect((error?.description.utf8.count ?? .max) <= Self.bound)
        let list = #expect(throws: ConfigurationError.self) {
            try configuration.set("physics.wheel_step", .array(Array(repeating: .integer(1), count: Self.mebibyte / 4)))
        }
        #expect((list?.description.utf8.count ?? .max) <= Self.bound)
    }

    /// Short values are quoted whole, as before.
    @Test func aShortValueIsQuotedWhole() throws {
        let value = String(repeating: "x", count: 100)
        let error = try #require(failure("[physics]\nwheel_animation = \"\(value)\"\n"))
        #expect(error.description.hasSuffix("\"\(value)\""))
    }

    /// A container name may hold a control character (a request's name is any JSON string);
    /// the `check-config` list and every message show it escaped, so each line is printable.
    @Test func aControlCharacterInAContainerNameIsShownEscaped() throws {
        let configuration = try Configuration.parse("[containers.\"a\\nb\\u001b[2J\"]\n", file: "scrolld.toml")
        let names = configuration.containers.map { Configuration.printable($0.name) }
        #expect(names == ["main", "\"a\\nb\\u001B[2J\""])
        #expect(Configuration.printable("plain name") == "plain name")
        let error = try #require(failure("[containers.\"a\\nb\"]\nbogus = 1\n"))
        #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 })
    }
}
