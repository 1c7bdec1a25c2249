extension ScrollState {
    /// Whether every number the state carries is finite: what a state line may hold (JSON has
    /// no infinity and no NaN, and docs/design.md, "Limits", promises none is published). The
    /// engine keeps positions and velocities finite (``ScrollContainer/isFinite``); the rest
    /// follows from the ranges of ``Limits``, and tests hold every state to it.
    public var isFinite: Bool {
        let g = geometry
        var numbers = [
            g.contentOffset.x, g.contentOffset.y, velocity.x, velocity.y,
            g.contentSize.width, g.contentSize.height, g.containerSize.width, g.containerSize.height,
            g.contentInsets.top, g.contentInsets.leading, g.contentInsets.bottom, g.contentInsets.trailing,
        ]
        if let header { numbers += [header.height, header.progress] }
        if let stickyRow { numbers.append(stickyRow.top) }
        for thumb in [indicators?.x, indicators?.y].compactMap({ $0 }) { numbers += [thumb.offset, thumb.length] }
        return numbers.allSatisfy(\.isFinite)
    }
}
