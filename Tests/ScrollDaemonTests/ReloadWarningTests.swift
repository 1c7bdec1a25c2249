import Foundation
import Logging
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import Testing

/// A key in a deprecated spelling still applies, and the daemon says which key to write
/// instead: in the reply of a reload (and the log, at start and at every reload).
@Suite("Deprecated spellings on reload")
struct ReloadWarningTests {
    @Test func aReloadOfAFileWithAnOldSpellingAppliesItAndNamesTheNewKey() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reload-warning-\(getpid()).toml")
        try "[containers.main]\ncontainer_size = { width = 320, height = 240 }\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let source = ConfigurationFileSource(explicitPath: file.path, environment: [:])
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let core = try DaemonCore(
            eventLoop: EmbeddedEventLoop(), configuration: .defaults, source: source, serverName: "scrolld test", logger: logger
        )
        let result = try core.reload().wait()
        #expect(result.ok)
        #expect(result.message.hasSuffix("; warning: \(file.path):2: containers.main.container_size: deprecated spelling; use containers.main.containerSize"), "\(result.message)")
        #expect(core.session.engine.slots[0].container.configuration.containerSize.width == 320)
    }
}
