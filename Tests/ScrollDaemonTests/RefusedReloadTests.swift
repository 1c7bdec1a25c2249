import Foundation
import Logging
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import Testing

/// A refused reload says why as `check-config` and the start would, `FILE:LINE: KEY: message`
/// (docs/config.md, "Reload"), and keeps the configuration in force.
@Suite("Refused reloads name the file")
struct RefusedReloadTests {
    /// A folder of its own (the tests run at once), with the file in force.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("refused-reload-\(UUID().uuidString)")
    var file: String { folder.appendingPathComponent("scrolld.toml").path }

    /// A core serving the file `text` (written first), read from it as the daemon's start does.
    private func core(_ text: String) throws -> DaemonCore {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let source = ConfigurationFileSource(explicitPath: file, environment: [:])
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return try DaemonCore(
            eventLoop: EmbeddedEventLoop(), configuration: source.load().configuration, from: file, source: source,
            serverName: "scrolld test", logger: logger
        )
    }

    /// The 1001st container of a file is refused at its line, with the message `check-config`
    /// and the start give (the reload said "containers: too many containers: …", naming no file
    /// or line).
    @Test func aFileOfMoreThan1000ContainersIsRefusedAtTheLineOfThe1001st() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let core = try core("[containers.side]\n")
        try (0..<1001).map { "[containers.c\($0)]\n" }.joined().write(toFile: file, atomically: true, encoding: .utf8)
        let expected = "\(file):1000: containers.c999: too many containers: the daemon holds at most 1000"
        let result = try core.reload().wait()
        #expect(result.ok == false)
        #expect(result.file == file)
        #expect(result.message == expected)
        #expect(core.session.configuration.containers.map(\.name) == ["main", "side"])
        // As the start (`run`, `replay --config`) and `check-config` load it.
        let atStart = #expect(throws: ConfigurationError.self) { try ConfigurationFileSource(explicitPath: file, environment: [:]).load() }
        #expect(atStart?.description == expected)
        let checked = #expect(throws: ConfigurationError.self) { try Configuration.load(contentsOf: file) }
        #expect(checked?.description == expected)
    }

    /// A link to a directory put where the file was is a directory, not a removed file.
    @Test func aLinkToADirectoryInPlaceOfTheFileIsSaidToBeADirectory() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let core = try core("[containers.main]\ncontainerSize = \"800x500\"\n")
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: folder.path)
        let result = try core.reload().wait()
        #expect(result.ok == false)
        #expect(result.message == "\(file): the configuration file in force is now a directory; keeping it (write the file again, or restart scrolld to use another)")
        #expect(core.session.configuration.container(named: "main")?.containerSize.height == 500)
        // Removed, it says so.
        try FileManager.default.removeItem(atPath: file)
        let removed = try core.reload().wait()
        #expect(removed.message == "\(file): the configuration file in force was removed; keeping it (write the file again, or restart scrolld to use another)")
    }
    /// A symbolic link loop in place of the file is said as the system says it, and the last
    /// good configuration stays.
    @Test func aLinkLoopInPlaceOfTheFileIsSaidAsTheSystemSaysIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let core = try core("[containers.main]\ncontainerSize = \"800x500\"\n")
        let loopA = folder.appendingPathComponent("loopa").path
        let loopB = folder.appendingPathComponent("loopb").path
        try FileManager.default.createSymbolicLink(atPath: loopA, withDestinationPath: loopB)
        try FileManager.default.createSymbolicLink(atPath: loopB, withDestinationPath: loopA)
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: loopA)
        let result = try core.reload().wait()
        #expect(result.ok == false)
        #expect(result.message == "\(file): the configuration file in force cannot be reached: Too many levels of symbolic links; keeping it (write the file again, or restart scrolld to use another)")
        #expect(core.session.configuration.container(named: "main")?.containerSize.height == 500)
    }
}
