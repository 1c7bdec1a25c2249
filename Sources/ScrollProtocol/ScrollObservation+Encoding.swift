import ScrollModel

extension ScrollObservation {
    /// The request's options for this observation, as `observe` writes them (the inverse of
    /// `ScrollObservation(of:options:)`).
    var options: [(String, ProtocolValue)] {
        switch self {
        case .phase, .visibleRows, .source, .stickyRow, .refreshing:
            return []
        case .contentOffset(_, let step), .velocity(_, let step), .headerHeight(let step), .headerProgress(let step):
            return step.map { [("step", .double($0))] } ?? []
        case let .rowVisible(row, threshold):
            return [("row", .integer(row)), ("threshold", .double(threshold))]
        case let .nearEnd(distance, axis):
            return [("distance", .double(distance)), ("axis", .string(axis == .horizontal ? "x" : "y"))]
        case .atEdge(let edge):
            return [("edge", .string(edge.rawValue))]
        }
    }
}
