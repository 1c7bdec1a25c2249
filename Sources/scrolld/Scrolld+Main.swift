import ArgumentParser
import ScrollPOSIX
#if canImport(Glibc)
import Glibc
#endif

extension Scrolld {
    /// ArgumentParser's `main()`, except for two things. A usage error a subcommand finds while
    /// it runs (a `--set` key the configuration refuses, a `--focus` on no container) shows that
    /// subcommand's usage line, as one its `validate()` finds does: ArgumentParser knows the
    /// subcommand only while it parses, and would show the top-level `scrolld <subcommand>`.
    /// And standard output is checked when the process ends (``StandardOutputCheck``).
    static func main() {
        StandardOutputCheck.install()
        var command: ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)
        }
        do {
            try command.run()
        } catch let error as ValidationError {
            exitWithUsage(error, of: type(of: command))
        } catch {
            exit(withError: error)
        }
    }

    /// Says `error` with `subcommand`'s usage, as ArgumentParser says a `validate()` error,
    /// and exits with status 64 (EX_USAGE).
    static func exitWithUsage(_ error: ValidationError, of subcommand: ParsableCommand.Type) -> Never {
        guard subcommand != Scrolld.self, let name = subcommand.configuration.commandName else { exit(withError: error) }
        standardError("""
            Error: \(error.message)
            Usage: \(usageString(for: subcommand))
              See 'scrolld \(name) --help' for more information.
            """)
        Glibc.exit(ExitCode.validationFailure.rawValue)
    }
}
