import ScrollModel
import ScrollProtocol

/// What a reconnecting client knows of a container it configured (docs/design.md §20): its
/// current description — every key as last set, the rows as they are now with the edits folded
/// in — and its last resting offset; never the history of calls, so memory stays bounded
/// however long the client runs. Rows are kept as runs of equal heights: a list of a million
/// rows of 44 px, edited a thousand times, is at most a few thousand runs.
struct ContainerDescription: Sendable {
    /// Every key as last set; `rows` is kept apart, in `rows`.
    var settings = ContainerSettings()
    var rows: RowRuns?
    /// Created with `owned`: it goes when the connection does, so a reconnection to the same
    /// daemon creates it again.
    var owned = false
    /// The offset of the last `idle` state seen; nil before any.
    var resting: Point?
    /// A bottom-anchored container last seen following its end: put back there, not at
    /// `resting` (docs/decisions.md, "Where a client puts a container back").
    var following = false

    /// Notes a state of the container: where a reconnection puts it back. A bottom-anchored
    /// one within 0.5 px of its end, beyond it, or moving towards it is following (a log whose
    /// rows arrive faster than it settles may never rest); one moving away from the end is
    /// still following until it rests elsewhere.
    mutating func note(_ state: ScrollState) {
        if settings.anchor == .bottom {
            let hi = state.geometry.restingRange(.vertical).upperBound
            if state.contentOffset.y >= hi - 0.5 || (state.phase != .idle && state.velocity.y > 0) {
                following = true
                return
            }
            if state.phase != .idle && following { return }
            following = false
        }
        if state.phase == .idle { resting = state.contentOffset }
    }

    /// A `scroll(to:)` of this client rests where it aims, known before it gets there (the
    /// tracking subscription sees where it is, not where it goes), as the Python client and
    /// libscrolld take it: an offset on either axis (the daemon clamps it again when it is put
    /// back), or, for a bottom-anchored container, its bottom edge: its end, following. Where a
    /// row or another edge puts it is known from its states only; a later idle state wins.
    mutating func aim(at position: ScrollPosition) {
        if position.edge == .bottom, settings.anchor == .bottom {
            following = true
            return
        }
        guard position.row == nil, position.edge == nil else { return }
        var offset = resting ?? .zero
        if let x = position.point.x { offset.x = x }
        if let y = position.point.y { offset.y = y }
        resting = offset
        following = false
    }

    /// Folds in a `configure` the daemon accepted.
    mutating func apply(_ change: ContainerSettings) {
        var change = change
        if let header = change.header { change.header = settings.header.map { $0.merged(with: header) } ?? header }
        if let physics = change.physics { change.physics = settings.physics.map { $0.merged(with: physics) } ?? physics }
        if let gestures = change.gestures { change.gestures = settings.gestures.map { $0.merged(with: gestures) } ?? gestures }
        let previous = settings
        settings = ContainerSettings(
            containerSize: change.containerSize ?? previous.containerSize,
            contentSize: change.contentSize ?? previous.contentSize,
            contentInsets: change.contentInsets ?? previous.contentInsets,
            axes: change.axes ?? previous.axes,
            header: change.header ?? previous.header,
            rows: nil,
            physics: change.physics ?? previous.physics,
            scrollTarget: change.scrollTarget ?? previous.scrollTarget,
            anchor: change.anchor ?? previous.anchor,
            devices: change.devices ?? previous.devices,
            parent: change.parent ?? previous.parent,
            overscroll: change.overscroll ?? previous.overscroll,
            touchFrame: change.touchFrame ?? previous.touchFrame,
            refresh: change.refresh ?? previous.refresh,
            gestures: change.gestures ?? previous.gestures,
            additional: previous.additional.merging(change.additional) { $1 }
        )
        switch change.rows {
        case .describe(let description)?:
            var runs = rows ?? RowRuns()
            runs.describe(description)
            rows = runs
        case .edit(let edit)?:
            rows?.apply(edit)
        case nil:
            break
        }
    }

    /// The requests that create the container again as it is: one `configure` with every key
    /// (the rows' first run as `count` and `height`), then one `insert` per further run, so
    /// that no line nears the daemon's 64 KiB whatever the rows.
    func configures(owned: Bool) -> [[(String, ProtocolValue)]] {
        var first = settings
        var edits: [RowEdit] = []
        var sticky: [Int]?
        if let rows {
            var description = rows.keys
            let runs = rows.runs
            description.count = runs.first?.count ?? 0
            description.height = runs.first?.height ?? rows.height ?? 0
            description.heights = nil
            // Sticky indices may name rows of later runs: they follow the inserts.
            sticky = description.sticky
            description.sticky = nil
            first.rows = .describe(description)
            var at = runs.first?.count ?? 0
            for run in runs.dropFirst() {
                edits.append(.insert(at: at, count: run.count, height: run.height))
                at += run.count
            }
        }
        var requests = [first.members + (owned ? [("owned", .bool(true))] : [])]
        for edit in edits { requests.append(ContainerSettings(rows: .edit(edit)).members) }
        if let sticky { requests.append(ContainerSettings(rows: .describe(ContainerSettings.RowsDescription(sticky: sticky))).members) }
        return requests
    }
}

/// Rows as runs of equal heights, and the keys of their description that do not touch them.
struct RowRuns: Sendable {
    struct Run: Sendable, Hashable {
        var height: Double
        var count: Int
    }

    var runs: [Run] = []
    /// The rows' own height (`height` as last given), which an insert without one uses.
    var height: Double?
    /// `top`, `threshold`, `visibleIn`, `sticky` as last given.
    var keys = ContainerSettings.RowsDescription()

    var count: Int { runs.reduce(0) { $0 + $1.count } }

    /// A description: `heights` describes the rows anew; `count` and `height` do, from those
    /// keys and the ones given before (edits keep the count up to date); the other keys change
    /// without touching the rows.
    mutating func describe(_ description: ContainerSettings.RowsDescription) {
        if let top = description.top { keys.top = top }
        if let threshold = description.threshold { keys.threshold = threshold }
        if let visibleIn = description.visibleIn { keys.visibleIn = visibleIn }
        if let sticky = description.sticky { keys.sticky = sticky }
        if let heights = description.heights {
            runs = []
            for height in heights { append(height, count: 1) }
        } else if description.count != nil || description.height != nil {
            height = description.height ?? height
            let count = description.count ?? self.count
            runs = []
            if let height { append(height, count: count) }
        }
    }

    mutating func apply(_ edit: RowEdit) {
        switch edit {
        case let .insert(at, count, height):
            guard let height = height ?? self.height else { return }
            insert([Run(height: height, count: count)], at: at)
        case let .insertHeights(at, heights):
            insert(heights.map { Run(height: $0, count: 1) }, at: at)
        case let .remove(at, count):
            remove(at: at, count: count)
        }
    }

    private mutating func append(_ height: Double, count: Int) {
        guard count > 0 else { return }
        if runs.last?.height == height {
            runs[runs.count - 1].count += count
        } else {
            runs.append(Run(height: height, count: count))
        }
    }

    /// Splits the run holding row `row` so that a run starts there; returns that run's index.
    private mutating func split(at row: Int) -> Int {
        var start = 0
        for index in runs.indices {
            if row == start { return index }
            if row < start + runs[index].count {
                let before = row - start
                let run = runs[index]
                runs[index].count = before
                runs.insert(Run(height: run.height, count: run.count - before), at: index + 1)
                return index + 1
            }
            start += runs[index].count
        }
        return runs.count
    }

    private mutating func insert(_ new: [Run], at row: Int) {
        let index = split(at: row)
        runs.insert(contentsOf: new, at: index)
        coalesce()
    }

    private mutating func remove(at row: Int, count: Int) {
        let first = split(at: row)
        let end = split(at: row + count)
        runs.removeSubrange(first..<end)
        coalesce()
    }

    private mutating func coalesce() {
        var merged: [Run] = []
        for run in runs where run.count > 0 {
            if merged.last?.height == run.height {
                merged[merged.count - 1].count += run.count
            } else {
                merged.append(run)
            }
        }
        runs = merged
    }
}
