import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Both command lines as a user types them: every option takes the next word as its
/// value (as getopt(3) does, so `--insets -10,0,0,0` and `--distance -5` are values, checked and
/// named, not unknown options), help text the man pages can carry, odd words that are usage
/// errors and never crashes, and replies scrollctl cannot read.
@Suite struct CommandLineConventionsTests {
    /// Every command of a tool, from ArgumentParser's own description of it.
    static func commands(of tool: URL) throws -> [[String: Any]] {
        let dump = try Scrollctl.run(["--experimental-dump-help"], executable: tool)
        try #require(dump.status == 0, "\(dump.stderr)")
        let root = try #require(try JSONSerialization.jsonObject(with: dump.stdout) as? [String: Any])
        var commands: [[String: Any]] = []
        var pending = [try #require(root["command"] as? [String: Any])]
        while let command = pending.popLast() {
            commands.append(command)
            pending += command["subcommands"] as? [[String: Any]] ?? []
        }
        return commands
    }

    static let tools = [Scrollctl.binary, Scrolld.binary]

    @Test(arguments: tools)
    func everyOptionTakesTheNextWordAsItsValue(tool: URL) throws {
        for command in try Self.commands(of: tool) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                let name = argument["valueName"] as? String ?? "?"
                #expect(argument["parsingStrategy"] as? String == "unconditional",
                        "\(tool.lastPathComponent) \(command["commandName"] ?? "") --\(name): \(argument["parsingStrategy"] ?? "")")
            }
        }
    }

    /// The man pages are generated from this text, and the generator drops what is not ASCII;
    /// a backslash before a line's end shows as one.
    @Test(arguments: tools)
    func theHelpTextIsPlainASCIIWithoutStrayBackslashes(tool: URL) throws {
        for command in try Self.commands(of: tool) {
            var texts = [command["abstract"], command["discussion"]].compactMap { $0 as? String }
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                texts += [argument["abstract"], argument["discussion"], argument["valueName"]].compactMap { $0 as? String }
            }
            for text in texts {
                let ascii = text.unicodeScalars.allSatisfy { $0.isASCII }
                #expect(ascii, "\(command["commandName"] ?? ""): \(text)")
                #expect(!text.contains("\\\n") && !text.hasSuffix("\\"), "\(command["commandName"] ?? ""): \(text)")
            }
        }
    }

    /// Negative numbers reach the checks that name them (or the daemon, here none).
    @Test func negativeNumbersAreValues() throws {
        let nowhere = ["--socket", "/nonexistent/s.sock"]
        let insets = try Scrollctl.run(["configure", "list", "--insets", "-10,0,0,0"] + nowhere)
        #expect(insets.status == 69, "\(insets.stderr)")
        #expect(insets.stderr.hasPrefix("scrollctl: scrolld is not running"), "\(insets.stderr)")
        let scrolled = try Scrollctl.run(["scroll-by", "main", "--dy", "-40"] + nowhere)
        #expect(scrolled.status == 69, "\(scrolled.stderr)")
        let rows = try Scrollctl.run(["rows", "list", "--insert", "-1"] + nowhere)
        #expect(rows.status == 64)
        #expect(rows.stderr.hasPrefix("Error: --insert expects a row index from 0 (the row count appends), got -1\n"), "\(rows.stderr)")
        let distance = try Scrollctl.run(["observe", "list", "nearEnd", "--distance", "-5"] + nowhere)
        #expect(distance.status == 64)
        #expect(distance.stderr.hasPrefix("Error: --distance: must not be negative, got -5.0\n"), "\(distance.stderr)")
        let extra = try Scrollctl.run(["observe", "list", "phase", "--distance", "5"] + nowhere)
        #expect(extra.stderr.hasPrefix("Error: --distance: phase takes no options\n"), "\(extra.stderr)")
        let rate = try Scrollctl.run(["watch", "--rate", "-1"] + nowhere)
        #expect(rate.status == 64)
        #expect(rate.stderr.hasPrefix("Error: --rate expects states per second from"), "\(rate.stderr)")
    }

    /// Words ArgumentParser alone would take wrongly: each is a usage error that says what is
    /// wrong, and none crashes (an empty word did, in the code that moves `--socket`).
    @Test func oddWordsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            ([""], "Error: Unexpected argument ''"),
            (["="], "Error: Unexpected argument '='"),
            (["help", "nosuch"], "Error: no subcommand 'nosuch' (the subcommands: watch, observe, get,"),
            (["--socket", "/tmp/s.sock"], "Error: --socket goes with a subcommand, as in: scrollctl --socket /tmp/s.sock ping"),
            (["--timeout=3"], "Error: --timeout goes with a subcommand, as in: scrollctl --timeout=3 ping"),
        ]
        for (arguments, message) in cases {
            let result = try Scrollctl.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        }
        let empty = try Scrollctl.run(["ping", "--socket", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr == "scrollctl: socket path must be 1 to 107 bytes long, got \"\" (0 bytes)\n")
        #expect(try Scrollctl.run(["help", "rows"]).output.contains("--insert"))
    }

    /// A reply scrollctl cannot read is status 76 at once, quoted, not a wait for the timeout
    /// (75); a readable reply of the wrong kind is quoted as it came.
    @Test(arguments: [
        ("this is not JSON", ["get"], "scrollctl: scrolld sent a line this client cannot read ("),
        (#"{"type":"state","id":1}"#, ["get"], "scrollctl: scrolld sent a line this client cannot read ("),
        (#"{"type":"pong","id":1}"#, ["get"], #"scrollctl: unexpected reply to get: {"type":"pong","id":1}"#),
    ])
    func aReplyThatCannotBeReadIs76(reply: String, arguments: [String], message: String) throws {
        let server = try LyingDaemon(reply: reply)
        defer { server.close() }
        // A minute's timeout: the answer must come from the reply, not from the clock.
        let result = try Scrollctl.run(arguments + ["--socket", server.path, "--timeout", "60"])
        #expect(result.status == 76, "\(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\n") && result.stderr.filter { $0 == "\n" }.count == 1, "\(result.stderr)")
    }
}
