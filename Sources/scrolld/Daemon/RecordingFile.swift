import ScrollDaemon
import SystemPackage

/// The file a live session is recorded into (`run --record`, `daemon.record`): created or
/// truncated at start, and written each time the loop has applied a batch of commands, so a
/// daemon killed mid-session leaves a log that replays up to its last complete line.
final class RecordingFile: RecordingSink, Sendable {
    let path: String
    private let descriptor: FileDescriptor

    /// Creates (or truncates) the file at `path`.
    init(path: String) throws {
        self.path = path
        descriptor = try FileDescriptor.open(
            FilePath(path), .writeOnly, options: [.create, .truncate, .closeOnExec],
            permissions: [.ownerReadWrite, .groupRead, .otherRead]
        )
    }

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
