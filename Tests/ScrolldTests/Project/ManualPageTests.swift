import Foundation
import Testing

/// man/scrolld.1 and man/scrollctl.1 are generated from the argument parsers by
/// swift-argument-parser's generate-manual and committed; these tests keep them in step.
@Suite("Manual pages")
struct ManualPageTests {
    /// `make check-man` runs generate-manual (the tool behind the package plugin) on the binaries
    /// under test and diffs its pages with the committed ones.
    @Test func committedPagesAreWhatTheArgumentParsersGenerate() throws {
        let check = try Make.run(["check-man", "SKIP_BUILD=1", "MAN_BIN_DIR=\(Make.binDirectory)"])
        #expect(check.status == 0, "\(check.output)")
    }

    /// The parts of a page a reader looks for, which come from the commands' discussions.
    @Test(arguments: [
        ("scrolld", ["run", "replay", "record", "import-debug-events", "devices", "check-config"]),
        ("scrollctl", ["watch", "get", "scroll-to", "scroll-by", "configure", "pause", "resume", "devices", "reload", "ping"]),
    ])
    func pagesDocumentEverySubcommandFilesEnvironmentExitStatusExamplesAndSeeAlso(tool: String, subcommands: [String]) throws {
        let page = try String(contentsOf: Scrolld.packageRoot.appendingPathComponent("man/\(tool).1"), encoding: .utf8)
        let lines = page.split(separator: "\n").map(String.init)
        #expect(lines.contains(".Dt \(tool.uppercased()) 1"))
        #expect(lines.contains(".Nm \(tool)"))
        for command in subcommands { #expect(lines.contains(".It Em \(command)"), "\(command)") }
        for heading in ["FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"] {
            #expect(lines.contains(heading), "\(heading)")
        }
        #expect(page.contains("scrolld.sock"))
        #expect(page.contains(tool == "scrolld" ? "scrollctl(1)" : "scrolld(1)"))
    }
}
