import ScrollModel

extension ReplyReader {
    /// The state line of docs/design.md §4, every key required except `header`, `visibleRows`,
    /// `stickyRow`, `refreshing` (§21) and `paused`.
    mutating func stateLine(id: RequestID?) throws(ProtocolError) -> StateLine {
        let container = try string(.container)
        let seq = try reader.int(at: require(.seq), key: "seq")
        let time = try reader.int(at: require(.t), key: "t", expected: "an integer number of microseconds")
        let phaseRange = try require(.phase)
        let phaseNames = "idle, tracking, interacting, decelerating or animating"
        let phaseName = try reader.string(at: phaseRange, key: "phase", expected: phaseNames)
        guard let phase = ScrollPhase(rawValue: phaseName) else {
            throw reader.invalid("phase", at: phaseRange, expected: phaseNames)
        }
        let geometry = ScrollGeometry(
            contentOffset: try point(.contentOffset),
            contentSize: try size(.contentSize),
            containerSize: try size(.containerSize),
            contentInsets: try insets()
        )
        let state = ScrollState(
            time: Timestamp(time),
            phase: phase,
            geometry: geometry,
            velocity: try point(.velocity),
            header: try header(),
            visibleRows: try visibleRows(),
            stickyRow: try stickyRow(),
            refreshing: try reader.present(fields[.refreshing]).map { (range: Range<Int>) throws(ProtocolError) in try reader.bool(at: range, key: "refreshing") },
            indicators: try indicators()
        )
        let paused = try reader.present(fields[.paused]).map { (range: Range<Int>) throws(ProtocolError) in try reader.bool(at: range, key: "paused") } ?? false
        return StateLine(container: container, seq: seq, id: id, state: state, paused: paused)
    }

    /// The numbers of a nested object, each required, in the schema's order.
    private mutating func numbers<Key: ObjectSchema>(_: Key.Type, at range: Range<Int>, key: String) throws(ProtocolError) -> [Double] {
        let fields = try reader.object(Key.self, at: range, key: key)
        var numbers: [Double] = []
        for field in Key.allCases {
            let name = "\(key).\(field.name)"
            guard let value = fields[field] else { throw .missing(name) }
            numbers.append(try reader.number(at: value, key: name))
        }
        return numbers
    }

    private mutating func point(_ key: ReplyKey) throws(ProtocolError) -> Point {
        let xy = try numbers(PointKey.self, at: require(key), key: key.name)
        return Point(x: xy[0], y: xy[1])
    }

    private mutating func size(_ key: ReplyKey) throws(ProtocolError) -> Size {
        let wh = try numbers(SizeKey.self, at: require(key), key: key.name)
        return Size(width: wh[0], height: wh[1])
    }

    private mutating func insets() throws(ProtocolError) -> EdgeInsets {
        let e = try numbers(InsetsKey.self, at: require(.contentInsets), key: "contentInsets")
        return EdgeInsets(top: e[0], leading: e[1], bottom: e[2], trailing: e[3])
    }

    private mutating func header() throws(ProtocolError) -> HeaderState? {
        guard let range = reader.present(fields[.header]) else { return nil }
        let values = try numbers(HeaderKey.self, at: range, key: "header")
        return HeaderState(height: values[0], progress: values[1])
    }

    private mutating func stickyRow() throws(ProtocolError) -> StickyRow? {
        guard let range = reader.present(fields[.stickyRow]) else { return nil }
        let fields = try reader.object(StickyRowKey.self, at: range, key: "stickyRow")
        guard let row = fields[.row] else { throw .missing("stickyRow.row") }
        guard let top = fields[.top] else { throw .missing("stickyRow.top") }
        return StickyRow(row: try reader.int(at: row, key: "stickyRow.row", expected: "a row index"), top: try reader.number(at: top, key: "stickyRow.top"))
    }

    /// `indicators`, optional (a daemon before docs/design.md §22 sends none); inside it each
    /// axis is optional and each thumb's three fields required.
    private mutating func indicators() throws(ProtocolError) -> ScrollIndicators? {
        guard let range = reader.present(fields[.indicators]) else { return nil }
        let axes = try reader.object(IndicatorsKey.self, at: range, key: "indicators")
        var indicators = ScrollIndicators()
        for axis in IndicatorsKey.allCases {
            guard let thumb = reader.present(axes[axis]) else { continue }
            let name = "indicators.\(axis.name)"
            let fields = try reader.object(IndicatorKey.self, at: thumb, key: name)
            guard let offset = fields[.offset] else { throw .missing("\(name).offset") }
            guard let length = fields[.length] else { throw .missing("\(name).length") }
            guard let visible = fields[.visible] else { throw .missing("\(name).visible") }
            let indicator = ScrollIndicator(
                offset: try reader.number(at: offset, key: "\(name).offset"),
                length: try reader.number(at: length, key: "\(name).length"),
                visible: try reader.bool(at: visible, key: "\(name).visible")
            )
            if axis == .x { indicators.x = indicator } else { indicators.y = indicator }
        }
        return indicators
    }

    private mutating func visibleRows() throws(ProtocolError) -> VisibleRows? {
        guard let range = reader.present(fields[.visibleRows]) else { return nil }
        let rows = try reader.object(VisibleRowsKey.self, at: range, key: "visibleRows")
        var indices: [Int?] = []
        for field in VisibleRowsKey.allCases {
            let name = "visibleRows.\(field.name)"
            // Present and null means no row is visible; absent is a broken line.
            guard let value = rows[field] else { throw .missing(name) }
            indices.append(reader.present(value) == nil ? nil : try reader.int(at: value, key: name, expected: "a row index or null"))
        }
        return VisibleRows(first: indices[0], last: indices[1])
    }
}
