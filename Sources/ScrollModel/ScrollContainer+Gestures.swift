/// docs/design.md §22 in the container: bounce based on size, the directional lock and the
/// scroll indicators.
extension ScrollContainer {
    // MARK: Bounce based on size

    /// Whether input moves the container along `axis`: it scrolls the axis and, with `bounce =
    /// basedOnSize`, its content overflows there (`hi > lo`). Routing asks the same
    /// (docs/design.md §14: an axis that fits is one the container does not scroll).
    @inline(__always)
    public func takesInput(_ axis: Axis) -> Bool {
        guard scrolls(axis) else { return false }
        guard configuration.gestures.bounce == .basedOnSize else { return true }
        let lo = -contentInsets.leadingEdge(axis)
        return contentSize[axis] - containerSize[axis] + contentInsets.trailingEdge(axis) > lo
    }

    /// Whether an input event passes the container by because every axis it would move along fits
    /// (`bounce = basedOnSize`): no state is published for it. A scroll stop that ends a drag, and
    /// the end of a hold it began, still concern it.
    @inline(__always)
    func fitsAndIgnores(_ event: ScrollEvent) -> Bool {
        guard configuration.gestures.bounce == .basedOnSize else { return false }
        switch event.kind {
        case let .wheel(v120, _):
            return !movesAlongAnAxis(v120)
        case let .finger(delta), let .continuous(delta):
            if drag != nil && isStop(delta) { return false }
            return !movesAlongAnAxis(delta)
        case .holdBegin:
            return !takesInput(.horizontal) && !takesInput(.vertical)
        case .holdEnd:
            return holdDevice == nil && !takesInput(.horizontal) && !takesInput(.vertical)
        case .deviceAdded, .deviceRemoved, .touchDown, .touchMotion, .touchUp, .touchCancel:
            return false
        }
    }

    @inline(__always)
    private func movesAlongAnAxis(_ values: AxisValues) -> Bool {
        for axis in Axis.allCases where takesInput(axis) {
            if let value = values[axis], value != 0 { return true }
        }
        return false
    }

    // MARK: Directional lock

    /// Whether a drag's direction is locked: the lock is on and input moves both axes.
    @inline(__always)
    var locksDirection: Bool {
        configuration.gestures.directionalLock && takesInput(.horizontal) && takesInput(.vertical)
    }

    /// The axis the drag in progress is locked to, if any.
    @inline(__always)
    var lockedAxis: Axis? { drag?.lock.lockedAxis }

    // MARK: Indicators

    /// The indicators for `geometry` (the presented one), `headerHeight` being the header's
    /// current height along the list axis.
    @inline(__always)
    func indicators(_ geometry: ScrollGeometry, headerHeight: Double) -> ScrollIndicators {
        var indicators = ScrollIndicators()
        let visible = indicatorVisibility.visible
        let minimum = configuration.gestures.indicatorMinLength
        for axis in Axis.allCases where scrolls(axis) {
            let thumb = ScrollIndicator.thumb(
                offset: geometry.contentOffset[axis],
                container: geometry.containerSize[axis],
                content: geometry.contentSize[axis],
                leading: geometry.contentInsets.leadingEdge(axis),
                trailing: geometry.contentInsets.trailingEdge(axis),
                header: axis == configuration.listAxis && configuration.header != nil ? headerHeight : 0,
                range: range(axis),
                minimum: minimum,
                visible: visible
            )
            if axis == .horizontal { indicators.x = thumb } else { indicators.y = thumb }
        }
        return indicators
    }

    /// Notes the offset and phase after every change (called by `layout()`).
    @inline(__always)
    mutating func noteIndicators() {
        indicatorVisibility.note(
            offset: contentOffset, idle: phase == .idle, at: time,
            linger: configuration.gestures.indicatorLinger
        )
    }

    /// `flashIndicators` (SwiftUI's `flashScrollIndicators`): the indicators show for the linger
    /// time (or, while the container moves, until the linger after it comes to rest).
    public mutating func flashIndicators(at time: Timestamp) {
        advance(to: time)
        indicatorVisibility.flash(idle: phase == .idle, at: self.time, linger: configuration.gestures.indicatorLinger)
        layout()
    }

    /// Hides the indicators at once, with no timer: a container a restart takes back rests at its
    /// offset as if it had never moved (docs/design.md §16), and shows nothing.
    public mutating func hideIndicators() {
        indicatorVisibility = IndicatorVisibility(visible: false, hideAt: nil, lastOffset: contentOffset)
    }

    /// Whether the indicators show now.
    public var indicatorsVisible: Bool { indicatorVisibility.visible }
}
