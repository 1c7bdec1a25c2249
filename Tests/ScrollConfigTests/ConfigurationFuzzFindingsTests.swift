import ScrollConfig
import Testing

/// Files the config fuzz target (Fuzz/, docs/fuzzing.md) found mishandled.
@Suite("Configuration files the fuzzer found")
struct ConfigurationFuzzFindingsTests {
    static let expectedKey = "expected a key (letters, digits, '_', '-' or a quoted string)"
    static let expectedValue = "expected a value (string, number, true, false, date-time, array or inline table)"

    /// toml++ 3.4 (inside TOMLKit 0.6.0, scrolld's TOML reader until it had its own) failed an
    /// assertion on a table header whose key starts with a character no key can start with,
    /// which aborted the whole process (`scrolld run` on `reload`, `check-config`): such a
    /// header is a syntax error on its line, named after no table.
    @Test func aHeaderWhoseKeyCannotStartIsASyntaxErrorNotAnAbort() {
        #expect(failure("[daemon]\nframe_rate = 60\n[=]\n") == ConfigurationError(
            key: "syntax",
            message: "syntax error at column 2: \(Self.expectedKey), found '='",
            line: 3,
            file: "scrolld.toml"
        ))
        #expect(failure("[[[a]]]\n")?.message == "syntax error at column 3: \(Self.expectedKey), found '['")
        #expect(failure("[[ [a]]]\n")?.message == "syntax error at column 4: \(Self.expectedKey), found '['")
        #expect(failure("[\u{1}]\n")?.message == "syntax error at column 2: \(Self.expectedKey), found U+0001")
        #expect(failure("[\u{A0}a]\n")?.message == "syntax error at column 2: \(Self.expectedKey), found U+00A0")
        #expect(failure("\u{FEFF}  [é]\n")?.message == "syntax error at column 4: \(Self.expectedKey), found 'é'")
    }

    /// The same assertion story in toml++'s array parser: an item that starts with `}` or a
    /// non-ASCII line break reached its value parser, whose precondition failed (`ignore = [}`
    /// is a plausible typo).
    @Test func anArrayItemThatCannotStartIsASyntaxErrorNotAnAbort() {
        #expect(failure("[daemon]\nignore = [}]\n") == ConfigurationError(
            key: "daemon.ignore",
            message: "syntax error at column 11: \(Self.expectedValue), found '}'",
            line: 2,
            file: "scrolld.toml"
        ))
        let multiLine = failure("[containers.main.rows]\nheights = [40,\n  }\n]\n")
        #expect(multiLine?.line == 3)
        #expect(multiLine?.key == "containers.main.rows.heights")
        #expect(multiLine?.message == "syntax error at column 3: \(Self.expectedValue), found '}'")
        #expect(failure("a = [[1], [ # c\n}]]\n")?.message == "syntax error at column 1: \(Self.expectedValue), found '}'")
        #expect(failure("a = { b = [}] }\n")?.message == "syntax error at column 12: \(Self.expectedValue), found '}'")
        #expect(failure("a = [1, \u{2028}]\n")?.message == "syntax error at column 9: \(Self.expectedValue), found U+2028")
        #expect(failure("a = [\u{85}]\n")?.message == "syntax error at column 6: \(Self.expectedValue), found U+0085")
    }

    /// And in its date-time parser: a date, `T`, then a time that does not start with a digit.
    @Test func aDateTimeWhoseTimeCannotStartIsASyntaxErrorNotAnAbort() {
        #expect(failure("[daemon]\nseat = 1979-05-27T\u{10}7:32:00Z\n") == ConfigurationError(
            key: "daemon.seat",
            message: "syntax error at column 19: expected 2 digits for the hour, found U+0010",
            line: 2,
            file: "scrolld.toml"
        ))
        #expect(failure("a = [1979-05-27tx7:32:00Z]\n")?.message == "syntax error at column 17: expected 2 digits for the hour, found 'x'")
        // With a digit there, the time is read and scrolld refuses a date for the key.
        #expect(failure("[daemon]\nseat = 1979-05-27T07:32:00Z\n")?.message == "no scrolld key takes a date or time, got an offset date-time 1979-05-27T07:32:00Z")
    }

    /// Neighbouring header mistakes, and the order of mistakes: the first one written is the
    /// one reported.
    @Test func otherHeaderMistakesAndEarlierMistakesAreReportedInOrder() {
        let blank = failure("[physics]\nfriction = 4\n[ ]\n")
        #expect(blank?.line == 3)
        #expect(blank?.message == "syntax error at column 3: \(Self.expectedKey), found ']'")
        let spaced = failure("[ [a]]\n")
        #expect(spaced?.line == 1)
        #expect(spaced?.message == "syntax error at column 3: \(Self.expectedKey), found '['")
        let earlier = failure("[physics]\nfriction = \n[=]\n")
        #expect(earlier?.line == 2)
        #expect(earlier?.key == "physics.friction")
        #expect(earlier?.message == "syntax error at column 12: \(Self.expectedValue), found end of line")
        #expect(failure("[daemon]\nseat = 5x\nignore = [}]\n")?.line == 2)
        // After an item a comma or the end of the array is due.
        #expect(failure("a = [1 }]\n")?.message == "syntax error at column 8: expected ',' or ']' after an array item, found '}'")
    }

    /// Brackets and braces inside strings and comments are neither headers nor array items.
    @Test func bracketsInsideValuesAreNotHeaders() throws {
        let configuration = try Configuration.parse(
            """
            [daemon]
            seat = \"\"\"
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
        #expect(configuration.daemon.seat == "[=]\n")
        #expect(configuration.daemon.ignore == ["a", "[[[", "}", "}", "}"])
    }

    /// A multi-line string where a key belongs was taken for the empty key `""` and named in
    /// the error, which printed as `scrolld.toml:2: daemon.: syntax error …`.
    @Test func aSyntaxErrorIsNotNamedAfterAnEmptyKey() {
        let message = "syntax error at column 1: a key cannot be a multi-line string"
        #expect(failure("[daemon]\n\"\"\"a\"\"\" = 1\n")?.description == "scrolld.toml:2: daemon: \(message)")
        #expect(failure("\"\"\"a\"\"\" = 1\n")?.description == "scrolld.toml:1: syntax: \(message)")
    }

    /// The empty key is a legal TOML key; an error about it shows it quoted.
    @Test func anErrorAboutTheEmptyKeyShowsItQuoted() {
        #expect(failure("\"\" = 1\n")?.description == #"scrolld.toml:1: "": unknown section (daemon, web, physics, input, containers.NAME)"#)
    }

    /// A byte order mark (which TOML readers skip) made the old key locator take line 1 for text, so
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
