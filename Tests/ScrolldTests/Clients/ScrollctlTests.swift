import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Runs the real `scrollctl` binary, which SwiftPM builds beside `scrolld`.
enum Scrollctl {
    static let binary = Scrolld.binary.deletingLastPathComponent().appendingPathComponent("scrollctl")

    /// Runs `executable` (scrollctl by default) and returns its status and output. A process still
    /// running after `limit` seconds is killed, so that a hung client fails the test instead of
    /// hanging it (a limit that only catches a hang: a loaded machine is slow, not wrong).
    static func run(
        _ arguments: [String],
        executable: URL = binary,
        environment extra: [String: String] = [:],
        removing removed: [String] = [],
        limit: Double = 90
    ) throws -> Scrolld.Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for key in removed { environment.removeValue(forKey: key) }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("scrollctl-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try err.close()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let stderrData = (try? Data(contentsOf: errURL)) ?? Data()
        return Scrolld.Result(status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// `scrollctl ARGUMENTS --socket` the daemon's socket, waiting up to 60 s for a reply (the
    /// default 5 s is a user's patience; a test must not fail because its machine is busy).
    static func run(_ arguments: [String], on daemon: DaemonProcess, limit: Double = 90) throws -> Scrolld.Result {
        try run(arguments + ["--socket", daemon.socketPath, "--timeout", "60"], limit: limit)
    }

    /// `get CONTAINER` as a JSON object.
    static func state(_ container: String, on daemon: DaemonProcess) throws -> [String: Any] {
        let result = try run(["get", container], on: daemon)
        try #require(result.status == 0, "get \(container): \(result.stderr)")
        try #require(result.lines.count == 1)
        return try #require(result.states.first)
    }
}

extension Scrolld.Result {
    var output: String { String(decoding: stdout, as: UTF8.self) }
}

@Suite("scrollctl against a real scrolld")
struct ScrollctlTests {
    @Test func getPrintsTheStateLineOfMainByDefault() throws {
        let daemon = try DaemonProcess()
        let result = try Scrollctl.run(["get"], on: daemon)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.lines.count == 1)
        let state = try #require(result.states.first)
        #expect(state["type"] as? String == "state")
        #expect(state["container"] as? String == "main")
        #expect(state.phase == "idle")
        #expect(state.y == 0)
        #expect(state.number("containerSize", "height") == 600)
        #expect(state.number("contentSize", "height") == 20000)
        // The line of docs/design.md §4, as a subscriber sees it: no request id.
        #expect(state["id"] == nil)
        #expect(result.lines[0].hasPrefix(#"{"type":"state","container":"main","seq":"#))
    }

    @Test func scrollToThenGetShowsTheTargetOnceTheSpringSettles() throws {
        let daemon = try DaemonProcess()
        let moved = try Scrollctl.run(["scroll-to", "--y", "1234", "--animation", "spring:0.2,0"], on: daemon)
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout.isEmpty)

        var state = try Scrollctl.state("main", on: daemon)
        _ = waitUntil(timeout: 30) {
            state = (try? Scrollctl.state("main", on: daemon)) ?? state
            return state.phase == "idle" && state.y == 1234
        }
        #expect(state.phase == "idle")
        #expect(state.y == 1234)

        // A negative distance is a value, not an option; without animation it applies at once.
        let back = try Scrollctl.run(["scroll-by", "main", "--dy", "-234", "--animation", "none"], on: daemon)
        #expect(back.status == 0, "\(back.stderr)")
        state = try Scrollctl.state("main", on: daemon)
        #expect(state.y == 1000)
        #expect(state.phase == "idle")
    }

    @Test func configureCreatesAContainerThatGetShows() throws {
        let daemon = try DaemonProcess()
        let configured = try Scrollctl.run([
            "configure", "list", "--container-size", "400x300", "--content-size", "400x2000",
            "--insets", "10,0,20,0", "--header", "50:120", "--rows", "40x44", "--physics", "profile=gtk",
        ], on: daemon)
        #expect(configured.status == 0, "\(configured.stderr)")
        #expect(configured.stdout.isEmpty)

        let state = try Scrollctl.state("list", on: daemon)
        #expect(state["container"] as? String == "list")
        #expect(state.number("containerSize", "width") == 400)
        #expect(state.number("containerSize", "height") == 300)
        #expect(state.number("contentSize", "height") == 2000)
        #expect(state.number("contentInsets", "top") == 10)
        #expect(state.number("contentInsets", "bottom") == 20)
        #expect(state.number("header", "height") == 120)
        #expect(state.number("visibleRows", "first") == 0)

        // Values are checked by the daemon, which names the key.
        let bad = try Scrollctl.run(["configure", "list", "--axes", "diagonal"], on: daemon)
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("scrollctl: invalid_value: "))
        #expect(bad.stderr.contains("axes"))
        // A malformed option never reaches the daemon: a usage error.
        let usage = try Scrollctl.run(["configure", "list", "--rows", "forty"], on: daemon)
        #expect(usage.status == 64)
    }

    @Test func watchJSONPrintsTheDaemonsStateLines() throws {
        let daemon = try DaemonProcess(arguments: ["--loop"], replay: Scrolld.example("demo.scrolllog"))
        let result = try Scrollctl.run(["watch", "--json", "--count", "5", "--rate", "200"], on: daemon)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines.count == 5)
        let states = result.states
        for state in states {
            #expect(state["type"] as? String == "state")
            #expect(state["container"] as? String == "main")
            #expect(state.number("contentOffset", "y") != nil)
            #expect(["idle", "tracking", "interacting", "decelerating", "animating"].contains(state.phase))
        }
        let seqs = states.compactMap { $0.number("seq") }
        #expect(seqs.count == 5)
        #expect(seqs == seqs.sorted() && Set(seqs).count == 5)

        // stdout a pipe: raw lines without asking.
        let piped = try Scrollctl.run(["watch", "main", "--count", "2"], on: daemon)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.lines.count == 2)
        #expect(piped.states.allSatisfy { $0["type"] as? String == "state" })
    }

    @Test func watchOnATerminalDrawsTheContainerInPlace() throws {
        let daemon = try DaemonProcess(arguments: ["--loop"], replay: Scrolld.example("demo.scrolllog"))
        let command = "'\(Scrollctl.binary.path)' watch --count 3 --timeout 60 --socket '\(daemon.socketPath)'"
        let result = try Scrollctl.run(
            ["-qefc", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"),
            environment: ["COLUMNS": "100", "TERM": "xterm"]
        )
        #expect(result.status == 0, "\(result.stderr)")
        let screen = result.output
        #expect(screen.contains("main"))
        #expect(screen.contains("phase"))
        #expect(["idle", "tracking", "interacting", "decelerating", "animating"].contains { screen.contains($0) })
        #expect(screen.contains("offset"))
        #expect(screen.contains("states/s"))
        #expect(screen.contains("\u{1B}[?25l"))  // cursor hidden while drawing…
        #expect(screen.hasSuffix("\u{1B}[?25h"))  // …and shown again at the end
        #expect(!screen.contains(#"{"type""#))
    }

    /// docs/design.md §20: `get` prints the state as the daemon sent it, `paused` included;
    /// `devices` names the container holding the focus.
    @Test func getKeepsPausedAndDevicesNamesTheFocus() throws {
        let daemon = try DaemonProcess()
        let holder = try LineClient(path: daemon.socketPath)
        defer { holder.close() }
        #expect(holder.request(["op": "pause", "container": "main"], id: 1)?["type"] as? String == "ok")
        #expect(holder.request(["op": "focus", "container": "main"], id: 2)?["type"] as? String == "ok")

        let state = try Scrollctl.state("main", on: daemon)
        #expect(state["paused"] as? Bool == true)
        let table = try Scrollctl.run(["devices"], on: daemon)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.lines.last == "Focus: main")

        #expect(holder.request(["op": "resume", "container": "main"], id: 3)?["type"] as? String == "ok")
        #expect(try Scrollctl.state("main", on: daemon)["paused"] == nil)
    }

    @Test func devicesAsATableAndAsJSON() throws {
        let daemon = try DaemonProcess(replay: Scrolld.example("demo.scrolllog"))
        let table = try Scrollctl.run(["devices"], on: daemon)
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.lines.first?.hasPrefix("ID") == true)
        #expect(table.lines.first?.contains("NAME") == true)
        // The demo log's three devices, one row each.
        let names = ["Logitech MX Master 3", "SynPS/2 Synaptics TouchPad", "Generic USB Mouse"]
        #expect(table.lines.count == 1 + names.count + 3, "\(table.output)")
        // docs/design.md §23, §15 and §14: the table ends with whether motion is reduced (and
        // what decided it), whether the daemon reads its devices, then which container holds
        // the focus.
        #expect(table.lines.suffix(3) == ["Reduced motion: off (default)", "Input: active", "Focus: none"])
        let rows = table.lines.dropFirst().dropLast(3)
        #expect(zip(rows, names).allSatisfy { row, name in row.contains(name) && row.contains("main") }, "\(rows)")

        let json = try Scrollctl.run(["devices", "--json"], on: daemon)
        #expect(json.status == 0)
        #expect(json.lines.count == 1)
        let reply = try #require(json.states.first)
        #expect(reply["type"] as? String == "devices")
        let devices = try #require(reply["devices"] as? [[String: Any]])
        #expect(devices.compactMap { $0["name"] as? String } == names)
        let input = try #require(reply["input"] as? [String: Any])
        #expect(input["state"] as? String == "active")
        #expect(input["reason"] is NSNull)
        for device in devices {
            let name = try #require(device["name"] as? String)
            #expect(table.output.contains(name))
        }
    }

    @Test func reloadReportsTheResultAndFailsOnABadFile() throws {
        let daemon = try DaemonProcess(config: "[containers.main]\ncontainerSize = \"800x500\"\n")
        let good = try Scrollctl.run(["reload"], on: daemon)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.output.hasPrefix("reloaded "))

        try "[physics]\nrubber_band = \"soft\"\n".write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        let bad = try Scrollctl.run(["reload"], on: daemon)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("rubber_band"))
        #expect(bad.stderr.hasPrefix("scrollctl: reload refused: "))
        #expect(bad.stderr.split(separator: "\n").count == 1)
        // The last good configuration stays in force: the bad file has no `main` of 800 × 500.
        let size = try Scrollctl.state("main", on: daemon)["containerSize"] as? [String: Any]
        #expect(size?["height"] as? Double == 500)
    }

    @Test func beginAndEndRefresh() throws {
        let daemon = try DaemonProcess(config: "[containers.feed]\nrefresh = { threshold = 80, height = 60 }\n")
        let begun = try Scrollctl.run(["begin-refresh", "feed"], on: daemon)
        #expect(begun.status == 0, "\(begun.stderr)")
        #expect(try Scrollctl.run(["get", "feed"], on: daemon).output.contains(#""refreshing":true"#))
        #expect(try Scrollctl.run(["end-refresh", "feed"], on: daemon).status == 0)
        #expect(try Scrollctl.run(["get", "feed"], on: daemon).output.contains(#""refreshing":false"#))
        let refused = try Scrollctl.run(["begin-refresh", "main"], on: daemon)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("no refresh configured"))
    }

    @Test func pingPrintsTheRoundTrip() throws {
        let daemon = try DaemonProcess()
        let result = try Scrollctl.run(["ping"], on: daemon)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.output.hasPrefix("pong from scrolld "))
        #expect(result.output.hasSuffix(" ms\n"))
    }

    /// `--socket P` everywhere: before the subcommand as after it, `--timeout` too, in both
    /// spellings; the help's examples run in the order shown.
    @Test func theConnectionsOptionsMayComeBeforeTheSubcommand() throws {
        let daemon = try DaemonProcess()
        let before = try Scrollctl.run(["--socket", daemon.socketPath, "--timeout", "60", "get"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.states.first?["container"] as? String == "main")
        let joined = try Scrollctl.run(["--socket=\(daemon.socketPath)", "ping", "--timeout", "60"])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.output.hasPrefix("pong from scrolld "))
        // An option that is not the connection's stays where it was, and is refused there.
        let misplaced = try Scrollctl.run(["--json", "get", "--socket", daemon.socketPath])
        #expect(misplaced.status == 64, "\(misplaced.stderr)")

        let help = try Scrollctl.run(["--help"])
        let text = help.output
        let examples = try #require(text.components(separatedBy: "EXAMPLES").last?.components(separatedBy: "SEE ALSO").first)
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 }, "a line of the help is wrapped:\n\(text)")
        var ran = 0
        for line in examples.split(separator: "\n").dropFirst() where line.hasPrefix("  scrollctl ") {
            var words = line.dropFirst(2).split(separator: " ").map(String.init)
            if let note = words.firstIndex(where: { $0.hasPrefix("(") }) { words.removeSubrange(note...) }
            // watch and observe follow until interrupted.
            guard !words.contains("|"), words[1] != "watch", words[1] != "observe" else { continue }
            let result = try Scrollctl.run(Array(words.dropFirst()), on: daemon)
            #expect(result.status == 0, "\(line): \(result.stderr)")
            ran += 1
        }
        #expect(ran >= 6)
    }

    @Test func unknownContainerIsTheDaemonsErrorAndExitsOne() throws {
        let daemon = try DaemonProcess()
        let result = try Scrollctl.run(["get", "nope"], on: daemon)
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "scrollctl: unknown_container: unknown container \"nope\"\n")
        let watch = try Scrollctl.run(["watch", "nope", "--json"], on: daemon)
        #expect(watch.status == 1)
        #expect(watch.stderr.contains("unknown_container"))
    }

    @Test func noDaemonIsOneLineAndExit69() throws {
        let path = "/tmp/sc-\(UUID().uuidString.prefix(8))/scrolld.sock"
        for command in [["get"], ["ping"], ["watch"], ["devices"], ["scroll-by", "--dy", "10"]] {
            let result = try Scrollctl.run(command + ["--socket", path])
            #expect(result.status == 69, "\(command)")
            #expect(result.stdout.isEmpty)
            #expect(result.stderr == "scrollctl: scrolld is not running (no socket at \(path))\n")
        }
        // Without --socket: the daemon's own default, under $XDG_RUNTIME_DIR…
        let runtime = "/tmp/sc-\(UUID().uuidString.prefix(8))"
        let defaulted = try Scrollctl.run(["ping"], environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(defaulted.status == 69)
        #expect(defaulted.stderr == "scrollctl: scrolld is not running (no socket at \(runtime)/scrolld/scrolld.sock)\n")
        // …else in /tmp/scrolld-UID (only if no daemon of ours happens to be serving there).
        let fallback = "/tmp/scrolld-\(getuid())/scrolld.sock"
        if !FileManager.default.fileExists(atPath: fallback) {
            let result = try Scrollctl.run(["ping"], removing: ["XDG_RUNTIME_DIR"])
            #expect(result.status == 69)
            #expect(result.stderr == "scrollctl: scrolld is not running (no socket at \(fallback))\n")
        }
    }

    /// A socket path that is another kind of file: the kernel refuses it as if nothing
    /// listened; the message says what is there.
    @Test func aPathThatIsNotASocketIsNamedForWhatItIs() throws {
        let directory = "/tmp/sc-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = directory + "/file"
        try "".write(toFile: file, atomically: true, encoding: .utf8)
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        for (path, kind) in [(file, "a regular file"), (directory, "a directory"), (fifo, "a FIFO"), ("/dev/null", "a character device")] {
            let result = try Scrollctl.run(["ping", "--socket", path])
            #expect(result.status == 69, "\(path)")
            #expect(result.stderr == "scrollctl: scrolld is not running (not a socket but \(kind): \(path))\n")
        }
    }

    /// Numbers the daemon would refuse are refused before anything is sent, with the range:
    /// JSON has no NaN, and `--rate nan` reached the daemon as 0.
    @Test func aRateOrStepOutOfItsRangeIsAUsageError() throws {
        for rate in ["nan", "0", "-1", "1001", "inf"] {
            let result = try Scrollctl.run(["watch", "--rate", rate, "--socket", "/nonexistent/s.sock"])
            #expect(result.status == 64, "\(rate)")
            #expect(result.stderr.contains("--rate expects states per second from 0.001 to 1000"), "\(rate): \(result.stderr)")
        }
        for step in ["nan", "0", "1e300", "-2"] {
            let result = try Scrollctl.run(["observe", "main", "contentOffset.y", "--step", step, "--socket", "/nonexistent/s.sock"])
            #expect(result.status == 64, "\(step)")
            #expect(result.stderr.contains("Error: --step: must be between 1e-6 and 1e9"), "\(step): \(result.stderr)")
        }
    }

    /// A number out of its range is named with the range, negative ones included (read as the
    /// option's value, not as another option).
    @Test func aNumberOutOfItsRangeIsNamedWithTheRange() throws {
        let cases: [([String], String)] = [
            (["ping", "--timeout", "100000"], "--timeout expects seconds greater than 0 and at most 86400 (a day), got 100000"),
            (["ping", "--timeout", "-1"], "--timeout expects seconds greater than 0 and at most 86400 (a day), got -1"),
            (["watch", "--count", "-3"], "--count expects a positive number"),
            (["observe", "main", "contentOffset.y", "--count", "-3"], "--count expects a positive number"),
            (["rows", "list", "--insert", "0", "--count", "-3"], "--count expects a positive number"),
            (["scroll-to", "main", "--y", "5", "--animation", "spring:0,0"], "a spring's duration is seconds from 0.001 to 10"),
            (["scroll-to", "main", "--y", "5", "--animation", "spring:100"], "a spring's duration is seconds from 0.001 to 10"),
            (["scroll-to", "main", "--y", "5", "--animation", "spring:1,5"], "a spring's bounce is from -0.9 to 0.9"),
            (["scroll-to", "main", "--y", "5", "--animation", "wobbly"], "expected none, smooth, snappy, bouncy or spring:DURATION[,BOUNCE]"),
            (["configure", "c", "--container-size", "1e999x5"], "width must be a finite number, got '1e999'"),
        ]
        for (arguments, message) in cases {
            let result = try Scrollctl.run(arguments + ["--socket", "/nonexistent/s.sock"])
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        // In range, it is read and sent: here, to no daemon.
        let sent = try Scrollctl.run(["scroll-to", "main", "--row", "-1", "--animation", "spring:0.5,0.2", "--socket", "/nonexistent/s.sock"])
        #expect(sent.stderr.contains("scrolld is not running"), "\(sent.stderr)")
    }

    @Test func aDaemonThatNeverAnswersTimesOutWith75() throws {
        let directory = "/tmp/sc-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/silent.sock"
        // Listens, never accepts: connect succeeds and nothing ever arrives.
        let fd = try RawSocket.bound(path, type: SOCK_STREAM)
        defer { close(fd) }

        // Nothing will ever answer, so the short timeout is exact, not a race; a scrollctl that
        // waited for ever would be killed by `run`'s limit (status 9, not 75).
        let result = try Scrollctl.run(["ping", "--socket", path, "--timeout", "0.3"])
        #expect(result.status == 75)
        #expect(result.stderr == "scrollctl: no reply from scrolld within 0.3 s (ping)\n")
    }

    /// `scrollctl watch CONTAINER --json` running against a daemon, its first state read (the
    /// subscription is in place); killed if it still runs when the test lets go of it.
    final class RunningWatch {
        let process = Process()
        let out = Pipe()
        let err = Pipe()
        let first: String

        init(_ container: String, on daemon: DaemonProcess) throws {
            process.executableURL = Scrollctl.binary
            process.arguments = ["watch", container, "--json", "--timeout", "60", "--socket", daemon.socketPath]
            process.standardOutput = out
            process.standardError = err
            try process.run()
            first = String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }

        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        var stderr: String { String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
    }

    @Test func watchEndsWith69WhenTheDaemonGoesAway() throws {
        let daemon = try DaemonProcess()
        let watch = try RunningWatch("main", on: daemon)
        #expect(watch.first.hasPrefix(#"{"type":"state""#))
        // Killed outright: a daemon spawned from the test runner inherits its blocked signal
        // mask, and then does not see SIGTERM (DaemonTests' stop() waits 10 s and kills it).
        daemon.signal(SIGKILL)
        watch.process.waitUntilExit()
        #expect(watch.process.terminationStatus == 69)
        #expect(watch.stderr.hasPrefix("scrollctl: scrolld closed the connection"))
    }

    /// A watch ends with its container (found by a user trial: it followed a dead subscription
    /// for ever), as `observe` does: status 1, the reason on stderr, the daemon's line on stdout.
    @Test func watchEndsWith1WhenItsContainerIsRemoved() throws {
        let daemon = try DaemonProcess()
        #expect(try Scrollctl.run(["configure", "gone", "--container-size", "100x100"], on: daemon).status == 0)
        let watch = try RunningWatch("gone", on: daemon)
        #expect(watch.first.hasPrefix(#"{"type":"state""#))
        #expect(try Scrollctl.run(["remove", "gone"], on: daemon).status == 0)
        // A watch that does not end is killed (a deadline that only catches the hang).
        let pid = watch.process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        defer { watchdog.cancel() }
        let rest = String(decoding: watch.out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        watch.process.waitUntilExit()
        #expect(watch.process.terminationStatus == 1)
        #expect(rest.hasSuffix(#"{"type":"removed","container":"gone"}"# + "\n"), "\(rest)")
        #expect(watch.stderr == "scrollctl: container \"gone\" was removed\n")
    }

    @Test func usageErrorsExit64() throws {
        #expect(try Scrollctl.run(["scroll-to", "--socket", "/nonexistent.sock"]).status == 64)  // no --x/--y
        #expect(try Scrollctl.run(["scroll-to", "--y", "1", "--animation", "wobbly", "--socket", "/nonexistent.sock"]).status == 64)
        #expect(try Scrollctl.run(["watch", "--count", "0", "--socket", "/nonexistent.sock"]).status == 64)
        let help = try Scrollctl.run(["--help"])
        #expect(help.status == 0)
        for command in ["watch", "get", "scroll-to", "scroll-by", "configure", "pause", "resume", "devices", "reload", "ping"] {
            #expect(help.output.contains("  \(command) "), "\(command)")
            let sub = try Scrollctl.run([command, "--help"])
            #expect(sub.output.contains("--socket"), "\(command)")
        }
    }
}
