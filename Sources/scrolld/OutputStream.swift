import SystemPackage

/// Buffered output to a file descriptor: states are appended as bytes and written in large
/// chunks, so replaying a million events costs a few hundred `write(2)` calls, not a million.
///
/// Every command's standard output goes through one (`replay`'s states, `check-config`'s and
/// `devices`' lines), so a write that fails (`> /dev/full`) is reported and ends the command
/// with status 74 (EX_IOERR) instead of passing unnoticed. What ArgumentParser prints itself
/// (help, version) goes through stdio: ``StandardOutputCheck`` covers that.
struct OutputStream {
    let fd: FileDescriptor
    var buffer: [UInt8] = []
    let capacity: Int

    init(fd: FileDescriptor, capacity: Int = 1 << 16) {
        self.fd = fd
        self.capacity = capacity
        buffer.reserveCapacity(capacity + 1024)
    }

    static var standardOutput: OutputStream { OutputStream(fd: .standardOutput) }

    mutating func flushIfFull() {
        if buffer.count >= capacity { flush() }
    }

    /// Appends `text` and a newline; written once the buffer is full or at `flush()`.
    mutating func line(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        buffer.append(UInt8(ascii: "\n"))
        flushIfFull()
    }

    /// Writes everything buffered. A closed pipe (`scrolld replay … | head`) ends quietly.
    mutating func flush() {
        guard !buffer.isEmpty else { return }
        do {
            _ = try buffer.withUnsafeBytes { try fd.writeAll($0) }
        } catch Errno.brokenPipe {
            exit(0)
        } catch {
            standardError("scrolld: cannot write output: \(error)")
            exit(74)
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// One line on standard error, unbuffered, for diagnostics.
func standardError(_ message: String) {
    var line = message
    line += "\n"
    _ = try? FileDescriptor.standardError.writeAll(line.utf8)
}
