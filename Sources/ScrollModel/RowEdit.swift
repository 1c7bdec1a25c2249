/// One change to a list's rows (docs/design.md §12 "Row changes"): `configure`'s `rows` with
/// `insert` or `remove`. The other rows keep their heights.
///
/// The container needs the edit itself, not only the rows it produces, to keep its place: the
/// anchor row's index moves with it (``ScrollContainer/configure(_:edit:animation:at:)``).
public enum RowEdit: Hashable, Sendable {
    /// `{"insert":{"at":K,"count":N,"height":h?}}`: N rows before row K (K = count appends) of
    /// `height` px, or of the rows' own ``RowsConfiguration/height`` when nil.
    case insert(at: Int, count: Int, height: Double?)
    /// `{"insert":{"at":K,"heights":[…]}}`: one new row per height, before row K.
    case insertHeights(at: Int, heights: [Double])
    /// `{"remove":{"at":K,"count":N}}`: rows K ..< K + N.
    case remove(at: Int, count: Int)

    /// The most rows a list may hold after an edit, as the configuration's `rows.count` allows.
    public static let maximumRows = Limits.rows

    /// Where row `row` of the list before the edit is after it; nil when the edit removed it.
    public func index(after row: Int) -> Int? {
        switch self {
        case let .insert(at, count, _):
            return row >= at ? row + count : row
        case let .insertHeights(at, heights):
            return row >= at ? row + heights.count : row
        case let .remove(at, count):
            if row < at { return row }
            return row >= at + count ? row - count : nil
        }
    }

    /// The row that takes over from `row` as the anchor (docs/design.md §12: a removed anchor row
    /// hands the role to the row that follows it), as an index before the edit; nil when no row
    /// follows.
    func successor(of row: Int, count: Int) -> Int? {
        guard case let .remove(at, removed) = self, row >= at, row < at + removed else { return row }
        return at + removed < count ? at + removed : nil
    }
}

/// A row edit that does not fit the rows it is applied to, naming the field at fault.
public struct RowEditError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The edit's field at fault, as the request writes it (`insert.at`, `remove.count`, …), or
    /// `rows` when there are no rows to edit.
    public var field: String
    /// What is wrong, in words.
    public var message: String

    /// An error about `field`.
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// `rows: …`, one line.
    public var description: String { "\(field): \(message)" }

    /// The container has no rows to edit.
    public static let noRows = RowEditError(field: "rows", message: "the container has no rows to edit (configure rows with count and height, or heights, first)")
}

extension RowsConfiguration {
    /// The rows after `edit`, or the reason it cannot apply: `at` outside `[0, count]` (an
    /// insert) or a removal reaching past the last row, a negative count, a height that is
    /// negative or not finite, an insert with no height when the rows have none, or more than
    /// ``RowEdit/maximumRows`` rows.
    public func applying(_ edit: RowEdit) throws(RowEditError) -> RowsConfiguration {
        var rows = self
        try rows.apply(edit)
        return rows
    }

    /// Applies `edit` in place; on error nothing changes. See ``applying(_:)``.
    public mutating func apply(_ edit: RowEdit) throws(RowEditError) {
        let count = heights.count
        switch edit {
        case let .insert(at, n, height):
            try Self.check(insertAt: at, count: count)
            guard n >= 0 else { throw RowEditError(field: "insert.count", message: "must not be negative, got \(n)") }
            try Self.check(total: count, adding: n)
            guard let h = height ?? self.height else {
                throw RowEditError(field: "insert.height", message: "the rows have no height of their own (they were given as heights), so an insert needs one")
            }
            try Self.check(height: h, field: "insert.height")
            heights.insert(.uniform(count: n, height: h), at: at)
        case let .insertHeights(at, list):
            try Self.check(insertAt: at, count: count)
            try Self.check(total: count, adding: list.count)
            for h in list { try Self.check(height: h, field: "insert.heights") }
            heights.insert(.inserted(list), at: at)
        case let .remove(at, n):
            guard n >= 0 else { throw RowEditError(field: "remove.count", message: "must not be negative, got \(n)") }
            guard at >= 0, at <= count else {
                throw RowEditError(field: "remove.at", message: "must be a row index in 0…\(max(0, count - 1)), got \(at) (the container has \(count) rows)")
            }
            guard n <= count - at else {
                throw RowEditError(field: "remove.count", message: "\(n) rows from row \(at) reach past the last row (the container has \(count) rows)")
            }
            heights.remove(at..<(at + n))
        }
    }

    static func check(insertAt at: Int, count: Int) throws(RowEditError) {
        guard at >= 0, at <= count else {
            throw RowEditError(field: "insert.at", message: "must be in 0…\(count) (\(count) appends), got \(at)")
        }
    }

    static func check(total count: Int, adding n: Int) throws(RowEditError) {
        guard n <= RowEdit.maximumRows - count else {
            throw RowEditError(field: "rows", message: "the edit would make \(count) + \(n) rows, more than \(RowEdit.maximumRows)")
        }
    }

    static func check(height: Double, field: String) throws(RowEditError) {
        guard height.isFinite, height >= 0 else {
            throw RowEditError(field: field, message: "a row height must be a finite number ≥ 0, got \(height)")
        }
    }
}
