import ArgumentParser
import FoundationEssentials
import ScrollConfig

struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration file.",
        discussion: """
            Without FILE, checks the file the daemon would use: \
            $XDG_CONFIG_HOME/scrolld/scrolld.toml, then scrolld/scrolld.toml under each of \
            $XDG_CONFIG_DIRS and /etc/xdg. Prints 'FILE: ok' and the containers it defines, or \
            'FILE:LINE: KEY: problem' on standard error and exits with status 1. What is \
            valid but applies to nothing (a device rule without `match`), and a key in a \
            deprecated spelling ('FILE:LINE: warning: KEY: deprecated spelling; use NEW'), \
            is a warning on standard error; the status stays 0.
            """
    )

    @Argument(help: ArgumentHelp("The file to check; default: the first one on the search path.", valueName: "FILE"))
    var file: String?

    func run() throws {
        let path: String
        if let file {
            path = file
        } else {
            let search = ConfigurationSearchPath(environment: ProcessInfo.processInfo.environment)
            guard let found = search.locate() else {
                // Nothing to check is not a failure: the built-in defaults are valid.
                print("no configuration file (looked for \(search.candidates.joined(separator: ", "))); the built-in defaults apply")
                return
            }
            path = found
        }
        do {
            let configuration = try Configuration.load(contentsOf: path)
            print("\(path): ok")
            print("containers: \(configuration.containers.map(\.name).joined(separator: ", "))")
            for warning in configuration.deprecations {
                standardError("\(path)\(warning.line.map { ":\($0)" } ?? ""): warning: \(warning.displayKey): \(warning.message)")
            }
            for warning in configuration.input.warnings { standardError("\(path): warning: \(warning)") }
        } catch {
            standardError(error.description)
            throw ExitCode(1)
        }
    }
}
