/// The connections whose `pause` holds one container (docs/design.md §19), in the order they
/// paused (the restart store's `pausedBy` keeps that order). Adding one, dropping one and asking
/// about one cost O(1), however many hold it: a list scanned for each of them made a thousand
/// connections pausing a thousand containers, then closing together, stall the daemon for
/// seconds (each close walked every holder of every container it had paused).
///
/// A dropped holder leaves a hole in the order; the holes are closed up once they outnumber
/// the holders, so the order stays within twice their number and costs O(1) per drop overall.
struct PauseHolders {
    /// The holders in the order they paused; nil where one was dropped since.
    private var order: [Int?] = []
    /// Each holder's place in `order`.
    private var places: [Int: Int] = [:]

    init() {}

    /// Holders in `numbers`' order, each once (the first time it appears).
    init(_ numbers: some Sequence<Int>) {
        for number in numbers { insert(number) }
    }

    var isEmpty: Bool { places.isEmpty }

    var count: Int { places.count }

    func contains(_ number: Int) -> Bool { places[number] != nil }

    /// The holders, in the order they paused.
    var inOrder: [Int] { order.compactMap { $0 } }

    /// Adds `number` after the others; one that holds already keeps its place.
    mutating func insert(_ number: Int) {
        guard places[number] == nil else { return }
        places[number] = order.count
        order.append(number)
    }

    /// Drops `number`; whether it held.
    @discardableResult
    mutating func remove(_ number: Int) -> Bool {
        guard let place = places.removeValue(forKey: number) else { return false }
        order[place] = nil
        if places.isEmpty {
            order.removeAll()
        } else if order.count > 2 * places.count + 16 {
            let held = inOrder
            order = held
            for (place, number) in held.enumerated() { places[number] = place }
        }
        return true
    }

    mutating func removeAll() {
        order = []
        places = [:]
    }
}
