import ScrollModel
import Testing

@Suite("Geometry values and coordinate spaces")
struct GeometryTests {
    @Test func valuesAreDoublePrecisionAndSizesClampNegativeToZero() {
        let rect = Rect(x: 0.1, y: 0.2, width: 10, height: 20)
        #expect(rect.maxX == 10.1)
        #expect(rect.maxY == 20.2)
        #expect(Size(clamping: -5, 3) == Size(width: 0, height: 3))
        #expect(Point(x: 1, y: 2) + Point(x: 0.5, y: -4) == Point(x: 1.5, y: -2))
        #expect(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4).leadingEdge(.horizontal) == 2)
    }

    /// root ─ outer (named "scroll", at 10,20) ─ inner (at 5,5) ─ leaf (at 1,2)
    ///                                        └ nested (named "scroll" too, at 100,0) ─ deep (at 3,4)
    func tree() -> (ViewTree, leaf: ViewTree.NodeID, deep: ViewTree.NodeID, outer: ViewTree.NodeID) {
        var tree = ViewTree(rootSize: Size(width: 1000, height: 1000))
        let outer = tree.addChild(to: tree.root, frame: Rect(x: 10, y: 20, width: 500, height: 500), coordinateSpace: "scroll")
        let inner = tree.addChild(to: outer, frame: Rect(x: 5, y: 5, width: 100, height: 100))
        let leaf = tree.addChild(to: inner, frame: Rect(x: 1, y: 2, width: 7, height: 8))
        let nested = tree.addChild(to: inner, frame: Rect(x: 100, y: 0, width: 50, height: 50), coordinateSpace: "scroll")
        let deep = tree.addChild(to: nested, frame: Rect(x: 3, y: 4, width: 9, height: 9))
        return (tree, leaf, deep, outer)
    }

    @Test func framesConvertBetweenGlobalLocalAndNamedSpaces() {
        let (tree, leaf, _, _) = tree()
        #expect(tree.frame(of: leaf, in: .global) == Rect(x: 16, y: 27, width: 7, height: 8))
        #expect(tree.frame(of: leaf, in: .local) == Rect(x: 0, y: 0, width: 7, height: 8))
        #expect(tree.frame(of: leaf, in: .named("scroll")) == Rect(x: 6, y: 7, width: 7, height: 8))
        #expect(tree.convert(Point(x: 1, y: 1), from: leaf, to: .global) == Point(x: 17, y: 28))
    }

    @Test func aNamedSpaceResolvesToTheNearestAncestorThatDeclaresIt() {
        let (tree, _, deep, outer) = tree()
        // The nested container's own space, not the outer one's.
        #expect(tree.frame(of: deep, in: .named("scroll")).origin == Point(x: 3, y: 4))
        #expect(tree.frame(of: deep, in: .global).origin == Point(x: 118, y: 29))
        #expect(tree.resolve("scroll", from: deep) != outer)
        // A node that declares the space reads itself at its origin.
        #expect(tree.frame(of: outer, in: .named("scroll")).origin == .zero)
    }

    @Test func aResolvedSpaceReadsTheSameFramesAsTheSpaceItCameFrom() {
        var (tree, leaf, deep, outer) = tree()
        for node in [leaf, deep, outer] {
            for space in [CoordinateSpace.global, .local, .named("scroll"), .named("nowhere")] {
                let resolved = tree.resolve(space, from: node)
                #expect(tree.frame(of: node, in: resolved) == tree.frame(of: node, in: space))
            }
        }
        // Resolution pins the declaring node, not positions: moving nodes keeps it valid.
        let resolved = tree.resolve(.named("scroll"), from: deep)
        tree.setOrigin(Point(x: -50, y: 25), of: deep)
        #expect(tree.frame(of: deep, in: resolved) == tree.frame(of: deep, in: .named("scroll")))
        #expect(tree.frame(of: deep, in: resolved).origin == Point(x: -50, y: 25))
    }

    @Test func anUndeclaredNameFallsBackToGlobal() {
        let (tree, leaf, _, _) = tree()
        #expect(tree.frame(of: leaf, in: .named("nowhere")) == tree.frame(of: leaf, in: .global))
        #expect(tree.resolve("nowhere", from: leaf) == nil)
    }

    @Test func aScrollContainerProposesNilAlongItsAxesAndItsSizeAcross() {
        let size = Size(width: 800, height: 600)
        #expect(ProposedViewSize.scrollContent(containerSize: size, axes: .vertical) == ProposedViewSize(width: 800, height: nil))
        #expect(ProposedViewSize.scrollContent(containerSize: size, axes: .horizontal) == ProposedViewSize(width: nil, height: 600))
        #expect(ProposedViewSize.scrollContent(containerSize: size, axes: .both) == .unspecified)
    }

    @Test func aViewWithoutAnIdealSizeTakesTenAlongAnUnspecifiedAxis() {
        #expect(ProposedViewSize(width: 800, height: nil).replacingUnspecifiedDimensions() == Size(width: 800, height: 10))
        #expect(ProposedViewSize.unspecified.replacingUnspecifiedDimensions() == Size(width: 10, height: 10))
        #expect(ProposedViewSize(width: -20, height: nil).replacingUnspecifiedDimensions() == Size(width: 0, height: 10))
    }
}
