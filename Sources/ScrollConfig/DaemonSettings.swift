import ScrollModel
/// `[daemon]`: where the daemon listens, which input it reads, and how often it draws frames.
public struct DaemonSettings: Hashable, Sendable {
    /// The socket path; nil: `$XDG_RUNTIME_DIR/scrolld/scrolld.sock`.
    public var socket: String?
    /// The udev seat; nil: `$XDG_SEAT`, else `seat0`.
    public var seat: String?
    /// Explicit device paths (libinput's path backend); empty: the seat.
    public var devices: [String] = []
    /// Device names never used.
    public var ignore: [String] = []
    public var frameRate: Double = 120
    /// Uids besides the daemon's own that may connect.
    public var allowUIDs: [UInt32] = []
    /// SCHED_RR priority of the event loop and input threads when the system permits it
    /// (1–99); 0: never ask. Read at start only.
    public var realtimePriority: Int = 10
    /// A file to record the live session into (docs/design.md §17), as `run --record`; nil: none.
    /// Read at start only.
    public var record: String?
    /// `record_limit_mb`: how large the recording may grow, MiB; it stops there, on a whole
    /// line, saying so (a client's requests are recorded, and nothing else bounds them). Read at
    /// start only.
    public var recordLimitMiB = 1024
    /// The range of `record_limit_mb`: a mebibyte to a tebibyte.
    public static let recordLimitRange = 1...1_048_576
    /// Whether input follows the user's logind session and the system's sleep (docs/design.md §15):
    /// devices closed while the user is not at the seat. Read at start only.
    public var followSession = true

    public init() {}

    /// The keys of `[daemon]` a running daemon reads only at start (its socket, its input
    /// backend, which devices it opens, its threads' priority) that differ from `old`: a
    /// reload puts everything else in force and says these wait for the next start.
    public func startOnlyChanges(from old: DaemonSettings) -> [String] {
        var changed: [String] = []
        if socket != old.socket { changed.append("daemon.socket") }
        if seat != old.seat { changed.append("daemon.seat") }
        if devices != old.devices { changed.append("daemon.devices") }
        if ignore != old.ignore { changed.append("daemon.ignore") }
        if realtimePriority != old.realtimePriority { changed.append("daemon.realtime_priority") }
        if record != old.record { changed.append("daemon.record") }
        if recordLimitMiB != old.recordLimitMiB { changed.append("daemon.record_limit_mb") }
        if followSession != old.followSession { changed.append("daemon.follow_session") }
        return changed
    }

    /// The longest socket path `sun_path` holds (108 bytes with its NUL). The daemon checks a
    /// path against it before it makes anything (SocketLocation), check-config before that.
    public static let maximumSocketPathLength = 107

    /// Why `path` is too long to be a Unix socket's, or nil.
    public static func socketPathLengthProblem(_ path: String) -> String? {
        path.utf8.count > maximumSocketPathLength ? "longer than the \(maximumSocketPathLength) bytes a Unix socket path may have" : nil
    }

    mutating func set(_ name: String, _ value: SettingValue, key: String) throws(ConfigurationError) {
        switch name {
        case "socket":
            // What the daemon needs to make it (SocketLocation): a directory part, and a path
            // `sun_path` holds.
            let path = try value.string(key)
            guard path.contains("/") else {
                throw ConfigurationError(key: key, message: "expected a socket path in a directory, like \"/run/user/1000/scrolld/scrolld.sock\", got \(value.rendered)")
            }
            if let problem = Self.socketPathLengthProblem(path) { throw ConfigurationError(key: key, message: problem) }
            socket = path
        case "seat": seat = try value.string(key)
        case "devices": devices = try value.strings(key)
        case "ignore": ignore = try value.strings(key)
        case "frame_rate":
            let rate = try value.number(key)
            guard rate >= 1, rate <= 1000 else { throw ConfigurationError(key: key, message: "must be between 1 and 1000 Hz, got \(value.rendered)") }
            frameRate = rate
        case "allow_uids":
            allowUIDs = try value.array(key).map { (item: SettingValue) throws(ConfigurationError) -> UInt32 in
                guard case .integer(let uid) = item, uid >= 0, uid <= Int(UInt32.max) else {
                    throw ConfigurationError(key: key, message: "expected uids (non-negative integers), got \(item.rendered)")
                }
                return UInt32(uid)
            }
        case "record":
            let path = try value.string(key)
            guard !path.isEmpty else { throw ConfigurationError(key: key, message: "expected a file name, got an empty string") }
            record = path
        case "record_limit_mb":
            guard case .integer(let limit) = value, Self.recordLimitRange.contains(limit) else {
                throw ConfigurationError(key: key, message: "must be an integer number of MiB from \(Self.recordLimitRange.lowerBound) to \(Self.recordLimitRange.upperBound), got \(value.rendered)")
            }
            recordLimitMiB = limit
        case "realtime_priority":
            guard case .integer(let priority) = value, (0...99).contains(priority) else {
                throw ConfigurationError(key: key, message: "must be an integer from 0 (off) to 99, got \(value.rendered)")
            }
            realtimePriority = priority
        case "follow_session": followSession = try value.bool(key)
        default:
            throw ConfigurationError(key: key, message: "unknown key in [daemon] (socket, seat, devices, ignore, frame_rate, allow_uids, realtime_priority, record, record_limit_mb, follow_session)")
        }
    }
}
