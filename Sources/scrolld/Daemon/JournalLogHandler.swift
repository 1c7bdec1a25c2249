import Logging
#if canImport(Glibc)
import Glibc
#endif

/// Logs one line per message on stderr. Under systemd (`JOURNAL_STREAM` set) each line starts
/// with its syslog priority as `<N>`, which journald turns into the entry's level; on a
/// terminal it prints the level's name instead.
struct JournalLogHandler: LogHandler {
    let label: String
    let journal: Bool
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    init(label: String, journal: Bool) {
        self.label = label
        self.journal = journal
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    func log(event: LogEvent) {
        var line = journal ? "<\(Self.priority(event.level))>" : "scrolld: \(event.level): "
        line += "\(event.message)"
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        if !all.isEmpty {
            line += " " + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        line += "\n"
        // One write(2) per line, so lines from concurrent writers never interleave.
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }
}
