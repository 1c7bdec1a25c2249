#if canImport(Glibc)
import Glibc
#endif

/// What reaches standard output through stdio (ArgumentParser's help, version and usage texts)
/// is flushed when the process exits, where a failed write (`--help > /dev/full`) would go
/// unnoticed and the status stay 0: the check flushes it first and turns a failure into a
/// message and status 74 (EX_IOERR), as the tools' own output does. A closed pipe
/// (`--help | head -1`) ends quietly.
public enum StandardOutputCheck {
    /// Installs the check for this process (once, first thing in `main`).
    public static func install() {
        atexit {
            // Every stdio stream: standard output is the only one the tools write through stdio.
            guard fflush(nil) != 0 else { return }
            let reason = errno
            if reason == EPIPE { return }
            // An atexit handler captures nothing: the program's name comes from its arguments.
            let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "scrolld"
            let line = "\(program): cannot write output: \(String(cString: strerror(reason)))\n"
            _ = line.utf8CString.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
            _exit(74)
        }
    }
}
