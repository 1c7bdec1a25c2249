/// Read access to one node's geometry, as SwiftUI's `GeometryProxy`.
public struct GeometryProxy: Sendable {
    @usableFromInline let tree: ViewTree
    /// The node whose geometry this proxy reads.
    public let node: ViewTree.NodeID

    @inlinable
    init(tree: ViewTree, node: ViewTree.NodeID) {
        self.tree = tree
        self.node = node
    }

    /// The node's size, px (SwiftUI's `GeometryProxy.size`).
    @inlinable
    public var size: Size { tree.frame(of: node).size }

    /// The node's frame in `space`, px, as `GeometryProxy.frame(in:)`: a named space resolves to
    /// the nearest node (this one included) that declares it.
    @inlinable
    public func frame(in space: CoordinateSpace) -> Rect { tree.frame(of: node, in: space) }
}
