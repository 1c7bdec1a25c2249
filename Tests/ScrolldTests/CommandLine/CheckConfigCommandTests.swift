import Foundation
import Testing

/// `check-config` and `devices` as a user meets them: the status the man page gives for a file
/// that is not there, and output that cannot be written (each found by a user's trial of every
/// command).
@Suite("scrolld check-config and devices: exit statuses")
struct CheckConfigCommandTests {
    /// A FILE that cannot be read is EX_NOINPUT, with the file and the reason; a file that is
    /// wrong stays status 1.
    @Test func aFileThatIsNotThereIs66AndNamesIt() throws {
        let missing = "/nonexistent/scrolld-\(UUID().uuidString).toml"
        let result = try Scrolld.run(["check-config", missing])
        #expect(result.status == 66, "\(result.stderr)")
        #expect(result.stderr == "\(missing): cannot read the configuration file: No such file or directory\n", "\(result.stderr)")
        #expect(result.stdout.isEmpty)

        let folder = FileManager.default.temporaryDirectory.path
        let directory = try Scrolld.run(["check-config", folder])
        #expect(directory.status == 66, "\(directory.stderr)")
        #expect(directory.stderr == "\(folder): cannot read the configuration file: Is a directory\n", "\(directory.stderr)")

        let wrong = try Scrolld.temporaryFile("[daemon]\nnosuch = 1\n", name: "scrolld.toml")
        let invalid = try Scrolld.run(["check-config", wrong])
        #expect(invalid.status == 1, "\(invalid.stderr)")
        #expect(invalid.stderr.hasPrefix("\(wrong):2: daemon.nosuch: unknown key"), "\(invalid.stderr)")
    }

    /// A file defines at most 1000 containers, `main` included: the 1001st is refused at its
    /// line with one message wherever the file is loaded. `check-config` said ok and `run`
    /// started a daemon of 1502 containers from sections (`[containers.cN]`), which only a
    /// reload refused, naming no file or line.
    @Test func aFileOfMoreThan1000ContainersIsRefusedAtTheLineOfThe1001st() throws {
        let sections = (0..<1500).map { "[containers.c\($0)]\n" }.joined()
        let file = try Scrolld.temporaryFile(sections, name: "scrolld.toml")
        let message = "\(file):1000: containers.c999: too many containers: the daemon holds at most 1000\n"
        let check = try Scrolld.run(["check-config", file])
        #expect(check.status == 1, "\(check.stderr)")
        #expect(check.stderr == message, "\(check.stderr)")
        #expect(check.stdout.isEmpty)
        let replay = try Scrolld.run(["replay", Scrolld.example("demo.scrolllog"), "--config", file])
        #expect(replay.status == 78, "\(replay.stderr)")
        #expect(replay.stderr == "scrolld: " + message, "\(replay.stderr)")
        let run = try Scrolld.runDaemon([], config: file)
        #expect(run.status == 78, "\(run.stderr)")
        #expect(run.stderr.contains("critical: " + message), "\(run.stderr)")
        #expect(!run.stderr.contains("listening on"), "\(run.stderr)")
        // 1000 with `main` is the most a file holds.
        let most = try Scrolld.temporaryFile((0..<999).map { "[containers.c\($0)]\n" }.joined(), name: "scrolld.toml")
        let fits = try Scrolld.run(["check-config", most])
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(fits.lines.first == "\(most): ok")
    }

    /// `> /dev/full`: the write fails, which the command says, with EX_IOERR; it used to end
    /// with 0 and nothing said, the lines lost.
    @Test(arguments: [
        ["check-config", "CONFIG"],
        ["devices", "--config", "/dev/null", "--seat", "scrolld-test-no-such-seat"],
        ["--help"],
        ["check-config", "--help"],
    ])
    func outputThatCannotBeWrittenIs74(arguments: [String]) throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let config = try Scrolld.temporaryFile("[containers.side]\n", name: "scrolld.toml")
        let result = try Scrolld.run(arguments.map { $0 == "CONFIG" ? config : $0 }, stdoutTo: "/dev/full")
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("scrolld: cannot write output: No space left on device\n"), "\(arguments): \(result.stderr)")
    }

    /// scrollctl's help and version, which ArgumentParser prints through stdio, were lost with
    /// status 0 (a user's trial): 74 and the reason, as scrolld's.
    @Test(arguments: [["--help"], ["--version"], ["watch", "--help"]])
    func scrollctlsHelpThatCannotBeWrittenIs74(arguments: [String]) throws {
        try #require(FileManager.default.fileExists(atPath: "/dev/full"))
        let result = try Scrolld.run(arguments, stdoutTo: "/dev/full", executable: Scrollctl.binary)
        #expect(result.status == 74, "\(arguments): \(result.stderr)")
        #expect(result.stderr == "scrollctl: cannot write output: No space left on device\n", "\(arguments): \(result.stderr)")
    }

    /// The same commands with somewhere to write: status 0 and their lines.
    @Test func theSameCommandsWriteTheirLines() throws {
        let config = try Scrolld.temporaryFile("[containers.side]\n", name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.lines == ["\(config): ok", "containers: main, side"])
        let devices = try Scrolld.run(["devices", "--config", "/dev/null", "--seat", "scrolld-test-no-such-seat"])
        #expect(devices.status == 0, "\(devices.stderr)")
        #expect(devices.lines == ["No usable scroll devices."], "\(devices.lines)")
    }

    /// A container name may hold a control character; the list prints it escaped, so that
    /// each line printed is printable text (a terminal escape in a name is not obeyed).
    @Test func aControlCharacterInAContainerNameIsPrintedEscaped() throws {
        let file = try Scrolld.temporaryFile("[containers.\"a\\nb\\u001b[2J\"]\n", name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", file])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.lines == ["\(file): ok", "containers: main, \"a\\nb\\u001B[2J\""], "\(check.lines)")
    }

    /// A 1 MiB value is quoted cut: the error is one short line naming file, line and key.
    @Test func aLongValueIsQuotedCut() throws {
        let value = String(repeating: "x", count: 1 << 20)
        let file = try Scrolld.temporaryFile("[physics]\nwheel_animation = \"\(value)\"\n", name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", file])
        #expect(check.status == 1)
        #expect(check.stderr.utf8.count <= 1_000, "\(check.stderr.utf8.count) bytes")
        #expect(check.stderr.hasPrefix("\(file):2: physics.wheel_animation: "))
        #expect(check.stderr.hasSuffix("…\" (1048576 bytes)\n"))
    }
}
