/// How a collapsing header's height follows the offset (`header.mode`, docs/design.md §21).
public enum HeaderMode: String, Hashable, Sendable, CaseIterable {
    /// The height is a function of the distance from the top (docs/design.md §5): SwiftUI's
    /// pinned collapsing header, Android's `scroll|exitUntilCollapsed`.
    case pinned
    /// Quick return (Android's `enterAlways`, Flutter's floating `SliverAppBar`): scrolling
    /// back towards the top reveals the header at once, wherever the content is; scrolling on
    /// hides it; at the top it is whole.
    case enterAlways
}

extension HeaderConfiguration {
    /// `P(y) = clamp(M − u, m, M)` for `u = y − lo`: the pinned height, never stretched.
    @inlinable
    public func pinnedHeight(atDistanceFromTop u: Double) -> Double {
        Math.clamp(maxHeight - u, minHeight...maxHeight)
    }

    /// The `enterAlways` height after the shown offset moved by `delta` px (from `y₀` to `y₁`)
    /// from a header `h0` px high, `u` being `y₁ − lo`:
    /// `h₁ = max(P(y₁), clamp(h₀ − (y₁ − y₀), m, M))`.
    @inlinable
    public func enterAlwaysHeight(from h0: Double, movedBy delta: Double, atDistanceFromTop u: Double) -> Double {
        max(pinnedHeight(atDistanceFromTop: u), Math.clamp(h0 - delta, minHeight...maxHeight))
    }

    /// The header state of an `enterAlways` header `height` px high: progress `(M − h)/(M − m)`
    /// (0 when `M = m`).
    @inlinable
    public func state(height: Double) -> HeaderState {
        let range = maxHeight - minHeight
        let progress = range == 0 ? 0 : Math.clamp((maxHeight - height) / range, 0...1)
        return HeaderState(height: height, progress: progress)
    }
}

/// An `enterAlways` header's memory: its height and the shown offset it was computed at, so
/// that the next change of the offset can be measured from there.
struct RevealedHeader: Hashable, Sendable {
    var height: Double
    var offset: Double
}

extension ScrollContainer {
    /// The `enterAlways` header's height for the shown offset `y` along the list axis, from the
    /// height it had at the offset it last followed (pure: ``followHeader()`` stores it).
    @inline(__always)
    func revealedHeight(_ revealed: RevealedHeader, _ header: HeaderConfiguration, at y: Double) -> Double {
        let lo = -contentInsets.leadingEdge(configuration.listAxis)
        return header.enterAlwaysHeight(from: revealed.height, movedBy: y - revealed.offset, atDistanceFromTop: y - lo)
    }

    /// Follows the shown offset with the `enterAlways` header (every layout: after every change
    /// of the offset, and of the geometry it is measured against). Idempotent for one offset.
    @inline(__always)
    mutating func followHeader() {
        guard let revealed = revealedHeader, let header = configuration.header else { return }
        let y = contentOffset[configuration.listAxis]
        revealedHeader = RevealedHeader(height: revealedHeight(revealed, header, at: y), offset: y)
    }

    /// Starts (or keeps, or drops) the `enterAlways` memory for the configuration in force: a
    /// header entering the mode starts at its pinned height for the offset it is at.
    mutating func resetRevealedHeader(listAxisChanged: Bool) {
        guard let header = configuration.header, header.mode == .enterAlways else {
            revealedHeader = nil
            return
        }
        let axis = configuration.listAxis
        let y = position[axis]
        if revealedHeader == nil || listAxisChanged {
            let lo = -contentInsets.leadingEdge(axis)
            revealedHeader = RevealedHeader(height: header.pinnedHeight(atDistanceFromTop: y - lo), offset: y)
        }
    }

    /// A restart takes back an `enterAlways` header `height` px high at the offset the container
    /// rests at (docs/design.md §16): the height it had, within what the mode allows there
    /// (`P(y) ≤ h ≤ M`). A pinned header, or none, has nothing to take back: its height follows
    /// the offset.
    public mutating func restoreHeader(height: Double) {
        guard let header = configuration.header, header.mode == .enterAlways, height.isFinite else { return }
        let axis = configuration.listAxis
        let y = position[axis]
        let lo = -contentInsets.leadingEdge(axis)
        let allowed = header.pinnedHeight(atDistanceFromTop: y - lo)...header.maxHeight
        revealedHeader = RevealedHeader(height: Math.clamp(height, allowed), offset: y)
        layout()
    }

    /// Where a header snap goes from the offset `y` (docs/design.md §5, §21), nil for none. A
    /// pinned header snaps by its distance from the top `u`; an `enterAlways` one by how far it
    /// is collapsed, `M − h`: the content moves by the header's remaining travel, so that the
    /// header ends whole or collapsed (for a pinned header the two are the same).
    /// The top `lo` is the content's, not a refresh's `lo − r` (docs/design.md §21).
    func headerSnapTarget(_ header: HeaderConfiguration, at y: Double) -> Double? {
        guard header.mode == .enterAlways, let revealed = revealedHeader else {
            let lo = -contentInsets.leadingEdge(configuration.listAxis)
            guard let snap = header.snapTarget(atDistanceFromTop: y - lo) else { return nil }
            return lo + snap
        }
        let collapsed = header.maxHeight - revealedHeight(revealed, header, at: y)
        guard let snap = header.snapTarget(atDistanceFromTop: collapsed) else { return nil }
        return y + (snap - collapsed)
    }
}
