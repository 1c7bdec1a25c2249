/// Each connection's part of the session's document (DESIGN §16), kept joined as the document
/// lists them: in connection-number order, separated by commas. A change splices its part in
/// place (numbers are handed out in increasing order, so a new connection is appended), so
/// writing the document copies one run of bytes. With a thousand connections coming and going,
/// sorting the numbers and joining every part anew at each change kept the loop busy
/// (docs/performance-live.md, finding 8).
struct ConnectionDocuments {
    /// The parts joined with commas: what goes between the document's `[` and `]`.
    private(set) var joined: [UInt8] = []
    /// Each part's connection number and length, in order.
    private var entries: [(number: Int, length: Int)] = []

    /// Sets connection `number`'s part; nil removes it.
    mutating func set(_ number: Int, _ bytes: [UInt8]?) {
        let index = position(of: number)
        let present = index < entries.count && entries[index].number == number
        // Where the part starts: each earlier part and its comma.
        var start = 0
        for entry in entries[..<index] { start += entry.length + 1 }
        switch (bytes, present) {
        case let (bytes?, true):
            joined.replaceSubrange(start..<(start + entries[index].length), with: bytes)
            entries[index].length = bytes.count
        case let (bytes?, false):
            // A comma after it unless it is the last, before it otherwise.
            if index < entries.count {
                joined.replaceSubrange(start..<start, with: bytes + [UInt8(ascii: ",")])
            } else {
                joined += entries.isEmpty ? bytes : [UInt8(ascii: ",")] + bytes
            }
            entries.insert((number, bytes.count), at: index)
        case (nil, true):
            let length = entries[index].length
            let removed = entries.count == 1 ? 0..<length
                : index < entries.count - 1 ? start..<(start + length + 1)
                : (start - 1)..<(start + length)
            joined.removeSubrange(removed)
            entries.remove(at: index)
        case (nil, false):
            break
        }
    }

    mutating func removeAll() {
        joined.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
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
