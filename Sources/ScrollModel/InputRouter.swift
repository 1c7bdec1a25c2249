/// Decides which container each axis of an input event goes to (docs/design.md §14): the focus, the
/// chains of nested containers, and the gestures latched to a container until they end.
///
/// Input is *given* to entry containers: every container that is bound by name to the event's
/// device; else the focused one; else, without a focus, every container that has no parent
/// (the default of docs/design.md §7: with no nesting, that is every container). From an entry C
/// each axis goes along the chain C → parent → … (paused containers skipped): to the first that
/// scrolls the axis, or — when a new gesture finds that one resting at the edge it pushes
/// towards and its `overscroll` is `auto` — to the nearest ancestor that can move that way.
/// A gesture (a drag until its scroll stop, a hold until it ends, wheel clicks until the
/// latched container's `wheel_idle` of silence) keeps the container it latched to, so its
/// fling runs there too.
///
/// The router only decides: ``routed`` says, after `route(_:devices:slots:)`, which axes of
/// the event each container receives. Each axis of an event goes to at most one container per
/// entry, so a container given an event behaves exactly as it would alone given the same part
/// of it. No allocation per event: the arrays are sized when containers come and go.
public struct InputRouter: Sendable {
    /// The focused container's index (the `focus` request), nil: none.
    public internal(set) var focus: Int?
    /// Each container's parent, by index; -1 for none (no `parent`, or one that does not exist).
    public internal(set) var parents: [Int] = []
    /// Whether any container has a parent that exists.
    public internal(set) var hasNesting = false
    /// Whether any container names a parent, existing or not, at the last link: a container
    /// added later may be the one it names.
    var namesParents = false
    /// The axes of the last routed event that each container received (empty: none). A hold
    /// reaches a container through the axes it was routed along, and is applied whole.
    public internal(set) var routed: [Axis.Set] = []
    /// The gestures latched per entry container.
    var latches: [EntryLatches] = []

    /// A router with no containers and no focus: every container later added gets all input
    /// until one has a parent or a focus is set.
    public init() {}

    /// Whether routing differs from giving every container all input: a focus or nesting.
    @inline(__always)
    var isActive: Bool { focus != nil || hasNesting }

    /// One gesture latched to a container: its index (-1: none) and the device driving it.
    struct Latch: Sendable {
        var target = -1
        var device = 0
    }

    /// The gestures of one entry along one axis.
    struct AxisLatches: Sendable {
        var drag = Latch()
        var wheel = Latch()
        /// When the latched wheel gesture ends: its container's `wheel_idle` after the last click.
        var wheelEnd = Timestamp.min
        var hold = Latch()
        /// The container the entry's last gesture along the axis latched to: a hold goes there,
        /// so that fingers resting on the touchpad stop the motion the last gesture started.
        var last = -1

        /// Every latched index through `transform` (-1 stays -1): containers were removed.
        mutating func renumber(_ transform: (Int) -> Int) {
            if drag.target >= 0 { drag.target = transform(drag.target) }
            if wheel.target >= 0 { wheel.target = transform(wheel.target) }
            if hold.target >= 0 { hold.target = transform(hold.target) }
            if last >= 0 { last = transform(last) }
        }

        /// Takes over the gestures of `other`, the entry input went to until now: its gestures
        /// are the ones in progress (a wheel gesture only if it ends later than this one's).
        mutating func adopt(_ other: AxisLatches) {
            if other.drag.target >= 0 { drag = other.drag }
            if other.wheel.target >= 0, other.wheelEnd > wheelEnd { wheel = other.wheel; wheelEnd = other.wheelEnd }
            if other.hold.target >= 0 { hold = other.hold }
            if other.last >= 0 { last = other.last }
        }
    }

    struct EntryLatches: Sendable {
        var x = AxisLatches()
        var y = AxisLatches()

        subscript(axis: Axis) -> AxisLatches {
            get { axis == .horizontal ? x : y }
            set { if axis == .horizontal { x = newValue } else { y = newValue } }
        }
    }

    // MARK: Containers

    /// Resolves every container's `parent` against the containers' names (after containers
    /// come or go, or a `parent` changes). A name that exists nowhere leaves the container
    /// without a parent until a container of that name appears.
    mutating func link(names: [String], parentNames: [String?]) {
        let count = names.count
        // By name through a dictionary (the first container of a name, as a search would find):
        // linking runs at every container added or removed, and must not cost N² name compares.
        var position: [String: Int] = [:]
        position.reserveCapacity(count)
        for (index, name) in names.enumerated() where position[name] == nil { position[name] = index }
        parents = parentNames.map { parent in parent.flatMap { position[$0] } ?? -1 }
        // A cycle cannot be configured; should one arise anyway, chains end where it closes.
        for index in 0..<count {
            var seen = 0
            var next = parents[index]
            while next >= 0, seen <= count {
                if next == index { parents[index] = -1; break }
                next = parents[next]
                seen += 1
            }
            if seen > count { parents[index] = -1 }
        }
        hasNesting = parents.contains { $0 >= 0 }
        namesParents = parentNames.contains { $0 != nil }
        if latches.count < count { latches.append(contentsOf: repeatElement(EntryLatches(), count: count - latches.count)) }
        if latches.count > count { latches.removeLast(latches.count - count) }
        if routed.count != count { routed = Array(repeating: [], count: count) }
    }

    /// A container without a parent joins a set where no container names one: the link
    /// ``link(names:parentNames:)`` would make, without hashing every name again (adding
    /// containers one by one, as a start or a reload does, stays linear).
    mutating func appendUnparented() {
        precondition(!namesParents, "a container names a parent: link them all")
        parents.append(-1)
        latches.append(EntryLatches())
        routed.append([])
    }

    /// The container at `index` is gone: the focus clears if it was there (docs/design.md §14), and
    /// gestures latched to it end. Call ``link(names:parentNames:)`` after.
    mutating func remove(container index: Int) {
        if let focus { self.focus = focus == index ? nil : focus > index ? focus - 1 : focus }
        latches.remove(at: index)
        routed.remove(at: index)
        let transform = { (target: Int) in target == index ? -1 : target > index ? target - 1 : target }
        for entry in latches.indices {
            latches[entry].x.renumber(transform)
            latches[entry].y.renumber(transform)
        }
    }

    /// Moves the focus (nil: none). Gestures in progress stay with the containers they latched
    /// to: the latches of the old entry (or, coming from no focus, of the new focus' root) pass
    /// to the new entry (or, going to no focus, to the old focus' root).
    mutating func setFocus(_ index: Int?) {
        let from = focus ?? index.map(root(of:))
        let to = index ?? focus.map(root(of:))
        focus = index
        guard let from, let to, from != to else { return }
        latches[to].x.adopt(latches[from].x)
        latches[to].y.adopt(latches[from].y)
        latches[from] = EntryLatches()
    }

    /// The outermost container of `index`'s chain.
    func root(of index: Int) -> Int {
        var current = index
        var steps = 0
        while parents[current] >= 0, steps < parents.count {
            current = parents[current]
            steps += 1
        }
        return current
    }

    /// A device is gone: the drags and holds it drove have ended (the containers end them).
    mutating func deviceRemoved(_ device: Int) {
        for entry in latches.indices {
            for axis in Axis.allCases {
                let latched = latches[entry][axis]
                if latched.drag.target >= 0, latched.drag.device == device { latches[entry][axis].drag = Latch() }
                if latched.hold.target >= 0, latched.hold.device == device { latches[entry][axis].hold = Latch() }
            }
        }
    }
}
