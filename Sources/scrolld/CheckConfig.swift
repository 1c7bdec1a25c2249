import ArgumentParser
import FoundationEssentials
import ScrollConfig
import SystemPackage

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file.",
        discussion: """
            Without FILE, checks the file the daemon would use: \
            $XDG_CONFIG_HOME/scrolld/scrolld.toml, then scrolld/scrolld.toml under each of \
            $XDG_CONFIG_DIRS and /etc/xdg. Prints 'FILE: ok' and the containers it defines, or \
            'FILE:LINE: KEY: problem' on standard error and exits with status 1. A FILE that \
            cannot be read (missing, unreadable, a directory) is status 66, with the reason. What \
            is valid but applies to nothing (a device rule without `match`), and a key in a \
            deprecated spelling ('FILE:LINE: warning: KEY: deprecated spelling; use NEW'), \
            is a warning on standard error; the status stays 0.
            """
    )

    @Argument(help: ArgumentHelp("The file to check; default: the first one on the search path.", valueName: "FILE"))
    var file: String?

    func run() throws {
        var output = OutputStream.standardOutput
        defer { output.flush() }
        let path: String
        if let file {
            path = file
        } else {
            let search = ConfigurationSearchPath(environment: ProcessInfo.processInfo.environment)
            guard let found = search.locate() else {
                // Nothing to check is not a failure: the built-in defaults are valid.
                output.line("no configuration file (looked for \(search.candidates.joined(separator: ", "))); the built-in defaults apply")
                return
            }
            path = found
        }
        do {
            let configuration = try Configuration.load(contentsOf: path)
            output.line("\(path): ok")
            output.line("containers: \(configuration.containers.map { Configuration.printable($0.name) }.joined(separator: ", "))")
            // Before the warnings, so that on a terminal they follow what they qualify.
            output.flush()
            for warning in configuration.deprecations {
                standardError("\(path)\(warning.line.map { ":\($0)" } ?? ""): warning: \(warning.displayKey): \(warning.message)")
            }
            for warning in configuration.input.warnings { standardError("\(path): warning: \(warning)") }
        } catch {
            standardError(error.description)
            // The message says why either way; the status tells a file that is not there (or
            // cannot be read at all) from one that is wrong.
            throw ExitCode(Self.canOpen(path) ? 1 : 66)  // EX_NOINPUT
        }
    }

    /// Whether `path` opens for reading as a file (not a directory), as the configuration is read.
    static func canOpen(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec]) else { return false }
        defer { try? fd.close() }
        // Reading a directory fails with EISDIR; a file reads (an empty one gives 0 bytes).
        var byte: UInt8 = 0
        return (try? withUnsafeMutableBytes(of: &byte) { try fd.read(into: $0) }) != nil
    }
}
