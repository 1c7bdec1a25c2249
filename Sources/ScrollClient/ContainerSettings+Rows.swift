import ScrollModel
import ScrollProtocol

extension ContainerSettings {
    /// The rows of a list (docs/config.md `[containers.NAME.rows]`): a description, or one edit
    /// of the rows in force.
    public enum Rows: Hashable, Sendable {
        /// The rows described: `count` rows of `height` px, or one row per entry of `heights`
        /// (which wins), and the keys that do not touch the rows. Keys left nil keep what was
        /// given before (after edits, `count` is the rows there are).
        case describe(RowsDescription)
        /// One edit: rows inserted or removed, the others keeping their heights.
        case edit(RowEdit)

        /// `count` rows of `height` px.
        public static func uniform(count: Int, height: Double, top: Double? = nil, threshold: Double? = nil, visibleIn: RowVisibilityArea? = nil) -> Rows {
            .describe(RowsDescription(count: count, height: height, top: top, threshold: threshold, visibleIn: visibleIn))
        }

        /// One row per height.
        public static func heights(_ heights: [Double], top: Double? = nil, threshold: Double? = nil, visibleIn: RowVisibilityArea? = nil) -> Rows {
            .describe(RowsDescription(heights: heights, top: top, threshold: threshold, visibleIn: visibleIn))
        }

        /// `count` rows before row `at` (`at` = the row count appends), of `height` px or of the
        /// rows' own height.
        public static func insert(at row: Int, count: Int, height: Double? = nil) -> Rows {
            .edit(.insert(at: row, count: count, height: height))
        }

        /// One row per height, before row `at`.
        public static func insert(at row: Int, heights: [Double]) -> Rows {
            .edit(.insertHeights(at: row, heights: heights))
        }

        /// Rows `at ..< at + count`.
        public static func remove(at row: Int, count: Int) -> Rows {
            .edit(.remove(at: row, count: count))
        }

        var value: ProtocolValue {
            switch self {
            case .describe(let description):
                return description.value
            case let .edit(.insert(at, count, height)):
                var members: [(String, ProtocolValue)] = [("at", .integer(at)), ("count", .integer(count))]
                if let height { members.append(("height", .double(height))) }
                return .object([("insert", .object(members))])
            case let .edit(.insertHeights(at, heights)):
                return .object([("insert", .object([("at", .integer(at)), ("heights", .array(heights.map { .double($0) }))]))])
            case let .edit(.remove(at, count)):
                return .object([("remove", .object([("at", .integer(at)), ("count", .integer(count))]))])
            }
        }
    }

    /// A description of rows; keys left nil keep what was given before.
    public struct RowsDescription: Hashable, Sendable {
        /// The number of rows (0–10 000 000), each `height` px.
        public var count: Int?
        /// The height of every row, px.
        public var height: Double?
        /// Each row's height, px; wins over `count` and `height`.
        public var heights: [Double]?
        /// Content y of the first row's top (default: the header's max height, else 0).
        public var top: Double?
        /// A row is visible when more than this fraction of it shows, in [0, 1) (default 0.5).
        public var threshold: Double?
        /// What visibility is measured against (default: the container).
        public var visibleIn: RowVisibilityArea?
        /// The section headers that stick (docs/design.md §21): strictly ascending row indices.
        public var sticky: [Int]?

        /// A description from its keys.
        public init(
            count: Int? = nil, height: Double? = nil, heights: [Double]? = nil, top: Double? = nil, threshold: Double? = nil,
            visibleIn: RowVisibilityArea? = nil, sticky: [Int]? = nil
        ) {
            self.count = count
            self.height = height
            self.heights = heights
            self.top = top
            self.threshold = threshold
            self.visibleIn = visibleIn
            self.sticky = sticky
        }

        var value: ProtocolValue {
            var members: [(String, ProtocolValue)] = []
            if let count { members.append(("count", .integer(count))) }
            if let height { members.append(("height", .double(height))) }
            if let heights { members.append(("heights", .array(heights.map { .double($0) }))) }
            if let top { members.append(("top", .double(top))) }
            if let threshold { members.append(("threshold", .double(threshold))) }
            if let visibleIn { members.append(("visibleIn", .string(visibleIn.rawValue))) }
            if let sticky { members.append(("sticky", .array(sticky.map { .integer($0) }))) }
            return .object(members)
        }
    }
}
