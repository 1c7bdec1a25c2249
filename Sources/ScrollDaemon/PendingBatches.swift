import ScrollModel
import ScrollProtocol
import ScrollSession

/// The state lines published since the last delivery, one batch per container, each state
/// encoded once however many subscribe.
///
/// A value the core keeps in one stored property: publishing a state reaches the encoder, its
/// scratch line and the batch through a single access to the core, where the same fields kept
/// as the core's own properties cost a dynamic exclusivity check each, ten a state
/// (docs/performance-live.md, finding 8).
struct PendingBatches {
    private var batches: [PublishedBatch?] = []
    /// One encoder for all containers: its remembered opening and sizes are per container, so
    /// interleaved containers re-encode them, which costs no more than having no memory.
    private var encoder = StateEncoder()
    private var line: [UInt8] = []

    /// The containers it has room for, in the session's order.
    var count: Int { batches.count }

    mutating func addContainer() {
        batches.append(nil)
    }

    mutating func removeContainer(at index: Int) {
        batches.remove(at: index)
    }

    /// Encodes `publication` as its container's next line (`name` is the container's name).
    mutating func add(_ publication: Publication, name: String) {
        line.removeAll(keepingCapacity: true)
        encoder.encode(publication.state, container: name, seq: publication.seq, paused: publication.paused, into: &line)
        line.append(UInt8(ascii: "\n"))
        let index = publication.container
        if batches[index] == nil { batches[index] = PublishedBatch() }
        batches[index]!.append(line: line)
    }

    /// The batch of the container at `index`, if it has one, which it then no longer has.
    mutating func take(_ index: Int) -> PublishedBatch? {
        batches[index].take()
    }
}
