#if canImport(Glibc)
import Glibc
#endif
import TOML

/// The exit statuses of scrollctl (sysexits.h where one fits).
enum ExitStatus: Int32 {
    case success = 0
    /// The daemon answered with an error, or `reload` refused the new configuration.
    case daemonError = 1
    /// A command line ArgumentParser refused (its own `validationFailure`).
    case usage = 64
    /// EX_UNAVAILABLE: no daemon on the socket, or it went away mid-conversation.
    case unavailable = 69
    /// EX_IOERR: stdout could not be written.
    case ioError = 74
    /// EX_TEMPFAIL: no reply within `--timeout`.
    case timeout = 75
    /// EX_PROTOCOL: the daemon said something this client cannot make sense of.
    case protocolError = 76
    /// EX_NOPERM: the daemon refused this uid (`forbidden`), or the socket is not ours to open.
    case forbidden = 77
}

/// Why a command could not be carried out: one line for stderr and the exit status.
struct ClientFailure: Error, CustomStringConvertible {
    var message: String
    var status: ExitStatus

    init(_ message: String, status: ExitStatus) {
        self.message = message
        self.status = status
    }

    var description: String { message }
}

/// Unbuffered writes to the standard descriptors (stdio's `stderr` is a global var, which
/// Swift 6 does not let us touch from any context).
enum Output {
    /// Writes all of `bytes` to `fd`. A reader that went away (`scrollctl watch | head`) ends
    /// the program quietly, as it would a filter.
    static func write(_ bytes: [UInt8], to fd: Int32 = STDOUT_FILENO) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { exit(0) }
                if fd == STDERR_FILENO { return }
                let reason = String(cString: strerror(errno))
                error("cannot write output: \(reason)")
                exit(ExitStatus.ioError.rawValue)
            }
            offset += n
        }
    }

    static func write(_ text: String, to fd: Int32 = STDOUT_FILENO) {
        write(Array(text.utf8), to: fd)
    }

    /// A name the daemon passes on from a client or a file (a container's, a rule's) as a line
    /// shows it: as it is when printable and short, else quoted with TOML's escapes, so that a
    /// newline or an escape sequence some client put in it never reaches the terminal.
    static func shown(_ name: String) -> String {
        TOMLKey.listed(name)
    }

    /// `scrollctl: MESSAGE` on stderr.
    static func error(_ message: String) {
        write("scrollctl: \(message)\n", to: STDERR_FILENO)
    }

    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
}
