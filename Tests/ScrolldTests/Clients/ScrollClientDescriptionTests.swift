@testable import ScrollClient
import Testing

/// What a reconnecting client keeps of a container (docs/design.md §20): the rows as runs of equal
/// heights with every edit folded in, checked against the plain list of heights the edits make,
/// and bounded by the rows' shape, not by the number of calls.
@Suite("ScrollClient's container descriptions")
struct ScrollClientDescriptionTests {
    /// A deterministic generator (SplitMix64), so that a failure is the same on every run.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func expanded(_ runs: RowRuns) -> [Double] {
        runs.runs.flatMap { Array(repeating: $0.height, count: $0.count) }
    }

    @Test func editsFoldIntoRunsAsTheDaemonAppliesThem() {
        var random = SplitMix(state: 20)
        for _ in 0..<200 {
            var runs = RowRuns()
            var model: [Double] = []
            var declared = 44.0
            runs.describe(.init(count: 30, height: declared))
            model = Array(repeating: declared, count: 30)
            for _ in 0..<60 {
                switch Int.random(in: 0..<5, using: &random) {
                case 0:
                    let at = Int.random(in: 0...model.count, using: &random), count = Int.random(in: 0...5, using: &random)
                    let height: Double? = Bool.random(using: &random) ? nil : Double(Int.random(in: 1...4, using: &random) * 10)
                    runs.apply(.insert(at: at, count: count, height: height))
                    model.insert(contentsOf: Array(repeating: height ?? declared, count: count), at: at)
                case 1:
                    let at = Int.random(in: 0...model.count, using: &random)
                    let heights = (0..<Int.random(in: 0...3, using: &random)).map { _ in Double(Int.random(in: 1...4, using: &random) * 10) }
                    runs.apply(.insertHeights(at: at, heights: heights))
                    model.insert(contentsOf: heights, at: at)
                case 2 where !model.isEmpty:
                    let at = Int.random(in: 0..<model.count, using: &random)
                    let count = Int.random(in: 0...(model.count - at), using: &random)
                    runs.apply(.remove(at: at, count: count))
                    model.removeSubrange(at..<(at + count))
                case 3:
                    // `height` alone: every row that height, as many rows as there are.
                    declared = Double(Int.random(in: 1...4, using: &random) * 11)
                    runs.describe(.init(height: declared))
                    model = Array(repeating: declared, count: model.count)
                default:
                    // `count` alone: that many rows of the rows' own height.
                    let count = Int.random(in: 0...40, using: &random)
                    runs.describe(.init(count: count))
                    model = Array(repeating: declared, count: count)
                }
                #expect(Self.expanded(runs) == model)
                #expect(!runs.runs.contains { $0.count == 0 })
                #expect(zip(runs.runs, runs.runs.dropFirst()).allSatisfy { $0.height != $1.height }, "runs not merged")
            }
        }
    }

    /// However many edits, a list of one height is one run, and re-creating it is one request.
    @Test func memoryIsTheRowsShapeNotTheirHistory() {
        var description = ContainerDescription()
        description.apply(ContainerSettings(containerSize: Size(width: 400, height: 600), rows: .uniform(count: 1_000_000, height: 44)))
        for edit in 0..<100_000 {
            description.apply(ContainerSettings(rows: edit.isMultiple(of: 2) ? .insert(at: edit % 1000, count: 3) : .remove(at: edit % 1000, count: 3)))
        }
        #expect(description.rows?.runs == [RowRuns.Run(height: 44, count: 1_000_000)])
        let requests = description.configures(owned: true)
        #expect(requests.count == 1)
        // Re-created from the description: every key, the rows as they are, owned.
        let keys = requests[0].map(\.0)
        #expect(keys == ["containerSize", "rows", "owned"])
    }

    /// A touch frame (docs/design.md §25) is a key like the others: kept across later configures,
    /// sent again on a reconnection, and `.none` (`{}`) replaces it.
    @Test func aTouchFrameIsKeptAndSentAgain() {
        var description = ContainerDescription()
        description.apply(ContainerSettings(touchFrame: .frame(Rect(x: 0, y: 0.1, width: 1, height: 0.9))))
        description.apply(ContainerSettings(containerSize: Size(width: 400, height: 600), physics: .init(touchSlop: 12)))
        var request = description.configures(owned: false)[0]
        #expect(request.map(\.0) == ["containerSize", "physics", "touchFrame"])
        #expect(request.last?.1 == .object([("x", .double(0)), ("y", .double(0.1)), ("width", .double(1)), ("height", .double(0.9))]))
        #expect(request[1].1 == .object([("touchSlop", .double(12))]))
        description.apply(ContainerSettings(touchFrame: ContainerSettings.TouchFrame.none))
        request = description.configures(owned: false)[0]
        #expect(request.last.map { $0.0 == "touchFrame" && $0.1 == .object([]) } == true)
    }
}

/// A sequence that ends leaves nothing behind in its client: 600 subscriptions and 600
/// observations, ended by `cancel()`, by being dropped, or by their task's cancellation.
@Suite("ScrollClient's bookkeeping")
struct ScrollClientBookkeepingTests {
    @Test func endedSequencesLeaveNothingBehind() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        for cycle in 0..<600 {
            switch cycle % 3 {
            case 0:
                let states = client.states(of: "main")
                var iterator = states.makeAsyncIterator()
                _ = try await iterator.next()
                states.cancel()
            case 1:
                var iterator = client.states(of: "main").makeAsyncIterator()
                _ = try await iterator.next()
            default:
                let task = Task {
                    var iterator = client.states(of: "main").makeAsyncIterator()
                    while try await iterator.next() != nil {}
                }
                task.cancel()
                try await task.value
            }
            var phases = client.observe("main", .phase).makeAsyncIterator()
            _ = try await phases.next()
        }
        // Replies come in order: once the ping's is in, every unsubscribe's and unobserve's is.
        try await client.ping()
        let left = client.connection.bookkeeping
        #expect(left.subscriptions == 0 && left.consumers == 0 && left.observations == 0 && left.pending == 0, "\(left)")
    }
}
