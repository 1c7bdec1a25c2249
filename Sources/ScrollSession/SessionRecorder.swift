import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol

/// Writes the commands a session applied as event log lines (docs/design.md §17,
/// docs/event-log.md), one line shape per kind of command:
///
/// - an input event as `record` writes it, stamped with the time it was applied at;
/// - a request that changed state: `{"t":T,"type":"request","client":N,"request":{…}}`;
/// - a configuration put in force: `{"t":T,"type":"reload","client":N,"configuration":{…}}`,
///   every assignment that decides the engine (``Configuration/engineAssignments``), so a
///   replay runs the daemon's containers whatever configuration file it finds;
/// - the desktop's settings put in force: `{"t":T,"type":"desktop","desktop":{…}}` (and a
///   reload line carries those in force as its `desktop`);
/// - what a restart took back: `{"t":T,"type":"restore","containers":[…],"focus":NAME|null}`.
///
/// The passing of time is not written: a replay runs the frames due before each line, as the
/// daemon did. Lines collect in ``pending``; the owner writes them out (the session does no
/// I/O).
public struct SessionRecorder: Sendable {
    /// Lines not yet written out, each ending in a newline.
    public private(set) var pending: [UInt8] = []
    private let writer = EventLogWriter()

    /// A recorder whose first line is `header`.
    public init(header: EventLogHeader) {
        writer.appendHeaderLine(header, to: &pending)
    }

    /// Hands over the lines collected so far.
    public mutating func takePending() -> [UInt8] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    mutating func record(_ event: ScrollEvent) {
        writer.appendLine(event, to: &pending)
    }

    mutating func record(_ operation: Operation, client: Int, at time: Timestamp) {
        beginLine(at: time, type: "request", client: client)
        pending.append(contentsOf: ",\"request\":".utf8)
        RequestEncoder.encode(Request(operation: operation), into: &pending)
        pending.append(contentsOf: "}\n".utf8)
    }

    mutating func recordReload(_ configuration: Configuration, client: Int, at time: Timestamp) {
        beginLine(at: time, type: "reload", client: client)
        pending.append(contentsOf: ",\"configuration\":".utf8)
        ProtocolValue.object(configuration.engineAssignments.map { ($0.key, ProtocolValue($0.value)) }).encode(into: &pending)
        if let desktop = configuration.desktop, !desktop.isEmpty {
            pending.append(contentsOf: ",\"desktop\":".utf8)
            desktop.recorded.encode(into: &pending)
        }
        pending.append(contentsOf: "}\n".utf8)
    }

    /// The desktop's settings put in force (docs/design.md §23):
    /// `{"t":T,"type":"desktop","desktop":{…}}`.
    mutating func recordDesktop(_ desktop: DesktopInput, at time: Timestamp) {
        beginLine(at: time, type: "desktop", client: nil)
        pending.append(contentsOf: ",\"desktop\":".utf8)
        desktop.recorded.encode(into: &pending)
        pending.append(contentsOf: "}\n".utf8)
    }

    /// No client can send a restore; only a recording holds it. Each container as
    /// ``RestoredContainer/recorded``.
    mutating func recordRestore(_ restoration: Restoration, at time: Timestamp) {
        beginLine(at: time, type: "restore", client: nil)
        pending.append(contentsOf: ",\"containers\":".utf8)
        ProtocolValue.array(restoration.containers.map(\.recorded)).encode(into: &pending)
        pending.append(contentsOf: ",\"focus\":".utf8)
        (restoration.focus.map(ProtocolValue.string) ?? .null).encode(into: &pending)
        pending.append(contentsOf: "}\n".utf8)
    }

    private mutating func beginLine(at time: Timestamp, type: String, client: Int?) {
        pending.append(contentsOf: "{\"t\":\(time),\"type\":\"\(type)\"".utf8)
        if let client { pending.append(contentsOf: ",\"client\":\(client)".utf8) }
    }
}
