/// Read access to one node's geometry, as SwiftUI's `GeometryProxy`.
public struct GeometryProxy: Sendable {
    @usableFromInline let tree: ViewTree
    public let node: ViewTree.NodeID

    @inlinable
    init(tree: ViewTree, node: ViewTree.NodeID) {
        self.tree = tree
        self.node = node
    }

    @inlinable
    public var size: Size { tree.frame(of: node).size }

    @inlinable
    public func frame(in space: CoordinateSpace) -> Rect { tree.frame(of: node, in: space) }
}
