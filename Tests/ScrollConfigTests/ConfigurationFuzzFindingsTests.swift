import ScrollConfig
import Testing

/// Parses `text` expecting failure and returns the error.
private func failure(_ text: String, file: String = "scrolld.toml") -> ConfigurationError? {
    do {
        _ = try Configuration.parse(text, file: file)
        return nil
    } catch {
        return error
    }
}

/// Files the config fuzz target (Fuzz/, docs/fuzzing.md) found mishandled.
@Suite("Configuration files the fuzzer found")
struct ConfigurationFuzzFindingsTests {
    static let expectedKey = "expected bare key starting character or string delimiter"

    /// toml++ 3.4, inside TOMLKit 0.6.0, fails an assertion on a table header whose key starts
    /// with a character no key can start with, which aborted the whole process (`scrolld run`
    /// on `reload`, `check-config`): such a header is a syntax error on its line.
    @Test func aHeaderWhoseKeyCannotStartIsASyntaxErrorNotAnAbort() {
        #expect(failure("[daemon]\nframe_rate = 60\n[=]\n") == ConfigurationError(
            key: "syntax",
            message: "syntax error at column 2 while parsing table header: \(Self.expectedKey), saw '='",
            line: 3,
            file: "scrolld.toml"
        ))
        #expect(failure("[[[a]]]\n")?.message == "syntax error at column 3 while parsing table header: \(Self.expectedKey), saw '['")
        #expect(failure("[[ [a]]]\n")?.message == "syntax error at column 4 while parsing table header: \(Self.expectedKey), saw '['")
        #expect(failure("[\u{1}]\n")?.message == "syntax error at column 2 while parsing table header: \(Self.expectedKey), saw U+0001")
        #expect(failure("[\u{A0}a]\n")?.message == "syntax error at column 2 while parsing table header: \(Self.expectedKey), saw U+00A0")
        #expect(failure("\u{FEFF}  [é]\n")?.message == "syntax error at column 4 while parsing table header: \(Self.expectedKey), saw 'é'")
    }

    /// The same assertion story in toml++'s array parser: an item that starts with `}` or a
    /// non-ASCII line break reaches its value parser, whose precondition fails (`ignore = [}`
    /// is a plausible typo).
    @Test func anArrayItemThatCannotStartIsASyntaxErrorNotAnAbort() {
        let expected = "expected value or closing ']'"
        #expect(failure("[daemon]\nignore = [}]\n") == ConfigurationError(
            key: "daemon.ignore",
            message: "syntax error at column 11 while parsing array: \(expected), saw '}'",
            line: 2,
            file: "scrolld.toml"
        ))
        let multiLine = failure("[containers.main.rows]\nheights = [40,\n  }\n]\n")
        #expect(multiLine?.line == 3)
        #expect(multiLine?.key == "containers.main.rows.heights")
        #expect(multiLine?.message == "syntax error at column 3 while parsing array: \(expected), saw '}'")
        #expect(failure("a = [[1], [ # c\n}]]\n")?.message == "syntax error at column 1 while parsing array: \(expected), saw '}'")
        #expect(failure("a = { b = [}] }\n")?.message == "syntax error at column 12 while parsing array: \(expected), saw '}'")
        #expect(failure("a = [1, \u{2028}]\n")?.message == "syntax error at column 9 while parsing array: \(expected), saw U+2028")
        #expect(failure("a = [\u{85}]\n")?.message == "syntax error at column 6 while parsing array: \(expected), saw U+0085")
    }

    /// And in its date-time parser: a date, `T`, then a time that does not start with a digit.
    @Test func aDateTimeWhoseTimeCannotStartIsASyntaxErrorNotAnAbort() {
        #expect(failure("[daemon]\nseat = 1979-05-27T\u{10}7:32:00Z\n") == ConfigurationError(
            key: "daemon.seat",
            message: "syntax error at column 19 while parsing time: expected 2-digit hour, saw U+0010",
            line: 2,
            file: "scrolld.toml"
        ))
        #expect(failure("a = [1979-05-27tx7:32:00Z]\n")?.message == "syntax error at column 17 while parsing time: expected 2-digit hour, saw 'x'")
        // With a digit there, toml++ reads the time and scrolld refuses a date for the key.
        #expect(failure("[daemon]\nseat = 1979-05-27T07:32:00Z\n")?.message.hasPrefix("no scrolld key takes a date or time") == true)
    }

    /// The guard must not change what toml++ reports itself, nor the order of mistakes.
    @Test func otherHeaderMistakesAndEarlierMistakesAreStillToml() {
        let blank = failure("[physics]\nfriction = 4\n[ ]\n")
        #expect(blank?.line == 3)
        #expect(blank?.message.contains("tables with blank bare keys are explicitly prohibited") == true)
        let spaced = failure("[ [a]]\n")
        #expect(spaced?.line == 1)
        #expect(spaced?.message.contains("brackets must be contiguous") == true)
        // The first mistake written is the one reported, even when a bad header follows.
        let earlier = failure("[physics]\nfriction = \n[=]\n")
        #expect(earlier?.line == 2)
        #expect(earlier?.key == "physics.friction")
        #expect(failure("[daemon]\nseat = 5x\nignore = [}]\n")?.line == 2)
        // After an item toml++ wants a comma and says so.
        #expect(failure("a = [1 }]\n")?.message.contains("expected comma or closing ']'") == true)
    }

    /// Brackets and braces inside strings and comments are neither headers nor array items.
    @Test func bracketsInsideValuesAreNotHeaders() throws {
        let configuration = try Configuration.parse(
            """
            [daemon]
            socket = \"\"\"
            [=]
            \"\"\"
            ignore = [
              "a", # [=] }
              '[[[',
              "}", '}', \"\"\"
            }\"\"\",
            ]
            # [=]
            """,
            file: "scrolld.toml"
        )
        #expect(configuration.daemon.socket == "[=]\n")
        #expect(configuration.daemon.ignore == ["a", "[[[", "}", "}", "}"])
    }

    /// A multi-line string where a key belongs was taken for the empty key `""` and named in
    /// the error, which printed as `scrolld.toml:2: daemon.: syntax error …`.
    @Test func aSyntaxErrorIsNotNamedAfterAnEmptyKey() {
        let message = "syntax error at column 1 while parsing key: multi-line strings are prohibited in keys"
        #expect(failure("[daemon]\n\"\"\"a\"\"\" = 1\n")?.description == "scrolld.toml:2: daemon: \(message)")
        #expect(failure("\"\"\"a\"\"\" = 1\n")?.description == "scrolld.toml:1: syntax: \(message)")
    }

    /// The empty key is a legal TOML key; an error about it shows it quoted.
    @Test func anErrorAboutTheEmptyKeyShowsItQuoted() {
        #expect(failure("\"\" = 1\n")?.description == #"scrolld.toml:1: "": unknown section (daemon, physics, input, containers.NAME)"#)
    }

    /// A byte order mark (which toml++ skips) made the key locator take line 1 for text, so
    /// keys under a header on line 1 lost their lines.
    @Test func aByteOrderMarkKeepsTheLinesOfTheFirstSection() {
        #expect(failure("\u{FEFF}[daemon]\nframe_rate = 0\n") == ConfigurationError(
            key: "daemon.frame_rate",
            message: "must be between 1 and 1000 Hz, got 0",
            line: 2,
            file: "scrolld.toml"
        ))
    }
}
