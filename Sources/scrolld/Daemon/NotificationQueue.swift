import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// What waits to be sent to the service manager, oldest first (``NotificationSender``'s queue),
/// and the rules that keep it short without losing what matters:
///
/// - Messages go in the order they came. A message about a name (`FDSTORE=1`, `FDSTOREREMOVE=1`)
///   never passes another about the same name: a store is sent before its remove, and `session`
///   removed and stored anew (a memfd replaced at start) is removed first.
/// - A remove whose store still waits cancels it: neither is sent, the store's descriptor is
///   closed. A remove is never dropped otherwise: one whose store was sent keeps systemd from
///   holding a closed connection (which a restart would take back, and whose client would wait
///   for an end of file that systemd's copy keeps from coming).
/// - At most ``storeLimit`` stores wait; past it a connection is not kept for a restart (the
///   caller says so, once). A name whose store was never sent (past the limit, or refused by the
///   manager) gets no remove either.
/// - Removes are bounded without a limit of their own: each follows one store sent (or one
///   descriptor systemd passed back at start) and each name is removed once, so at most one
///   waits per connection the store holds — the daemon's connection limit.
/// - A state message (`STATUS=…`, `WATCHDOG=1`, `READY=1`…) replaces one that waits with the
///   same fields, and goes last: a frozen manager gets the latest status once, not one per
///   change, and a status never comes before the stores queued ahead of it.
///
/// Not thread-safe: the sender holds its lock around every use.
struct NotificationQueue {
    enum Message {
        /// `FDSTORE=1` with `fd`, the sender's own duplicate (closed once sent or dropped).
        case store(name: String, fd: Int32)
        /// `FDSTOREREMOVE=1`.
        case remove(name: String)
        /// Anything else, as sd_notify(3) takes it.
        case state(String)

        /// The name a store or a remove is about.
        var name: String? {
            switch self {
            case .store(let name, _), .remove(let name): return name
            case .state: return nil
            }
        }

        /// The datagram's text.
        var text: String {
            switch self {
            case .store(let name, _): return "FDSTORE=1\nFDNAME=\(name)"
            case .remove(let name): return "FDSTOREREMOVE=1\nFDNAME=\(name)"
            case .state(let text): return text
            }
        }
    }

    /// How a store was taken.
    enum Admission: Equatable {
        case queued
        /// ``storeLimit`` stores wait already.
        case full
        /// The descriptor could not be duplicated (`errno`).
        case notDuplicated(Int32)
    }

    let storeLimit: Int
    private var messages = CircularBuffer<Message>()
    /// How many stores wait.
    private(set) var waitingStores = 0
    /// How many messages about each name wait: a remove looks for its store only when one may be there.
    private var waitingByName: [String: Int] = [:]
    /// Names whose last store was not sent and not followed by a remove yet.
    private var unsent: Set<String> = []

    init(storeLimit: Int) {
        self.storeLimit = storeLimit
    }

    var isEmpty: Bool { messages.isEmpty }
    var count: Int { messages.count }

    /// Queues a store of a duplicate of `fd` (made here, `F_DUPFD_CLOEXEC`: `fd` need only be
    /// valid during the call), unless the queue holds ``storeLimit`` stores.
    mutating func store(_ fd: Int32, name: String) -> Admission {
        guard waitingStores < storeLimit else {
            unsent.insert(name)
            return .full
        }
        let duplicate = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        guard duplicate >= 0 else {
            unsent.insert(name)
            return .notDuplicated(errno)
        }
        unsent.remove(name)
        append(.store(name: name, fd: duplicate))
        return .queued
    }

    /// Queues the removal of `name` (whose store was sent or waits: the caller asked
    /// ``forgetUnsent(_:)`` first); returns the descriptor of a waiting store it cancelled,
    /// for the caller to close.
    mutating func remove(_ name: String) -> Int32? {
        if waitingByName[name, default: 0] > 0,
           let index = messages.lastIndex(where: { $0.name == name }),
           case .store(_, let fd) = messages[index] {
            messages.remove(at: index)
            forgetOne(about: name)
            waitingStores -= 1
            return fd
        }
        append(.remove(name: name))
        return nil
    }

    /// Whether `name`'s last store was not sent (and is now forgotten): its remove is not needed.
    mutating func forgetUnsent(_ name: String) -> Bool {
        unsent.remove(name) != nil
    }

    /// Queues a state message, in place of one with the same fields still waiting.
    mutating func state(_ text: String) {
        let fields = Self.fields(of: text)
        if let index = messages.firstIndex(where: { if case .state(let waiting) = $0 { Self.fields(of: waiting) == fields } else { false } }) {
            messages.remove(at: index)
        }
        messages.append(.state(text))
    }

    /// The oldest message, taken out (it is the sender's from now on: a remove that comes
    /// while it is sent is queued, not cancelled).
    mutating func next() -> Message? {
        guard let message = messages.popFirst() else { return nil }
        if let name = message.name { forgetOne(about: name) }
        if case .store = message { waitingStores -= 1 }
        return message
    }

    /// The store of `name` just taken out was not sent: the remove that follows it, if one
    /// waits already, is dropped; else the one to come will be.
    mutating func storeFailed(name: String) {
        guard waitingByName[name, default: 0] > 0, let index = messages.firstIndex(where: { $0.name == name }) else {
            unsent.insert(name)
            return
        }
        // A store of the name queued since (a replacement) keeps the remove ahead of it.
        guard case .remove = messages[index] else { return }
        messages.remove(at: index)
        forgetOne(about: name)
    }

    /// Takes every store and remove out (the manager refused the store), or everything
    /// (`states`), and returns the stores' descriptors for the caller to close.
    mutating func dropStores(andStates states: Bool = false) -> [Int32] {
        var descriptors: [Int32] = []
        var kept = CircularBuffer<Message>()
        for message in messages {
            switch message {
            case .store(_, let fd): descriptors.append(fd)
            case .remove: break
            case .state: if !states { kept.append(message) }
            }
        }
        messages = kept
        waitingStores = 0
        waitingByName = [:]
        unsent = []
        return descriptors
    }

    private mutating func append(_ message: Message) {
        if let name = message.name { waitingByName[name, default: 0] += 1 }
        if case .store = message { waitingStores += 1 }
        messages.append(message)
    }

    private mutating func forgetOne(about name: String) {
        let left = waitingByName[name, default: 1] - 1
        waitingByName[name] = left > 0 ? left : nil
    }

    /// A state message's field names (`READY`, `STATUS`), in order.
    private static func fields(of text: String) -> [Substring] {
        text.split(separator: "\n").map { $0.prefix { $0 != "=" } }
    }
}
