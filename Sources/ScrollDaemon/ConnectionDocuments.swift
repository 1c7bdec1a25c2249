/// Each connection's part of the session's document (docs/design.md §16), kept joined as the
/// document lists them: in connection-number order, separated by commas. A change splices its part
/// in place (numbers are handed out in increasing order, so a new connection is appended), so
/// writing the document copies one run of bytes. With a thousand connections coming and going,
/// sorting the numbers and joining every part anew at each change kept the loop busy
/// (docs/performance-live.md, finding 8).
package struct ConnectionDocuments {
    /// The parts joined with commas: what goes between the document's `[` and `]`.
    package private(set) var joined: [UInt8] = []
    /// Each part's connection number and length, in order.
    private var entries: [(number: Int, length: Int)] = []

    package init() {}

    /// Sets connection `number`'s part; nil removes it.
    package mutating func set(_ number: Int, _ bytes: [UInt8]?) {
        let index = position(of: number)
        let present = index < entries.count && entries[index].number == number
        switch (bytes, present) {
        case let (bytes?, true):
            let start = offset(of: index)
            joined.replaceSubrange(start..<(start + entries[index].length), with: bytes)
            entries[index].length = bytes.count
        case let (bytes?, false) where index == entries.count:
            // The new last part (a new connection): nothing to find, a comma before it.
            if !entries.isEmpty { joined.append(UInt8(ascii: ",")) }
            joined += bytes
            entries.append((number, bytes.count))
        case let (bytes?, false):
            let start = offset(of: index)
            joined.replaceSubrange(start..<start, with: bytes + [UInt8(ascii: ",")])
            entries.insert((number, bytes.count), at: index)
        case (nil, true):
            // The part and one comma: the one after it, or the one before it if it is last.
            let start = offset(of: index), length = entries[index].length
            let isLast = index == entries.count - 1
            joined.removeSubrange(isLast ? max(0, start - 1)..<(start + length) : start..<(start + length + 1))
            entries.remove(at: index)
        case (nil, false):
            break
        }
    }

    package mutating func removeAll() {
        joined.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Where the part at `index` starts in `joined`: after each earlier part and its comma.
    private func offset(of index: Int) -> Int {
        entries[..<index].reduce(0) { $0 + $1.length + 1 }
    }

    /// Where `number` is, or would be inserted to keep the order.
    private func position(of number: Int) -> Int {
        if let last = entries.last, last.number < number { return entries.count }
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].number < number { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
