import Foundation
import Testing

@Suite("scrolld replay: options, sampling and bad input")
struct ReplayCommandTests {
    let header = #"{"format":"scrolld-events","version":1,"created":"2026-11-22T12:00:00Z","source":"test"}"#

    func log(_ lines: String...) throws -> String {
        try Scrolld.temporaryFile(([header] + lines).joined(separator: "\n") + "\n")
    }

    @Test func containerOptionsShapeTheStateLine() throws {
        let path = try log(#"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"#)
        let result = try Scrolld.run([
            "replay", path, "--container", "list", "--container-size", "400x300", "--insets", "10,0,20,0",
            "--header", "50:150", "--rows", "40x44", "--set", "physics.wheel_animation=none",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let state = try #require(result.states.first)
        #expect(state.string("container") == "list")
        #expect(state.number("containerSize", "height") == 300)
        // Rows define the content: 150 (header) + 40 × 44.
        #expect(state.number("contentSize", "height") == 1910)
        #expect(state.number("contentInsets", "top") == 10)
        #expect(state.number("contentInsets", "bottom") == 20)
        // From -10 (the top inset) by 300^(2/3).
        let y = -10 + pow(300.0, 2.0 / 3.0)
        expectClose(state.y, y)
        // u = y − lo = 300^(2/3) = 44.81; header max(50, 150 − u).
        expectClose(state.number("header", "height")!, 150 - (y + 10))
        expectClose(state.number("header", "progress")!, (y + 10) / 100)
        let rows = state["visibleRows"] as? [String: Any]
        #expect((rows?["first"] as? NSNumber)?.intValue == 0)
        // Viewport [y, y + 300] = [34.81, 334.81]: row 4 spans 326–370 (8.8 of 44 inside).
        #expect((rows?["last"] as? NSNumber)?.intValue == 3)
    }

    @Test func contentSizeAxesAndWheelStepOptions() throws {
        let path = try log(#"{"t":1000,"dev":1,"type":"wheel","v120":{"x":240,"y":120}}"#)
        let result = try Scrolld.run([
            "replay", path, "--axes", "both", "--content-size", "3000x900",
            "--set", "physics.wheel_animation=none", "--set", "physics.wheel_step=40",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let state = try #require(result.states.first)
        #expect(state.number("contentOffset", "x") == 80)
        #expect(state.number("contentOffset", "y") == 40)
        #expect(state.number("contentSize", "width") == 3000)
    }

    @Test func profileNoneHasNoMomentumAndNoOverscroll() throws {
        let path = try log(
            #"{"t":1000000,"dev":2,"type":"finger","delta":{"y":-40}}"#,
            #"{"t":1010000,"dev":2,"type":"finger","delta":{"y":80}}"#,
            #"{"t":1020000,"dev":2,"type":"finger","delta":{"y":0}}"#
        )
        let result = try Scrolld.run(["replay", path, "--profile", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let states = result.states
        // The last: the scroll indicator hiding 500 ms after the rest (docs/design.md §22).
        #expect(states.map(\.y) == [0, 40, 40, 40])
        #expect(states.map(\.phase) == ["interacting", "interacting", "idle", "idle"])
        #expect(states.map(\.indicatorVisible) == [false, true, true, false])
        #expect(states.last?.t == 1_520_000)
    }

    @Test func horizontalInputOnAVerticalContainerChangesNothing() throws {
        let path = try log(
            #"{"t":1000,"dev":1,"type":"wheel","v120":{"x":120}}"#,
            #"{"t":2000,"dev":2,"type":"finger","delta":{"x":30}}"#
        )
        let result = try Scrolld.run(["replay", path])
        #expect(result.states.map(\.y) == [0, 0])
        #expect(result.states.map(\.phase) == ["idle", "idle"])
        #expect(result.states.map { $0.int("seq") } == [1, 2])
    }

    @Test func atSamplesAfterTheLastEventAndEverySamplesUntilIdle() throws {
        let path = try log(#"{"t":5000000,"dev":1,"type":"wheel","v120":{"y":120}}"#)
        let at = try Scrolld.run(["replay", path, "--at", "0,2"])
        #expect(at.states.map(\.t) == [5_000_000, 7_000_000])
        expectClose(at.states[1].y, pow(600.0, 2.0 / 3.0))
        #expect(at.states[1].phase == "idle")

        let every = try Scrolld.run(["replay", path, "--every", "100"])
        // Interacting until the spring settles and 250 ms of wheel silence have passed (5.25 s);
        // then the scroll indicator lingers 500 ms: the first sample with nothing armed is 5.8 s.
        #expect(every.states.map(\.t) == (0...8).map { 5_000_000 + $0 * 100_000 })
        #expect(every.states.map(\.phase) == ["interacting", "interacting", "interacting"] + Array(repeating: "idle", count: 6))
        // (At 5.0 s the spring has not moved the offset yet.)
        #expect(every.states.map(\.indicatorVisible) == [false] + Array(repeating: true, count: 7) + [false])
    }

    /// `--every` leaves out an idle stretch longer than the settle limit (600 s) before the next
    /// line: two wheel events 2⁵³ µs apart printed samples for ever, and `--plot` spun on them.
    /// The samples that show something are all there, and stderr says what was left out.
    @Test func everyLeavesOutALongIdleStretch() throws {
        let path = try log(
            #"{"t":0,"dev":1,"type":"device_added","name":"M","caps":["wheel"]}"#,
            #"{"t":0,"dev":1,"type":"wheel","v120":{"y":120}}"#,
            #"{"t":9007199254740992,"dev":1,"type":"wheel","v120":{"y":120}}"#)
        let svg = try Scrolld.temporaryFile("", name: "timejump.svg")
        // A replay that walks the stretch is killed at the limit, and this test stops here.
        let plot = try Scrolld.run(["replay", path, "--every", "100", "--plot", svg], limit: 300)
        try #require(plot.status == 0, "\(plot.stderr)")
        #expect(plot.stderr.contains("idle until the next line at 9007199254.740992 s: the 90071992539 samples from 0.9 s on are left out"), "\(plot.stderr)")

        let out = try Scrolld.temporaryFile("", name: "states.jsonl")
        let every = try Scrolld.run(["replay", path, "--every", "1000"], stdoutTo: out, limit: 300)
        #expect(every.status == 0, "\(every.stderr)")
        #expect(every.stderr == "scrolld: replay: idle until the next line at 9007199254.740992 s: the 9007199253 samples from 2.0 s on are left out\n")
        let times = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["t"] as? Int64
        }
        #expect(times == [0, 1_000_000, 9_007_199_255_000_000, 9_007_199_256_000_000])
    }

    @Test func readsStandardInput() throws {
        let text = header + "\n" + #"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"# + "\n"
        let result = try Scrolld.run(["replay", "-", "--set", "physics.wheel_animation=none"], stdin: Data(text.utf8))
        #expect(result.status == 0)
        expectClose(try #require(result.states.first).y, pow(600.0, 2.0 / 3.0))
    }

    @Test func aMalformedLineStopsWithItsLineNumberAfterFlushingWhatCameBefore() throws {
        let path = try log(
            #"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"#,
            #"{"t":2000,"dev":1,"type":"wheel","v120":{"y":120}"#,
            #"{"t":3000,"dev":1,"type":"wheel","v120":{"y":120}}"#
        )
        let result = try Scrolld.run(["replay", path, "--set", "physics.wheel_animation=none"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 3"), "\(result.stderr)")
        #expect(result.states.count == 1)
    }

    @Test func unknownTypesAreSkippedWithAWarningAndATruncatedLastLineIsAccepted() throws {
        let text = [
            header,
            #"{"t":1000,"dev":1,"type":"tablet_tool","x":3}"#,
            #"{"t":2000,"dev":1,"type":"wheel","v120":{"y":120}}"#,
            #"{"t":3000,"dev":1,"type":"wheel","v1"#,
        ].joined(separator: "\n")
        let path = try Scrolld.temporaryFile(text)
        let result = try Scrolld.run(["replay", path, "--set", "physics.wheel_animation=none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("line 2"), "\(result.stderr)")
        #expect(result.stderr.contains("tablet_tool"), "\(result.stderr)")
        #expect(result.stderr.contains("line 4"), "\(result.stderr)")
        #expect(result.states.first?.phase == "interacting")
        #expect(result.states.count == 3)  // the wheel, its idle timer, the indicator's hide
    }

    @Test func badOptionsNameTheProblem() throws {
        let path = try log(#"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"#)
        let badKey = try Scrolld.run(["replay", path, "--set", "physics.wheel_animaton=none"])
        #expect(badKey.status == 64)
        #expect(badKey.stderr.contains("physics.wheel_animaton"), "\(badKey.stderr)")
        let badValue = try Scrolld.run(["replay", path, "--profile", "android"])
        #expect(badValue.status == 64)
        #expect(badValue.stderr.contains("ios, gtk, none"), "\(badValue.stderr)")
        let badSize = try Scrolld.run(["replay", path, "--container-size", "800"])
        #expect(badSize.status == 64)
        let missing = try Scrolld.run(["replay", "/nonexistent/log.scrolllog"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("cannot open /nonexistent/log.scrolllog: No such file or directory"), "\(missing.stderr)")
        // The daemon's replay source says the same, not a Foundation error's dump.
        let live = try Scrolld.run(["run", "--replay", "/nonexistent/log.scrolllog", "--socket", "/tmp/sd-missing-\(getpid()).sock"])
        #expect(live.status == 66)
        #expect(live.stderr.contains("critical: cannot open /nonexistent/log.scrolllog: No such file or directory"), "\(live.stderr)")
        let notALog = try Scrolld.run(["replay", try Scrolld.temporaryFile("hello\n")])
        #expect(notALog.status == 65)
        #expect(notALog.stderr.contains("line 1"), "\(notALog.stderr)")
        // The daemon's replay source exits as its help and man page say: 65 for a malformed log.
        let liveNotALog = try Scrolld.run(["run", "--replay", try Scrolld.temporaryFile("hello\n"), "--socket", "/tmp/sd-bad-\(getpid()).sock"])
        #expect(liveNotALog.status == 65)
        #expect(liveNotALog.stderr.contains("critical: cannot replay"), "\(liveNotALog.stderr)")
    }

    /// A usage error replay finds while it runs (a `--set` key the configuration refuses, a
    /// `--focus` on no container) shows replay's usage, as one its option checks find does; it
    /// showed the top-level `scrolld <subcommand>` (found by a user's trial of every command).
    @Test func usageErrorsShowReplaysUsage() throws {
        let path = try log(#"{"t":1000,"dev":1,"type":"wheel","v120":{"y":120}}"#)
        let usage = "Usage: scrolld replay [<options>] <LOG>\n  See 'scrolld replay --help' for more information.\n"
        let cases: [([String], String)] = [
            (["--at", "1", "--every", "5"], "--at and --every exclude each other"),
            (["--set", "nosuch.key=1"], "nosuch.key: unknown key (sections: daemon, web, physics, input, containers.NAME)"),
            (["--focus", "nosuch"], #"--focus: unknown container "nosuch""#),
            (["--set", "physics"], "--set expects SECTION.KEY=VALUE, got 'physics'"),
            // A container named nowhere is the command line's fault (it exited 65, "malformed
            // log"), and an interval past Int64's µs trapped (exit 132): a user's trial.
            (["--container", "nosuch"], #"--container: no container "nosuch": neither the configuration nor the requests in \#(path) define it"#),
            (["--every", "1e308"], "--every expects milliseconds more than 0 and less than 1e12, got 1e+308"),
            (["--every", "9.3e15"], "--every expects milliseconds more than 0 and less than 1e12, got 9.3e+15"),
            (["--at", "1e9"], "--at expects seconds from 0 to less than 1e9 separated by commas, got '1e9'"),
        ]
        for (arguments, message) in cases {
            let result = try Scrolld.run(["replay", path] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
            #expect(result.stderr == "Error: \(message)\n" + usage, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
    }
}

@Suite("scrolld replay of libinput debug-events transcripts")
struct TranscriptReplayTests {
    /// What libinput 1.22 printed in the real-kernel guest (Tests/e2e/README.md,
    /// "Why this recipe").
    let transcript = """
        -event2   POINTER_SCROLL_WHEEL    +1.815s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
         event2   POINTER_SCROLL_WHEEL    +2.381s\tvert -15.00/-120.0* horiz 0.00/0.0 (wheel)
        -event3   POINTER_SCROLL_FINGER   +2.833s\tvert -15.77/0.0* horiz 0.00/0.0 (finger)
         event3   POINTER_SCROLL_FINGER   +3.118s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)

        """

    @Test func aTranscriptIsDetectedAndReplayedLikeAnEventLog() throws {
        let path = try Scrolld.temporaryFile(transcript, name: "debug-events.txt")
        let result = try Scrolld.run(["replay", path, "--set", "physics.wheel_animation=none"])
        #expect(result.status == 0, "\(result.stderr)")
        let input = result.states.filter { [1_815_000, 2_381_000, 2_833_000, 3_118_000].contains($0.t ?? -1) }
        #expect(input.map(\.t) == [1_815_000, 2_381_000, 2_833_000, 3_118_000])
        expectClose(input[0].y, pow(600.0, 2.0 / 3.0))
        #expect(input[1].y == 0)
        // A finger drag up from the top: rubber band b(15.77) = 15.77·600·0.55 / (600 + 0.55·15.77)…
        expectClose(input[2].y, -15.77 * 600 * 0.55 / (600 + 0.55 * 15.77))
        #expect(input[2].phase == "interacting")
        #expect(input[3].phase != "interacting")  // …ended by the stop
        #expect(result.states.last?.phase == "idle")

        // import-debug-events writes the same events as an event log.
        let out = path + ".scrolllog"
        let before = Date()
        let imported = try Scrolld.run(["import-debug-events", path, out])
        #expect(imported.status == 0, "\(imported.stderr)")
        // Its header says when, in RFC 3339 UTC to the second (written with gmtime_r).
        let header = try #require(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        let created = try #require(object["created"] as? String)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        let when = try #require(formatter.date(from: created), "created: \(created)")
        #expect(created.count == 20 && created.hasSuffix("Z"), "created: \(created)")
        #expect(when.timeIntervalSince(before) > -1 && when.timeIntervalSince(Date()) < 1, "created: \(created)")
        let viaLog = try Scrolld.run(["replay", out, "--set", "physics.wheel_animation=none"])
        #expect(viaLog.stdout == result.stdout)
    }

    @Test func somethingThatIsNeitherIsRejectedAsNotAnEventLog() throws {
        let path = try Scrolld.temporaryFile("hello world\nthis is not input\n")
        let result = try Scrolld.run(["replay", path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 1"), "\(result.stderr)")
    }

    /// An empty file has no header: not an event log (docs/event-log.md), not an empty replay;
    /// a directory is no input file (66), named. (Both found by a user trial: exit 0, and
    /// "Error: Is a directory" with status 1.)
    @Test func anEmptyFileOrADirectoryIsRefusedByName() throws {
        let empty = try Scrolld.temporaryFile("")
        let result = try Scrolld.run(["replay", empty])
        #expect(result.status == 65)
        #expect(result.stderr.hasSuffix("line 1: not a scrolld event log (expected header {\"format\":\"scrolld-events\",\"version\":1,...})\n"), "\(result.stderr)")
        let directory = FileManager.default.temporaryDirectory.path
        let refused = try Scrolld.run(["replay", directory])
        #expect(refused.status == 66)
        #expect(refused.stderr == "scrolld: cannot read \(directory): Is a directory\n", "\(refused.stderr)")
    }

    /// A line past the longest an event log holds (256 MiB) ends the read with a message and
    /// status 65, for the replay and the import alike: `/dev/zero` is one endless line, which
    /// was read into memory until none was left.
    @Test func anEndlessLineIsRefusedAt256MiB() throws {
        let replay = try Scrolld.run(["replay", "/dev/zero", "--container", "main"])
        #expect(replay.status == 65)
        #expect(replay.stderr == "scrolld: /dev/zero: line 1 is longer than 256 MiB, more than an event log's longest line\n", "\(replay.stderr)")
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("endless-\(UUID().uuidString).scrolllog").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let imported = try Scrolld.run(["import-debug-events", "/dev/zero", out])
        #expect(imported.status == 65)
        #expect(imported.stderr == "scrolld: /dev/zero: line 1 is longer than 256 MiB, more than an event log's longest line\n", "\(imported.stderr)")
    }
}
