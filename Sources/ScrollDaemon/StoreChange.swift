import ScrollProtocol

/// What a request changes in the session's document.
enum StoreChange {
    /// Nothing: a read, or a scroll (which changes only its container's slot, written as it
    /// publishes), or a reload (which rewrites the document itself, `apply`).
    case none
    /// The connection's own part: its subscriptions or observations.
    case connection
    /// The containers (and with them, possibly, every connection's subscriptions), and whose
    /// settings.
    case session(ChangedSettings)
}

extension Operation {
    var storeChange: StoreChange {
        switch self {
        case .configure(let container, _, _, _): return .session(.container(container))
        case .pause, .resume, .remove, .focus: return .session(.unchanged)
        case .subscribe, .unsubscribe, .observe, .unobserve: return .connection
        case .scrollTo, .scrollBy, .beginRefresh, .endRefresh, .flashIndicators, .get, .devices, .reload, .ping: return .none
        }
    }
}
