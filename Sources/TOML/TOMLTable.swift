/// A TOML table: keys in the order they were first written, each with its value and the place
/// it was written.
///
/// A key's place is where its name starts: for `a.b.c = 1` all of `a`, `a.b` and `a.b.c` are
/// at the start of that line's `a`; a table defined by a header is at its `[`; an array of
/// tables at its first `[[`. Equality compares keys and values in order, not places.
public struct TOMLTable: Hashable, Sendable, Sequence {
    public struct Entry: Sendable {
        public let key: String
        public let value: TOMLValue
        /// 1-based line and column (in Unicode scalars) where the key is written.
        public let line: Int
        public let column: Int

        public init(key: String, value: TOMLValue, line: Int, column: Int) {
            self.key = key
            self.value = value
            self.line = line
            self.column = column
        }
    }

    public private(set) var entries: [Entry]

    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    public var isEmpty: Bool { entries.isEmpty }
    public var count: Int { entries.count }
    public var keys: [String] { entries.map(\.key) }

    public subscript(key: String) -> TOMLValue? {
        entry(key)?.value
    }

    public func entry(_ key: String) -> Entry? {
        entries.first { $0.key == key }
    }

    public func makeIterator() -> IndexingIterator<[Entry]> {
        entries.makeIterator()
    }

    public static func == (lhs: TOMLTable, rhs: TOMLTable) -> Bool {
        lhs.entries.count == rhs.entries.count
            && zip(lhs.entries, rhs.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entries.count)
        for entry in entries { hasher.combine(entry.key) }
    }
}
