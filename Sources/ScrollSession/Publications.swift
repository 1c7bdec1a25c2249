import ScrollModel

/// One published state of one container: what a subscriber that takes every state receives,
/// live or in a replay. `id` names the container; `seq` numbers the state (docs/design.md §4).
public typealias Publication = ScrollEngine.Update

/// What one command published, in order, and — for a ``Command/restore(_:at:)`` — the
/// containers it could not take back.
///
/// The session keeps one buffer for it and hands it out with each command: a caller that is
/// done with one command's publications before applying the next costs no allocation.
public struct Publications: RandomAccessCollection, Sendable {
    var states: [Publication] = []
    /// The containers a restore refused, each with the reason.
    public internal(set) var refused: [(name: String, problem: String)] = []

    public var startIndex: Int { states.startIndex }
    public var endIndex: Int { states.endIndex }
    public subscript(position: Int) -> Publication { states[position] }

    mutating func reset() {
        // Most input publishes one state or none: emptying an empty buffer costs a call.
        if !states.isEmpty { states.removeAll(keepingCapacity: true) }
        if !refused.isEmpty { refused.removeAll() }
    }
}
