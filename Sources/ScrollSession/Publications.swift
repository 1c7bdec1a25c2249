import ScrollModel

/// One published state of one container: what a subscriber that takes every state receives,
/// live or in a replay. `id` names the container; `seq` numbers the state (docs/design.md §4).
public typealias Publication = ScrollEngine.Update

/// What one command published, in order, and — for a ``Command/restore(_:at:)`` — the
/// containers it could not take back.
///
/// The session keeps one buffer for it and hands it out with each command: a caller that is
/// done with one command's publications before applying the next costs no allocation, and the
/// buffer's first entries, where nearly every command writes, stay in the cache.
public struct Publications: RandomAccessCollection, Sendable {
    var states: [Publication] = []
    /// The containers a restore refused, each with the reason.
    public var refused: [(name: String, problem: String)] { refusals ?? [] }
    /// Nil but after a restore that refused some: a copy of the publications then retains one
    /// buffer, not two.
    var refusals: [(name: String, problem: String)]?

    public var startIndex: Int { states.startIndex }
    public var endIndex: Int { states.endIndex }
    public subscript(position: Int) -> Publication { states[position] }

    /// Empties the buffer for the next command, keeping its capacity. (`removeLast()` for the
    /// common single state cost more: it copies the state out to return it.)
    mutating func next() {
        if !states.isEmpty { states.removeAll(keepingCapacity: true) }
        refusals = nil
    }
}
