import ScrollDaemon
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The file a live session is recorded into (`run --record`, `daemon.record`): created or
/// truncated at start, and written each time the loop has applied a batch of commands, so a
/// daemon killed mid-session leaves a log that replays up to its last complete line.
///
/// Only a regular file: the loop writes it, and a FIFO, a pipe (`/dev/stdout` into one) or a
/// terminal whose reader stops reading would block that write, and with it the daemon, for
/// good; a FIFO without a reader would block the open itself, before the socket exists.
final class RecordingFile: RecordingSink, Sendable {
    let path: String
    private let descriptor: FileDescriptor

    /// Why the file cannot be recorded into.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates (or truncates) the regular file at `path`. What the path names is checked on
    /// the open descriptor, so nothing can take its place between the check and the writes.
    init(path: String) throws(Refusal) {
        self.path = path
        // Non-blocking: opening a FIFO waits for a reader otherwise. Not truncated in the
        // open: a path that names something else is left as it was.
        let raw = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC | O_NOCTTY, 0o644)
        guard raw >= 0 else {
            // ENXIO: a FIFO (or a socket) with no reader, which a blocking open would wait on.
            throw Refusal(description: errno == ENXIO ? Self.notRegular : String(cString: strerror(errno)))
        }
        var status = stat()
        guard fstat(raw, &status) == 0 else {
            let reason = String(cString: strerror(errno))
            close(raw)
            throw Refusal(description: reason)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(raw)
            throw Refusal(description: Self.notRegular)
        }
        guard ftruncate(raw, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            close(raw)
            throw Refusal(description: reason)
        }
        descriptor = FileDescriptor(rawValue: raw)
    }

    /// Said as the configuration reader says it of a FIFO (ScrollConfig's ConfigurationFile.swift).
    static let notRegular = "not a regular file"

    deinit {
        try? descriptor.close()
    }

    /// Appends `bytes` (whole lines); the error, described, when they could not all be
    /// written. What a failed write left of them (a full disk takes part) is cut back off, so
    /// the recording ends on a whole line and replays without a warning.
    func write(_ bytes: [UInt8]) -> String? {
        let end = try? descriptor.seek(offset: 0, from: .current)
        do {
            _ = try descriptor.writeAll(bytes)
            return nil
        } catch {
            if let end {
                _ = try? descriptor.resize(to: end)
                _ = try? descriptor.seek(offset: end, from: .start)
            }
            return "\(error)"
        }
    }
}
