import ScrollModel

/// One published state of one container: what a subscriber that takes every state receives,
/// live or in a replay. `id` names the container; `seq` numbers the state (docs/design.md §4).
public typealias Publication = ScrollEngine.Update

/// What one command published, in order, and — for a ``Command/restore(_:at:)`` — the
/// containers it could not take back.
///
/// A window on one buffer the session keeps for every command: each command's publications
/// are appended after the last one's, and the buffer is emptied only once it has grown past a
/// few hundred. A caller that is done with one command's publications before applying the next
/// (the daemon, the replayer) costs no allocation and no clearing per command.
public struct Publications: RandomAccessCollection, Sendable {
    var states: [Publication] = []
    /// Where this command's publications begin in ``states``.
    var start = 0
    /// The containers a restore refused, each with the reason.
    public var refused: [(name: String, problem: String)] { refusals ?? [] }
    /// Nil but after a restore that refused some: a copy of the publications then retains one
    /// buffer, not two.
    var refusals: [(name: String, problem: String)]?

    public var startIndex: Int { start }
    public var endIndex: Int { states.endIndex }
    public subscript(position: Int) -> Publication { states[position] }

    /// Opens the window for the next command.
    mutating func next() {
        if states.count > 256 { states.removeAll(keepingCapacity: true) }
        start = states.count
        refusals = nil
    }
}
