/// The connections whose `pause` holds one container (docs/design.md §19), in the order they
/// paused (the restart store's `pausedBy` keeps that order). Each holder knows its place in the
/// order (``Connections/held`` keeps it), so dropping one is a write at that place: a closing
/// connection costs what it holds, without a search or a hash per container. A list scanned
/// for each holder made a thousand connections that had paused a thousand containers, closing
/// together, stall the daemon for seconds.
///
/// A dropped holder leaves a hole in the order. The holes are closed up when a holder is added
/// and they outnumber the holders (never while connections close: a thousand closing at once
/// would move the others' places again and again), so the order is at most about twice as
/// long as the most holders it had at once, and closing up costs O(1) per drop overall.
struct PauseHolders {
    /// The holders in the order they paused; nil where one was dropped since.
    private(set) var order: [Int?] = []
    /// How many hold it.
    private(set) var count = 0

    init() {}

    /// Holders in `numbers`' order, each once (the first time it appears).
    init(_ numbers: [Int]) {
        var seen = Set<Int>()
        for number in numbers where seen.insert(number).inserted { order.append(number) }
        count = order.count
    }

    var isEmpty: Bool { count == 0 }

    /// The holders, in the order they paused.
    var inOrder: [Int] { order.compactMap { $0 } }

    /// Whether adding one now would close the holes up first (``closeUp()``).
    var isSparse: Bool { order.count > 2 * count + 16 }

    /// Adds `number` after the others (it must not hold already); returns its place.
    mutating func append(_ number: Int) -> Int {
        order.append(number)
        count += 1
        return order.count - 1
    }

    /// Drops the holder at `place` (from ``append(_:)`` or ``closeUp()``, since).
    mutating func drop(at place: Int) {
        guard place < order.count, order[place] != nil else { return }
        order[place] = nil
        count -= 1
        if count == 0 { order = [] }
    }

    /// Closes the holes up; returns each holder's new place, in order.
    mutating func closeUp() -> [Int] {
        let holders = inOrder
        order = holders
        return holders
    }

    mutating func removeAll() {
        order = []
        count = 0
    }
}
