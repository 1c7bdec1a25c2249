import NIOCore
import ScrollModel
import ScrollProtocol
import Synchronization

/// What a ``Connection`` keeps: requests waiting, subscriptions shared by their consumers,
/// observations and, for a reconnection, what the app configured (docs/design.md §20).
extension Connection {
    struct Pending {
        var operation: String
        var purpose: Purpose
        var line: [UInt8]
        var timer: Scheduled<Void>?
    }

    enum Purpose {
        /// An app's request: its caller waits; `effect` is what a reconnection must know of it.
        case reply(OneShot<Received>, effect: Effect?)
        /// A `subscribe`: its state goes to the consumer `token`, or (nil) to every consumer of
        /// the container (a restored subscription), or (``trackingOnly``) to none (the
        /// subscription kept for the resting offset). `attempt` counts the retries of a restored
        /// one whose container does not exist (yet).
        case subscribe(container: String, token: Int?, attempt: Int)
        /// A `get` that gives a consumer joining a subscription its first state.
        case join(container: String, token: Int)
        /// An `observe`: its first message is the reply. `restoring`: sent again after a
        /// reconnection, and `attempt` counts its retries while its container does not exist.
        case observe(RequestID, restoring: Bool, attempt: Int)
        /// Sent by the client itself; the reply changes nothing.
        case restore
    }

    /// What a reconnection must know of a request that succeeded.
    enum Effect: Sendable {
        case configure(String, ContainerSettings, owned: Bool)
        case scroll(String, to: ScrollPosition)
        case pause(String)
        case resume(String)
        case focus(String?)
        case remove(String)
    }

    struct Consumer {
        let feed: Feed<ContainerState>
        var rate: Double?
        /// Its first state has not come yet: broadcasts are not for it (a consumer joining
        /// gets its first state from a `get`).
        var joining = false
        /// States up to this `seq` are older than its first one.
        var after = Int.min
        /// The next state it gets is the first after a reconnection.
        var resuming = false
    }

    /// The connection's one subscription to a container, shared by every consumer of it.
    struct Hub {
        var consumers: [Int: Consumer] = [:]
        /// The rate it is subscribed at.
        var rate: Double?
        /// Kept for the resting offset, with or without consumers.
        var tracking = false
    }

    struct ObservationEntry {
        var container: String
        var members: [(String, ProtocolValue)]
        var sink: any ObservationSink
        var resuming = false
    }

    struct State {
        var channel: (any Channel)?
        /// The connection attempt the channel belongs to: lines and closes of older ones are
        /// ignored.
        var generation = 0
        var welcome: Welcome
        var nextID = 1
        var pending: [RequestID: Pending] = [:]
        /// Requests made while reconnecting, sent once the connection is back.
        var queued: [RequestID] = []
        var hubs: [String: Hub] = [:]
        var observations: [RequestID: ObservationEntry] = [:]
        var descriptions: [String: ContainerDescription] = [:]
        /// The containers of `descriptions`, in the order they were first configured (a parent
        /// before its children).
        var order: [String] = []
        var paused: Set<String> = []
        /// The focus this client gave last, if it gave one (`.some(nil)`: it cleared it).
        var focus: String??
        var ended: ScrollClientError?
        var reconnecting: Task<Void, Never>?

        mutating func takeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }
}
