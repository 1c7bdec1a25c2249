/// A table while the parser fills it: a reference, so that a header or a dotted key can reach
/// into a table deep in the document and add to it in place. `build` turns the finished tree
/// into values; nothing refers back up, so the tree is freed with the parser.
final class TOMLTableBuilder {
    /// How a table came to be, which decides what may still add to it (TOML 1.0, "Table").
    enum Origin {
        /// Created as the parent of a header's table (`a` of `[a.b]`): a header may still
        /// define it, once.
        case implied
        /// Defined by a `[header]` or `[[header]]`, or the root: defined, so no second header.
        case header
        /// Created by a dotted key (`a.b = 1` creates `a`): more dotted keys in the same table
        /// may add to it, headers may add sub-tables, but no header may define it.
        case dotted
    }

    enum Item {
        /// A value written after `=`, including inline tables and arrays, which nothing extends.
        case value(TOMLValue)
        case table(TOMLTableBuilder)
        /// An array of tables, `[[name]]`.
        case tables([TOMLTableBuilder])
    }

    struct Slot {
        var item: Item
        let line: Int
        let column: Int
    }

    var origin: Origin
    /// The line of the header or key that defined the table (for an implied table, that
    /// created it), for messages.
    var line: Int
    private(set) var keys: [String] = []
    private var slots: [String: Slot] = [:]

    init(origin: Origin, line: Int) {
        self.origin = origin
        self.line = line
    }

    subscript(key: String) -> Slot? {
        get { slots[key] }
        set {
            if slots[key] == nil { keys.append(key) }
            slots[key] = newValue
        }
    }

    /// Adds `table` at the end of the array of tables at `key`, in place: a copy of the array
    /// at each `[[key]]` would make a file of them quadratic.
    func appendTable(_ table: TOMLTableBuilder, at key: String) {
        guard case .tables(var list)? = slots[key]?.item else { return }
        // The slot lets go of the array first, so that it is the only one holding it.
        slots[key]?.item = .tables([])
        list.append(table)
        slots[key]?.item = .tables(list)
    }

    func build() -> TOMLTable {
        TOMLTable(entries: keys.map { key in
            let slot = slots[key]!
            let value: TOMLValue = switch slot.item {
            case .value(let value): value
            case .table(let table): .table(table.build())
            case .tables(let tables): .array(tables.map { .table($0.build()) })
            }
            return TOMLTable.Entry(key: key, value: value, line: slot.line, column: slot.column)
        })
    }
}
