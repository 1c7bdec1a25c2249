import Foundation
import Testing

/// scrollctl's commands for docs/design.md §12, §13 and §19 against a real daemon: rows scrolled to
/// with anchors, edges, row edits, observations and removal, with the values of the formulas.
@Suite("scrollctl: positions, row edits, observations and removal")
struct ScrollctlPositionsTests {
    /// 100 rows of 44 px under a header 60…200 (rows start at 200), H = 600: content 4600 px,
    /// resting range [0, 4000].
    static func list(on daemon: DaemonProcess) throws {
        let configured = try Scrollctl.run(["configure", "list", "--container-size", "400x600", "--header", "60:200", "--rows", "100x44"], on: daemon)
        try #require(configured.status == 0, "\(configured.stderr)")
    }

    @Test func scrollToARowWithAnAnchorAnEdgeAndMinimally() throws {
        let daemon = try DaemonProcess()
        try Self.list(on: daemon)
        // Row 50 centred: y* = r + A·h − a_lo − m − A·L = 2400 + 22 − 0 − 60 − 0.5·540 = 2092.
        let centred = try Scrollctl.run(["scroll-to", "list", "--row", "50", "--anchor", "center", "--animation", "none"], on: daemon)
        #expect(centred.status == 0, "\(centred.stderr)")
        #expect(try Scrollctl.state("list", on: daemon).y == 2092)
        // A number anchor: row 50's bottom (A = 1) at the bottom of the usable area: 2400 + 44 − 60 − 540 = 1844.
        #expect(try Scrollctl.run(["scroll-to", "list", "--row", "50", "--anchor", "1", "--animation", "none"], on: daemon).status == 0)
        #expect(try Scrollctl.state("list", on: daemon).y == 1844)
        // Without an anchor, a row wholly in the usable area [1844 + 60, 1844 + 600] moves nothing.
        #expect(try Scrollctl.run(["scroll-to", "list", "--row", "45", "--animation", "none"], on: daemon).status == 0)
        let unmoved = try Scrollctl.state("list", on: daemon)
        #expect(unmoved.y == 1844)
        // A row below it comes in at the bottom (A = 1): 200 + 60·44 + 44 − 60 − 540 = 2284.
        #expect(try Scrollctl.run(["scroll-to", "list", "--row", "60", "--animation", "none"], on: daemon).status == 0)
        #expect(try Scrollctl.state("list", on: daemon).y == 2284)
        // The edges: hi = 4600 − 600 = 4000, lo = 0.
        #expect(try Scrollctl.run(["scroll-to", "list", "--edge", "bottom", "--animation", "none"], on: daemon).status == 0)
        #expect(try Scrollctl.state("list", on: daemon).y == 4000)
        #expect(try Scrollctl.run(["scroll-to", "list", "--edge", "top", "--animation", "none"], on: daemon).status == 0)
        #expect(try Scrollctl.state("list", on: daemon).y == 0)

        // The daemon's errors (§12) come back as its one line, exit status 1.
        let outOfRange = try Scrollctl.run(["scroll-to", "list", "--row", "100"], on: daemon)
        #expect(outOfRange.status == 1)
        #expect(outOfRange.stderr.hasPrefix("scrollctl: invalid_value: invalid \"row\": 100"))
        let noRows = try Scrollctl.run(["scroll-to", "main", "--row", "3"], on: daemon)
        #expect(noRows.status == 1)
        #expect(noRows.stderr.contains("no rows"))
        // What scrollctl can check itself is a usage error (64), and never reaches the daemon.
        for arguments in [["--anchor", "top", "--y", "3"], ["--row", "3", "--anchor", "middle"], ["--row", "3", "--anchor", "1.5"],
                          ["--edge", "up"], []] {
            let usage = try Scrollctl.run(["scroll-to", "list"] + arguments, on: daemon)
            #expect(usage.status == 64, "\(arguments): \(usage.stderr)")
        }
    }

    @Test func rowEditsKeepTheRowsOnScreenInPlace() throws {
        let daemon = try DaemonProcess()
        try Self.list(on: daemon)
        #expect(try Scrollctl.run(["scroll-to", "list", "--row", "50", "--anchor", "center", "--animation", "none"], on: daemon).status == 0)
        let before = try Scrollctl.state("list", on: daemon)
        // Twenty rows of 44 px above the visible ones: the offset moves by exactly 880 and the
        // visible rows' numbers by 20 — the same rows, at the same place on screen.
        let inserted = try Scrollctl.run(["rows", "list", "--insert", "0", "--count", "20", "--height", "44"], on: daemon)
        #expect(inserted.status == 0, "\(inserted.stderr)")
        let after = try Scrollctl.state("list", on: daemon)
        #expect(after.y == 2092 + 880)
        #expect(after.number("contentSize", "height") == 5480)
        #expect(after.number("visibleRows", "first") == before.number("visibleRows", "first")! + 20)
        // Rows of other heights, one per value, at the end: nothing on screen moves.
        #expect(try Scrollctl.run(["rows", "list", "--insert", "120", "--heights", "10,20,30"], on: daemon).status == 0)
        let appended = try Scrollctl.state("list", on: daemon)
        #expect(appended.y == 2972)
        #expect(appended.number("contentSize", "height") == 5540)
        // Removing them again restores the offset.
        #expect(try Scrollctl.run(["rows", "list", "--remove", "0", "--count", "20"], on: daemon).status == 0)
        #expect(try Scrollctl.state("list", on: daemon).y == 2092)

        let beyond = try Scrollctl.run(["rows", "list", "--remove", "500", "--count", "2"], on: daemon)
        #expect(beyond.status == 1)
        #expect(beyond.stderr.hasPrefix("scrollctl: invalid_value: "))
        for arguments in [[], ["--insert", "0", "--remove", "0"], ["--remove", "0", "--height", "3"], ["--insert", "0", "--count", "0"],
                          ["--insert", "0", "--heights", "1,x"]] {
            let usage = try Scrollctl.run(["rows", "list"] + arguments, on: daemon)
            #expect(usage.status == 64, "\(arguments): \(usage.stderr)")
        }
    }

    /// `configure --anchor bottom` (docs/design.md §12's default anchor): a chat of 10 rows of 44
    /// px in 300 px starts at its end (440 − 300 = 140) and stays there as 5 rows arrive (660 −
    /// 300).
    @Test func configureAnchorBottomKeepsTheEndInView() throws {
        let daemon = try DaemonProcess()
        let configured = try Scrollctl.run(["configure", "chat", "--container-size", "400x300", "--rows", "10x44", "--anchor", "bottom"], on: daemon)
        try #require(configured.status == 0, "\(configured.stderr)")
        #expect(try Scrollctl.state("chat", on: daemon).y == 140)
        #expect(try Scrollctl.run(["rows", "chat", "--insert", "10", "--count", "5", "--height", "44"], on: daemon).status == 0)
        #expect(try Scrollctl.state("chat", on: daemon).y == 360)
        let refused = try Scrollctl.run(["configure", "chat", "--anchor", "middle"], on: daemon)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("anchor"), "\(refused.stderr)")
    }

    @Test func observePrintsTheCurrentValueThenOnlyChanges() throws {
        // The demo session in a loop moves main through every phase.
        let daemon = try DaemonProcess(arguments: ["--loop"], replay: Scrolld.example("demo.scrolllog"))
        let json = try Scrollctl.run(["observe", "main", "phase", "--json", "--count", "4"], on: daemon)
        #expect(json.status == 0, "\(json.stderr)")
        let messages = json.states
        #expect(messages.count == 4)
        #expect(messages.allSatisfy { $0["type"] as? String == "observation" && $0["of"] as? String == "phase" && $0["container"] as? String == "main" })
        #expect(messages.first?["old"] is NSNull)
        // Change only: each message's old is the previous one's new, and differs from its own new.
        for (previous, message) in zip(messages, messages.dropFirst()) {
            #expect(message["old"] as? String == previous["new"] as? String)
            #expect(message["old"] as? String != message["new"] as? String)
            #expect(message.int("seq")! > previous.int("seq")!)
        }

        let human = try Scrollctl.run(["observe", "main", "contentOffset.y", "--step", "1000", "--count", "1"], on: daemon)
        #expect(human.status == 0, "\(human.stderr)")
        #expect(human.lines.count == 1)
        #expect(human.lines.first?.hasPrefix("contentOffset.y = ") == true)
        #expect(human.lines.first?.contains(" at seq ") == true)

        let unknown = try Scrollctl.run(["observe", "nope", "phase"], on: daemon)
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "scrollctl: unknown_container: unknown container \"nope\"\n")
        for arguments in [["warp"], ["rowVisible"], ["rowVisible", "--row", "1", "--threshold", "2"], ["phase", "--step", "1"],
                          ["nearEnd", "--distance", "-1"], ["atEdge", "--edge", "up"]] {
            let usage = try Scrollctl.run(["observe", "main"] + arguments, on: daemon)
            #expect(usage.status == 64, "\(arguments): \(usage.stderr)")
        }
    }

    @Test func removeEndsAContainerAClientCreated() throws {
        let daemon = try DaemonProcess()
        try Self.list(on: daemon)
        let removed = try Scrollctl.run(["remove", "list"], on: daemon)
        #expect(removed.status == 0, "\(removed.stderr)")
        let gone = try Scrollctl.run(["get", "list"], on: daemon)
        #expect(gone.status == 1)
        #expect(gone.stderr.contains("unknown container"))
        // The configuration file's own containers stay.
        let refused = try Scrollctl.run(["remove", "main"], on: daemon)
        #expect(refused.status == 1)
        #expect(refused.stderr.hasPrefix("scrollctl: invalid_value: invalid \"container\": \"main\" comes from the configuration (its file or the built-in main)"))
    }
}
