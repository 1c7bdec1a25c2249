import ScrollModel
import ScrollProtocol

/// One container as a restart takes it back (docs/design.md §16): its settings, and where its last
/// published state left it.
public struct RestoredContainer: Hashable, Sendable {
    public var name: String
    /// Its `containers.NAME.*` keys (relative to `containers.NAME`), every one written out.
    public var settings: [ConfigureSetting]
    /// The `seq` of its last published state: the next state it publishes has one more.
    public var seq: Int
    /// The offset of its last published state.
    public var offset: Point
    public var paused: Bool
    /// A refresh was running (docs/design.md §21): it runs on, the top of the resting range at
    /// `lo − r`, so a container held there stays there.
    public var refreshing: Bool
    /// An `enterAlways` header's height in its last published state (docs/design.md §21): the
    /// quick-return header comes back as far out as it was. Nil: no such header.
    public var headerHeight: Double?

    public init(name: String, settings: [ConfigureSetting], seq: Int, offset: Point, paused: Bool, refreshing: Bool = false, headerHeight: Double? = nil) {
        self.name = name
        self.settings = settings
        self.seq = seq
        self.offset = offset
        self.paused = paused
        self.refreshing = refreshing
        self.headerHeight = headerHeight
    }
}

extension RestoredContainer {
    /// As a recorded `restore` holds it:
    /// `{"container":NAME,"seq":N,"x":X,"y":Y,"paused":BOOL,"settings":{KEY:VALUE,…}}`, with
    /// `"refreshing":true` and `"headerHeight":H` when there is one (a log recorded before
    /// them reads as neither).
    var recorded: ProtocolValue {
        var members: [(String, ProtocolValue)] = [
            ("container", .string(name)),
            ("seq", .integer(seq)),
            ("x", .double(offset.x)),
            ("y", .double(offset.y)),
            ("paused", .bool(paused)),
        ]
        if refreshing { members.append(("refreshing", .bool(true))) }
        if let headerHeight { members.append(("headerHeight", .double(headerHeight))) }
        members.append(("settings", .object(settings.map { ($0.key, $0.value) })))
        return .object(members)
    }

    /// Reads ``recorded`` back; a member missing or of the wrong kind is named.
    init(recorded value: ProtocolValue) throws(ProtocolError) {
        func missing(_ member: String, _ kind: String) -> ProtocolError {
            ProtocolError(.invalidValue, "a recorded restore's container needs \"\(member)\" (\(kind))")
        }
        func number(_ member: String) throws(ProtocolError) -> Double {
            switch value[member: member] {
            case .integer(let i)?: return Double(i)
            case .double(let d)?: return d
            default: throw missing(member, "a number")
            }
        }
        guard case .string(let name)? = value[member: "container"] else { throw missing("container", "a name") }
        guard case .integer(let seq)? = value[member: "seq"], Limits.sequence.contains(seq) else { throw missing("seq", "an integer from 0 to 2^53") }
        guard case .bool(let paused)? = value[member: "paused"] else { throw missing("paused", "true or false") }
        guard case .object(let members)? = value[member: "settings"] else { throw missing("settings", "an object") }
        let refreshing: Bool
        switch value[member: "refreshing"] {
        case nil: refreshing = false
        case .bool(let on)?: refreshing = on
        default: throw missing("refreshing", "true or false")
        }
        let headerHeight = value[member: "headerHeight"] == nil ? nil : try number("headerHeight")
        self.init(
            name: name,
            settings: members.map { ConfigureSetting(key: $0.0, value: $0.1) },
            seq: seq,
            offset: Point(x: try number("x"), y: try number("y")),
            paused: paused,
            refreshing: refreshing,
            headerHeight: headerHeight
        )
    }
}
