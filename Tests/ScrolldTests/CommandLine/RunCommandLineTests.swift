import Foundation
import Testing

/// `scrolld run`'s command line as a user meets it (each case found by a user's trial of every
/// command): what it refuses, with which status and message, and what `--container` alone does.
@Suite("scrolld run: the command line", .serialized)
struct RunCommandLineTests {
    static let usage = "Usage: scrolld run <options>\n  See 'scrolld run --help' for more information.\n"

    /// Runs `scrolld run ARGUMENTS` and expects a usage error: status 64, `message` on standard
    /// error and then `run`'s usage.
    static func expectUsageError(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try Scrolld.runDaemon(arguments)
        #expect(result.status == 64, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr == message + usage, "\(result.stderr)", sourceLocation: sourceLocation)
    }

    /// A command-line value the configuration refuses is a usage error (64) with `run`'s usage,
    /// not the EX_CONFIG of a bad file (78), which the man page keeps for the file.
    @Test func aSetKeyTheConfigurationRefusesIsAUsageError() throws {
        try Self.expectUsageError(["--set", "nosuch.key=1"], "Error: nosuch.key: unknown key (sections: daemon, web, physics, input, containers.NAME)\n")
        // Checked as a file's keys are once all are set: a parent that does not exist.
        let parent = try Scrolld.runDaemon(["--set", "containers.main.parent=nosuch"])
        #expect(parent.status == 64, "\(parent.stderr)")
        #expect(parent.stderr.hasPrefix("Error: containers.main.parent: no container \"nosuch\" to nest in"), "\(parent.stderr)")

        let file = try Scrolld.temporaryFile("[daemon]\nnosuch = 1\n", name: "scrolld.toml")
        let badFile = try Scrolld.runDaemon(["--set", "nosuch.key=1"], config: file)
        #expect(badFile.status == 78, "\(badFile.stderr)")
        #expect(badFile.stderr.contains("critical: \(file):2: daemon.nosuch: unknown key in [daemon]"), "\(badFile.stderr)")
    }

    /// `--set` takes any configuration key, a table's keys one at a time included
    /// (`touch_frame.x`, as `refresh.threshold`): `touch_frame.x` alone was refused as an unknown
    /// container key by a list that named `touch_frame`. A frame given in part is refused at
    /// the key it lacks; the keys given whole are in force, and stay so through a reload.
    @Test func setTakesTheKeysOfATableOneAtATime() throws {
        try Self.expectUsageError(["--set", "containers.main.touch_frame.x=0"], "Error: containers.main.touch_frame.y: touch_frame needs x, y, width and height\n")
        try Self.expectUsageError(["--set", "containers.main.touch_frame.depth=1"], "Error: containers.main.touch_frame.depth: unknown touch_frame key (x, y, width, height)\n")
        let notATable = try Scrolld.runDaemon(["--set", "containers.main.axes.x=1"])
        #expect(notATable.status == 64, "\(notATable.stderr)")
        #expect(notATable.stderr.hasPrefix("Error: containers.main.axes.x: unknown container key (containerSize.*, contentSize.*, insets.*, axes, scroll_target, anchor, devices, parent, overscroll, touch_frame.*, "), "\(notATable.stderr)")

        let whole = ["x=0", "y=0", "width=0.5", "height=1", "x=0.5"].flatMap { ["--set", "containers.main.touch_frame.\($0)"] }
        let sizes = ["--set", "containers.main.containerSize.width=400", "--set", "containers.main.insets.top=30"]
        let daemon = try DaemonProcess(config: "[containers.main]\ncontainerSize = \"800x500\"\n", arguments: whole + sizes)
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        for id in 1...2 {
            let state = try #require(client.request(["op": "get", "container": "main"], id: id))
            #expect(state.number("containerSize", "width") == 400, "\(state)")
            #expect(state.number("containerSize", "height") == 500, "\(state)")
            #expect(state.number("contentInsets", "top") == 30, "\(state)")
            #expect(client.request(["op": "reload"], id: 10 + id)?["ok"] as? Bool == true)
        }
        #expect(daemon.stop() == 0)
    }

    /// `--replay` feeds a log instead of devices: `--device` and `--fallback-replay` with it
    /// would be ignored, so they are refused, naming both options.
    @Test func replayExcludesDeviceAndFallbackReplay() throws {
        let log = Scrolld.example("demo.scrolllog")
        try Self.expectUsageError(["--replay", log, "--device", "/dev/null"], "Error: --device and --replay exclude each other: --replay feeds the log instead of devices\n")
        try Self.expectUsageError(["--replay", log, "--fallback-replay", log], "Error: --fallback-replay and --replay exclude each other: --replay reads no device to fall back from\n")
    }

    /// A `--device` that is not there stops the daemon at once, with the path and the system's
    /// reason (EX_NOINPUT), instead of serving on with libinput's "could not use it".
    @Test func aDeviceThatIsNotThereIs66WithThePathAndTheReason() throws {
        let missing = "/nonexistent/scrolld-test-event0"
        let result = try Scrolld.runDaemon(["--device", missing])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr.contains("scrolld: critical: cannot use --device \(missing): No such file or directory\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("listening on"), "\(result.stderr)")
        let folder = FileManager.default.temporaryDirectory.path
        let directory = try Scrolld.runDaemon(["--device", folder])
        #expect(directory.status == 66, "\(directory.stderr)")
        #expect(directory.stderr.contains("cannot use --device \(folder): not a device node"), "\(directory.stderr)")
    }

    /// `--container NAME` alone creates container NAME with the built-in defaults (it used to
    /// create nothing, while the help said it drove it), still there after a reload.
    @Test func containerAloneCreatesTheContainer() throws {
        let daemon = try DaemonProcess(arguments: ["--container", "side"])
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        let state = try #require(client.request(["op": "get", "container": "side"], id: 1))
        #expect(state["type"] as? String == "state", "\(state)")
        #expect(state.number("containerSize", "height") == 600)
        #expect(state.number("contentSize", "height") == 20000)
        #expect(client.request(["op": "reload"], id: 2)?["type"] as? String == "reloaded")
        #expect(client.request(["op": "get", "container": "side"], id: 3)?["type"] as? String == "state")
        let help = try Scrolld.run(["run", "--help"])
        #expect(help.output.contains("--container NAME alone creates"), "\(help.output)")
    }

    /// ... and changes nothing of a container the configuration defines.
    @Test func containerAloneKeepsTheConfiguredShape() throws {
        let daemon = try DaemonProcess(config: "[containers.side]\ncontainerSize = \"300x200\"\n", arguments: ["--container", "side"])
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        let state = try #require(client.request(["op": "get", "container": "side"], id: 1))
        #expect(state.number("containerSize", "width") == 300, "\(state)")
        #expect(state.number("containerSize", "height") == 200, "\(state)")
    }
}
