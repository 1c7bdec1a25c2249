import ScrollModel

/// What a request asks for (DESIGN §7), with its arguments checked for type and range.
///
/// `scrollTo` and `scrollBy` move along `.smooth` when the request names no animation: the
/// default a SwiftUI user expects from `withAnimation`, and what a programmatic scroll in a
/// UI should look like; a client that wants a jump says `"animation":"none"`.
public enum Operation: Hashable, Sendable {
    /// `rate` is the most states per second the client wants (0 < rate ≤ 1000); nil: every one.
    case subscribe(container: String, rate: Double?)
    /// nil: every subscription of the connection.
    case unsubscribe(container: String?)
    case get(container: String)
    /// Creates or updates a container. `settings` are the request's setting keys in request
    /// order, normalised to configuration names (see `ConfigureSetting`); `animation` nil means
    /// the change applies at once.
    case configure(container: String, settings: [ConfigureSetting], animation: ScrollAnimation?)
    /// At least one axis is present, and every present value is finite.
    case scrollTo(container: String, target: AxisValues, animation: ScrollAnimation)
    case scrollBy(container: String, delta: AxisValues, animation: ScrollAnimation)
    case pause(container: String)
    case resume(container: String)
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
        case .devices: "devices"
        case .reload: "reload"
        case .ping: "ping"
        }
    }

    /// The container the operation addresses, if it addresses one.
    public var container: String? {
        switch self {
        case .subscribe(let container, _), .get(let container), .configure(let container, _, _),
             .scrollTo(let container, _, _), .scrollBy(let container, _, _), .pause(let container),
             .resume(let container):
            container
        case .unsubscribe(let container):
            container
        case .devices, .reload, .ping:
            nil
        }
    }
}
