import ScrollJSON

/// Line 1 of an event log (docs/design.md §3):
/// `{"format":"scrolld-events","version":1,"created":"<RFC 3339>","source":"<free text>"}`.
public struct EventLogHeader: Hashable, Sendable {
    /// The `format` every event log declares.
    public static let formatName = "scrolld-events"
    /// The one version this library reads and writes.
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// When the log was recorded (RFC 3339), as written; readers tolerate its absence.
    public var created: String?
    /// Free text about where the log comes from; readers tolerate its absence.
    public var source: String?

    public init(
        format: String = EventLogHeader.formatName,
        version: Int = EventLogHeader.currentVersion,
        created: String? = nil,
        source: String? = nil
    ) {
        self.format = format
        self.version = version
        self.created = created
        self.source = source
    }
}
