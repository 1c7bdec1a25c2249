import ScrollModel

/// A line from the daemon, decoded by `ReplyDecoder`.
public enum Reply: Hashable, Sendable {
    case welcome(protocol: Int, server: String, containers: [String])
    case ok(id: RequestID?)
    case pong(id: RequestID?)
    /// `code` as sent, so that codes from a newer daemon still arrive (see `ErrorCode`).
    case error(code: String, message: String, id: RequestID?)
    /// A `get` reply (with the request's id) or a broadcast to a subscriber (without).
    case state(StateLine)
    /// `input` is nil when the daemon did not say (one older than docs/design.md §15);
    /// `focus` is nil when it did not say, `.some(nil)` when no container has the focus (docs/design.md §14).
    /// `reducedMotion`: the effective reduced motion and its source (docs/design.md §23), nil
    /// when the daemon did not say.
    case devices(id: RequestID?, devices: [DeviceInfo], input: InputState?, focus: String?? = nil, reducedMotion: DesktopInput.Sourced<Bool>? = nil)
    case reloaded(id: RequestID?, result: ReloadResult)
    /// docs/design.md §13: an observed value changed (or its first value).
    case observation(ObservationMessage)
    /// docs/design.md §19: the container was removed; a subscription to it has ended.
    case removed(container: String)
    /// A type this client does not know, from a newer daemon; such lines are safe to ignore.
    case unknown(type: String)

    /// The id of the request this answers, if any.
    public var id: RequestID? {
        switch self {
        case .ok(let id), .pong(let id), .error(_, _, let id), .devices(let id, _, _, _, _), .reloaded(let id, _): id
        case .state(let line): line.id
        case .observation(let message): message.id
        case .welcome, .removed, .unknown: nil
        }
    }
}
