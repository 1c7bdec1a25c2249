extension ScrollContainer {
    /// Applies a new configuration (a `configure` request, a reload) at `time` and returns whether
    /// anything changed. An equal configuration does nothing at all — not even time moves — so a
    /// daemon publishes nothing for it (docs/design.md §19).
    ///
    /// Without an animation the geometry changes at once; with one, the container size, content
    /// size and insets move along its spring and everything derived from them is resolved from
    /// the animated geometry at every frame. Either way:
    /// - **Scroll anchoring** (docs/design.md §12) keeps the content in place, along the list axis: a
    ///   bottom-anchored container resting within 0.5 px of `hi` is at the new `hi` after the
    ///   change (while an animation runs, at the animated `hi` at every frame); one whose running
    ///   motion will come to rest at `hi` (a bounce back from beyond the end, a spring to the
    ///   bottom edge, a fling clamped there) keeps following: the motion heads for the new `hi`
    ///   from where it is, with its velocity (docs/design.md §20 "Following through a bounce"); otherwise the
    ///   *anchor row*, the first row whose bottom lies below the start of the usable area,
    ///   keeps its place on screen. When its top moves by Δ, the offset and every running motion
    ///   — a drag's raw position, a fling's curve, a spring and its target — move by Δ at this
    ///   instant. `edit` says how the rows changed, so the anchor row is found again by index
    ///   across it; a removed anchor row hands the role to the row that follows it. Without an
    ///   edit, rows keep their indices. Without rows nothing is anchored.
    /// - **Motion goes on** (docs/design.md §19): a drag keeps its raw position and velocity samples (its shown
    ///   offset is the raw one under the new range and rubber band); a wheel, programmatic,
    ///   bounce or snap spring keeps its target, clamped to the new range; a fling keeps its curve
    ///   and is re-planned against the new range (`Trajectory.replanned(for:at:physics:)`).
    /// - Only an offset at rest (no motion, drag or hold) is clamped to the new range. A
    ///   configuration change never starts a header snap: an offset it clamps into the header's
    ///   range stays there, as after a `scrollTo`.
    @discardableResult
    public mutating func configure(
        _ configuration: ContainerConfiguration,
        edit: RowEdit? = nil,
        animation: ScrollAnimation = .none,
        at time: Timestamp
    ) -> Bool {
        guard configuration != self.configuration else { return false }
        advance(to: time)
        let oldAxis = self.configuration.listAxis
        let anchor = contentAnchor(along: oldAxis)
        if configuration.physics.velocityWindow != self.configuration.physics.velocityWindow {
            tracker = VelocityTracker(window: configuration.physics.velocityWindow)
        }
        let current = GeometryAnimation.components(containerSize: containerSize, contentSize: contentSize, insets: contentInsets)
        let running = geometryAnimation
        self.configuration = configuration
        rowLayout = Self.rowLayout(configuration)
        appBarState = configuration.refresh != nil || rowLayout.map { $0.stickyCount > 0 } == true
        carryRefreshOn()
        let targetContent = Self.idealContentSize(configuration)
        switch animation {
        case .none:
            geometryAnimation = nil
            pinnedToEnd = false
            containerSize = configuration.containerSize
            contentSize = targetContent
            contentInsets = configuration.contentInsets
        case .spring(let spring):
            let target = GeometryAnimation.components(
                containerSize: configuration.containerSize, contentSize: targetContent, insets: configuration.contentInsets
            )
            let velocity = (0..<GeometryAnimation.componentCount).map { running?.velocity($0, at: time) ?? 0 }
            geometryAnimation = GeometryAnimation(from: current, velocity: velocity, to: target, spring: spring, at: time)
        }
        let axis = configuration.listAxis
        if axis == oldAxis, let anchor { follow(anchor, along: axis, edit: edit, at: time) }
        for axis in Axis.allCases { carryOn(axis, at: time) }
        if geometryAnimation != nil { clampRestingAxes() }
        resetRevealedHeader(listAxisChanged: axis != oldAxis)
        settleIfIdle(at: time)
        layout()
        return true
    }

    /// What keeps the content in place across a change (docs/design.md §12), read before it.
    enum ContentAnchor {
        /// A bottom-anchored container within 0.5 px of `hi`.
        case end
        /// A bottom-anchored container whose running motion will come to rest within 0.5 px of
        /// `hi` (docs/design.md §20): it follows the end through that motion.
        case endOfMotion
        /// The anchor row's index and the layout it had.
        case row(Int, RowLayout)
    }

    /// The anchor along `axis` at the current offset: for a bottom-anchored container, the end of
    /// the motion that will come to rest within 0.5 px of `hi` (first: a spring settling there
    /// keeps its velocity rather than jump), or the end it rests within 0.5 px of; else the
    /// first row whose bottom lies below the start of the usable area `U(y)`; nil without rows
    /// or below the last row.
    func contentAnchor(along axis: Axis) -> ContentAnchor? {
        let y = position[axis]
        if configuration.anchor == .bottom {
            if drag == nil, holdDevice == nil, let motion = self[motion: axis],
               abs(motion.restingPoint - targetRange(axis).upperBound) <= 0.5 {
                return .endOfMotion
            }
            if abs(range(axis).upperBound - y) <= 0.5 { return .end }
        }
        guard let rows = rowLayout else { return nil }
        let row = rows.firstRow(endingAfter: usableArea(at: y, axis).lowerBound)
        return row < rows.count ? .row(row, rows) : nil
    }

    /// The resting range the container is heading for: the configured geometry's, also while an
    /// animation presents another.
    func targetRange(_ axis: Axis) -> ClosedRange<Double> {
        guard let target = geometryAnimation?.restingRange(axis) else { return range(axis) }
        // A refresh lifts the top of the range the geometry heads for too (docs/design.md §21).
        return (target.lowerBound - refreshLift[axis])...target.upperBound
    }

    /// Moves the offset and everything that moves it so that `anchor` keeps its place.
    mutating func follow(_ anchor: ContentAnchor, along axis: Axis, edit: RowEdit?, at time: Timestamp) {
        switch anchor {
        case .endOfMotion:
            guard let motion = self[motion: axis] else { return }
            self[motion: axis] = motion.heading(toEnd: targetRange(axis), at: time, physics: configuration.physics)
        case .end:
            let resting = self[motion: axis] == nil && drag == nil && holdDevice == nil && wheel == nil
            if geometryAnimation != nil && resting {
                // At the animated end at every frame (`clampRestingAxes`), the new one at last.
                pinnedToEnd = true
                return
            }
            let end = targetRange(axis).upperBound
            move(axis, by: end - position[axis])
            if drag == nil { position[axis] = end }
        case .row(let row, let old):
            guard let rows = rowLayout else { return }
            let kept: Int
            let index: Int
            if let edit {
                guard let successor = edit.successor(of: row, count: old.count), let moved = edit.index(after: successor) else { return }
                (kept, index) = (successor, moved)
            } else {
                (kept, index) = (row, row)
            }
            guard index < rows.count else { return }
            move(axis, by: rows.start(index) - old.start(kept))
        }
    }

    /// Moves the offset, a drag's raw position and origin, a wheel gesture's origin and the
    /// running motion along `axis` by `delta` px, all at this instant.
    mutating func move(_ axis: Axis, by delta: Double) {
        guard delta != 0, delta.isFinite else { return }
        position[axis] += delta
        // The content keeps its place on screen: not a scroll, so an `enterAlways` header
        // neither hides nor comes back for it (docs/decisions.md, "App bars").
        if axis == configuration.listAxis { revealedHeader?.offset += delta }
        if drag != nil {
            drag!.raw[axis] += delta
            drag!.origin[axis] += delta
        }
        if wheel != nil { wheel!.origin[axis] += delta }
        self[motion: axis]?.shift(by: delta)
    }

    /// After a change: a drag shows its raw position under the new range, a motion is re-planned
    /// against it, an offset at rest is clamped into it, and an axis no longer scrolled rests at
    /// its start.
    mutating func carryOn(_ axis: Axis, at time: Timestamp) {
        guard scrolls(axis) else {
            self[motion: axis] = nil
            velocity[axis] = 0
            position[axis] = range(axis).lowerBound
            return
        }
        if let gesture = drag {
            position[axis] = shown(raw: gesture.raw[axis], axis)
            return
        }
        if let motion = self[motion: axis] {
            switch motion.replanned(for: targetRange(axis), at: time, physics: configuration.physics) {
            case .unchanged:
                break
            case .motion(let replanned):
                self[motion: axis] = replanned
            case .stop(let resting):
                self[motion: axis] = nil
                position[axis] = resting
                velocity[axis] = 0
            }
            return
        }
        guard holdDevice == nil else { return }
        velocity[axis] = 0
        if geometryAnimation == nil { position[axis] = Math.clamp(position[axis], range(axis)) }
    }
}
