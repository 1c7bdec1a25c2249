/// A small tree of laid-out nodes, enough to answer the questions SwiftUI's geometry answers:
/// where is this node, in which coordinate space, and what do the nodes report upward.
///
/// Each node's `frame` is expressed in its parent's local space. Nodes are stored flat, so
/// moving a node (a scroll translation, say) is a single store and reading a frame walks the
/// parent chain without allocating.
public struct ViewTree: Sendable {
    /// Identifies a node of the tree that created it; meaningless in any other tree.
    public struct NodeID: Hashable, Sendable {
        @usableFromInline let index: Int
        @usableFromInline init(_ index: Int) { self.index = index }
    }

    @usableFromInline
    struct Node: Sendable {
        @usableFromInline var parent: Int
        @usableFromInline var frame: Rect
        @usableFromInline var coordinateSpaceName: String?
        @usableFromInline var children: [Int]
    }

    @usableFromInline var nodes: [Node]

    /// A tree with one root node placed at the global origin.
    public init(rootSize: Size) {
        nodes = [Node(parent: -1, frame: Rect(origin: .zero, size: rootSize), coordinateSpaceName: nil, children: [])]
    }

    /// The root node: its frame is at the global origin with the size given to `init`.
    public var root: NodeID { NodeID(0) }

    /// Adds a node as the last child of `parent` (tree order is insertion order among siblings).
    /// `coordinateSpace` names the node's own local space, as `.coordinateSpace(.named(_:))`.
    @discardableResult
    public mutating func addChild(
        to parent: NodeID,
        frame: Rect,
        coordinateSpace name: String? = nil
    ) -> NodeID {
        let id = nodes.count
        nodes.append(Node(parent: parent.index, frame: frame, coordinateSpaceName: name, children: []))
        nodes[parent.index].children.append(id)
        return NodeID(id)
    }

    /// The node's frame in its parent's space.
    @inlinable
    public func frame(of node: NodeID) -> Rect { nodes[node.index].frame }

    /// Moves and resizes `node` (`frame` in its parent's space); negative sizes become 0.
    @inlinable
    public mutating func setFrame(_ frame: Rect, of node: NodeID) {
        nodes[node.index].frame = Rect(origin: frame.origin, size: Size(clamping: frame.size.width, frame.size.height))
    }

    /// Moves `node` within its parent's space, px: how a container scrolls its content (origin
    /// `-position`).
    @inlinable
    public mutating func setOrigin(_ origin: Point, of node: NodeID) {
        nodes[node.index].frame.origin = origin
    }

    /// Resizes `node`, px; negative sizes become 0.
    @inlinable
    public mutating func setSize(_ size: Size, of node: NodeID) {
        nodes[node.index].frame.size = Size(clamping: size.width, size.height)
    }

    /// The node's frame converted into `space`.
    @inlinable
    public func frame(of node: NodeID, in space: CoordinateSpace) -> Rect {
        let size = nodes[node.index].frame.size
        switch space {
        case .local:
            return Rect(origin: .zero, size: size)
        case .global:
            return Rect(origin: originInAncestor(node.index, stop: -1), size: size)
        case .named(let name):
            let ancestor = nearestDeclaring(name, from: node.index)
            return Rect(origin: originInAncestor(node.index, stop: ancestor), size: size)
        }
    }

    /// Converts a point given in `node`'s local space into `space`.
    @inlinable
    public func convert(_ point: Point, from node: NodeID, to space: CoordinateSpace) -> Point {
        frame(of: node, in: space).origin + point
    }

    /// The node that a `.named(name)` read from `node` resolves to, or nil (global) when no
    /// ancestor declares it.
    public func resolve(_ name: String, from node: NodeID) -> NodeID? {
        let index = nearestDeclaring(name, from: node.index)
        return index < 0 ? nil : NodeID(index)
    }

    /// `space` as seen from `node`, resolved once for reads repeated every frame: a named space
    /// is looked up (a walk up the parents comparing names) here rather than on each read.
    /// Valid while the tree's structure stays as it is; nodes may move and resize freely.
    public func resolve(_ space: CoordinateSpace, from node: NodeID) -> ResolvedCoordinateSpace {
        switch space {
        case .global: return ResolvedCoordinateSpace(ancestor: -1)
        case .local: return ResolvedCoordinateSpace(ancestor: node.index)
        case .named(let name): return ResolvedCoordinateSpace(ancestor: nearestDeclaring(name, from: node.index))
        }
    }

    /// The node's frame in a space resolved from it by `resolve(_:from:)`.
    @inlinable
    public func frame(of node: NodeID, in space: ResolvedCoordinateSpace) -> Rect {
        Rect(origin: originInAncestor(node.index, stop: space.ancestor), size: nodes[node.index].frame.size)
    }

    /// Sum of local origins from `index` up to, not including, `stop` (-1: through the root).
    @inlinable
    func originInAncestor(_ index: Int, stop: Int) -> Point {
        var origin = Point.zero
        var current = index
        while current != stop && current >= 0 {
            origin = origin + nodes[current].frame.origin
            current = nodes[current].parent
        }
        return origin
    }

    @usableFromInline
    func nearestDeclaring(_ name: String, from index: Int) -> Int {
        var current = index
        while current >= 0 {
            if nodes[current].coordinateSpaceName == name { return current }
            current = nodes[current].parent
        }
        return -1
    }

    /// A proxy for reading `node`'s geometry, as a `GeometryReader` hands one out.
    @inlinable
    public func geometry(of node: NodeID) -> GeometryProxy {
        GeometryProxy(tree: self, node: node)
    }

    /// Reduces the values that nodes contribute for `key`, visiting nodes in tree order
    /// (depth first, parents before children, siblings in order). A node contributes when
    /// `contribution` returns a value for it; the result starts from `Key.defaultValue`.
    public func preference<Key: PreferenceKey>(
        _ key: Key.Type,
        _ contribution: (GeometryProxy) -> Key.Value?
    ) -> Key.Value {
        var value = Key.defaultValue
        reduce(key, node: 0, into: &value, contribution)
        return value
    }

    private func reduce<Key: PreferenceKey>(
        _ key: Key.Type,
        node: Int,
        into value: inout Key.Value,
        _ contribution: (GeometryProxy) -> Key.Value?
    ) {
        if let next = contribution(GeometryProxy(tree: self, node: NodeID(node))) {
            Key.reduce(value: &value, nextValue: { next })
        }
        for child in nodes[node].children {
            reduce(key, node: child, into: &value, contribution)
        }
    }
}

/// A coordinate space pinned to the node whose local space it is (`ancestor`, or -1 for the
/// global space), so reading a frame in it is a walk that compares indices, not names.
public struct ResolvedCoordinateSpace: Hashable, Sendable {
    @usableFromInline let ancestor: Int

    @inlinable init(ancestor: Int) { self.ancestor = ancestor }
}
