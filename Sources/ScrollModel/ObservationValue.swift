/// The value of a ``ScrollObservation`` in one state: small, `Equatable`, built without
/// allocating, so a daemon compares it with the last one sent on every published state.
public enum ObservationValue: Hashable, Sendable {
    /// `phase`.
    case phase(ScrollPhase)
    /// The numeric keys, quantised when the observation has a `step`; `stickyRow`'s index.
    case number(Double)
    /// `rowVisible`, `nearEnd`, `atEdge`, `refreshing`.
    case bool(Bool)
    /// `visibleRows`.
    case visibleRows(VisibleRows)
    /// A key whose part of the state the container lacks: `header.*` without a header,
    /// `visibleRows` without rows (JSON `null`, as `old` before the first value); `source`
    /// before any input.
    case null
    /// `source`: `{"device":ID,"name":NAME,"kind":KIND}`.
    case source(InputOrigin)
}

extension ScrollObservation {
    /// The value in `state`, a state published by a container whose rows are laid out as `rows`
    /// and whose header is `header`, along `listAxis` (the container's
    /// ``ContainerConfiguration/listAxis``). Pure: the same state gives the same value. Only
    /// `rowVisible` reads `rows`, `header` and `listAxis`, and `source` the container's
    /// ``ScrollContainer/source`` (`source`); every other key is the state's alone.
    public func value(in state: ScrollState, rows: RowLayout?, header: HeaderConfiguration?, listAxis: Axis, source: InputOrigin? = nil) -> ObservationValue {
        let geometry = state.geometry
        switch self {
        case .source:
            return source.map(ObservationValue.source) ?? .null
        case .phase:
            return .phase(state.phase)
        case .stickyRow:
            guard let sticky = state.stickyRow else { return .null }
            return .number(Double(sticky.row))
        case .refreshing:
            return .bool(state.refreshing ?? false)
        case let .contentOffset(axis, step):
            return .number(Self.quantised(geometry.contentOffset[axis], step))
        case let .velocity(axis, step):
            return .number(Self.quantised(state.velocity[axis], step))
        case .headerHeight(let step):
            guard let header = state.header else { return .null }
            return .number(Self.quantised(header.height, step))
        case .headerProgress(let step):
            guard let header = state.header else { return .null }
            return .number(Self.quantised(header.progress, step))
        case .visibleRows:
            guard let visible = state.visibleRows else { return .null }
            return .visibleRows(visible)
        case let .rowVisible(row, threshold):
            guard let rows else { return .bool(false) }
            let y = geometry.contentOffset[listAxis]
            var lo = y, hi = y + geometry.containerSize[listAxis]
            if rows.visibleIn == .usable {
                lo = y + geometry.contentInsets.leadingEdge(listAxis) + (header?.minHeight ?? 0)
                hi = max(lo, hi - geometry.contentInsets.trailingEdge(listAxis))
            }
            return .bool(rows.shows(row, atLeast: threshold, from: lo, to: hi))
        case let .nearEnd(distance, axis):
            return .bool(geometry.restingRange(axis).upperBound - geometry.contentOffset[axis] <= distance)
        case .atEdge(let edge):
            let range = geometry.restingRange(edge.axis)
            let y = geometry.contentOffset[edge.axis]
            return .bool(edge.isStart ? y <= range.lowerBound + 0.5 : y >= range.upperBound - 0.5)
        }
    }

    /// `s × floor(v / s)`; `v` itself without a step.
    @inline(__always)
    static func quantised(_ value: Double, _ step: Double?) -> Double {
        guard let step else { return value }
        return step * (value / step).rounded(.down)
    }
}

extension ScrollContainer {
    /// The value of `observation` in `state`, a state this container published (with its rows
    /// and header as they are now, which is when a daemon evaluates it).
    ///
    /// Always inlined, so that a container read in place (``ScrollEngine/value(of:container:in:)``)
    /// hands over the three fields it needs instead of being copied whole first.
    @inline(__always)
    public func value(of observation: ScrollObservation, in state: ScrollState) -> ObservationValue {
        observation.value(in: state, rows: rowLayout, header: configuration.header, listAxis: configuration.listAxis, source: source)
    }
}
