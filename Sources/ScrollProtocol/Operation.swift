import ScrollModel

/// What a request asks for (docs/design.md §7), with its arguments checked for type and range.
///
/// `scrollTo` and `scrollBy` move along `.smooth` when the request names no animation: the
/// default a SwiftUI user expects from `withAnimation`, and what a programmatic scroll in a
/// UI should look like; a client that wants a jump says `"animation":"none"`.
public enum Operation: Hashable, Sendable {
    /// `rate` is the most states per second the client wants (0 < rate ≤ 1000); nil: every one.
    /// `wait`: a container that does not exist (yet, or any more) is waited for instead of
    /// refused (docs/design.md §20).
    case subscribe(container: String, rate: Double?, wait: Bool = false)
    /// nil: every subscription of the connection.
    case unsubscribe(container: String?)
    case get(container: String)
    /// Creates or updates a container. `settings` are the request's setting keys in request
    /// order, normalised to configuration names (see `ConfigureSetting`); `animation` nil means
    /// the change applies at once. `owned`: the container lives as long as the connection that
    /// creates it (docs/design.md §19).
    case configure(container: String, settings: [ConfigureSetting], animation: ScrollAnimation?, owned: Bool = false)
    /// Coordinates, a row with an optional anchor, or an edge (docs/design.md §7, §12): at least
    /// one is present, and every present number is finite.
    case scrollTo(container: String, position: ScrollPosition, animation: ScrollAnimation)
    case scrollBy(container: String, delta: AxisValues, animation: ScrollAnimation)
    case pause(container: String)
    case resume(container: String)
    /// Removes a container a request created (docs/design.md §19).
    case remove(container: String)
    /// Starts a refresh without a pull (docs/design.md §21).
    case beginRefresh(container: String)
    /// Ends the refresh: the container springs back to the top if it rests beyond it.
    case endRefresh(container: String)
    /// docs/design.md §22: the container's scroll indicators show for their linger time.
    case flashIndicators(container: String)
    /// docs/design.md §14: input not bound to a container by device goes to `container` (and along
    /// its chain) only; nil: to every container, as by default.
    case focus(container: String?)
    /// docs/design.md §13: hear `observation` of `container` whenever it changes; `id` (required)
    /// names it on the connection; `wait` as for `subscribe` (docs/design.md §20).
    case observe(container: String, observation: ScrollObservation, id: RequestID, wait: Bool = false)
    /// Ends the observation named `id`.
    case unobserve(id: RequestID)
    case devices
    case reload
    case ping

    /// The `op` of the request.
    public var name: String {
        switch self {
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .get: "get"
        case .configure: "configure"
        case .scrollTo: "scrollTo"
        case .scrollBy: "scrollBy"
        case .pause: "pause"
        case .resume: "resume"
        case .remove: "remove"
        case .beginRefresh: "beginRefresh"
        case .endRefresh: "endRefresh"
        case .flashIndicators: "flashIndicators"
        case .focus: "focus"
        case .observe: "observe"
        case .unobserve: "unobserve"
        case .devices: "devices"
        case .reload: "reload"
        case .ping: "ping"
        }
    }

    /// The container the operation addresses, if it addresses one.
    public var container: String? {
        switch self {
        case .subscribe(let container, _, _), .get(let container), .configure(let container, _, _, _),
             .scrollTo(let container, _, _), .scrollBy(let container, _, _), .pause(let container),
             .resume(let container), .remove(let container), .observe(let container, _, _, _),
             .beginRefresh(let container), .endRefresh(let container), .flashIndicators(let container):
            container
        case .unsubscribe(let container), .focus(let container):
            container
        case .unobserve, .devices, .reload, .ping:
            nil
        }
    }

    /// `scrollTo` coordinates (the form docs/design.md §7 gave first).
    public static func scrollTo(container: String, target: AxisValues, animation: ScrollAnimation) -> Operation {
        .scrollTo(container: container, position: ScrollPosition(x: target.x, y: target.y), animation: animation)
    }
}
