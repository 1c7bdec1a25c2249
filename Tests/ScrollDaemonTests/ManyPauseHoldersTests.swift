import NIOCore
@testable import ScrollDaemon
import Testing

/// docs/design.md §19 with many holders: connections pausing many containers and closing in
/// various orders leave paused exactly the containers a simple model says, each with its
/// holders in the order they paused (what the restart store writes), and the daemon's book of
/// what each connection holds (what a close undoes, without looking at every container) says
/// the same. A `resume` from anyone resumes at once, however many hold the container.
@Suite("Many connections pausing many containers")
struct ManyPauseHoldersTests {
    /// The orders the holders close in.
    enum Closing: CaseIterable {
        case inTheOrderTheyConnected, inReverse, interleavedWithPausesAndResumes
    }

    @Test(arguments: Closing.allCases)
    func closingHoldersLeaveExactlyTheRightContainersPaused(_ closing: Closing) throws {
        let world = try PauseWorld(containers: 5)
        var choices = PauseChoices(seed: 19)
        var numbers: [Int] = []
        for _ in 0..<40 { numbers.append(try world.connect()) }
        // Interleaved pauses, some repeated (a repeat keeps its holder's place).
        for _ in 0..<160 {
            try world.pause(world.names[choices.next(world.names.count)], by: numbers[choices.next(numbers.count)])
        }
        // A few hold everything.
        for number in numbers.prefix(3) {
            for name in world.names { try world.pause(name, by: number) }
        }
        try world.check("after the pauses")
        switch closing {
        case .inTheOrderTheyConnected, .inReverse:
            let order = closing == .inReverse ? numbers.reversed() : numbers
            for number in order {
                try world.close(number)
                try world.check("after \(number) closed")
            }
        case .interleavedWithPausesAndResumes:
            for step in 0..<400 {
                let open = world.open.keys.sorted()
                switch choices.next(20) {
                case 0..<9: try world.pause(world.names[choices.next(world.names.count)], by: open[choices.next(open.count)])
                case 9..<15: try world.close(open[choices.next(open.count)]); _ = try world.connect()
                case 15: try world.resume(world.names[choices.next(world.names.count)], by: open[choices.next(open.count)])
                default: _ = try world.connect()
                }
                try world.check("step \(step)")
            }
            for number in world.open.keys.sorted(by: >) { try world.close(number) }
        }
        try world.check("after every holder closed")
        #expect(world.model.values.allSatisfy { $0.isEmpty })
        #expect(world.daemon.core.connections.held.isEmpty)
    }

    /// The holders' order survives closes anywhere in it, and the closing up of the holes they
    /// leave (when a connection pauses a container whose holes outnumber its holders).
    @Test func holdersKeepTheOrderTheyPausedInWhenTheHolesAreClosedUp() throws {
        let world = try PauseWorld(containers: 0)
        var choices = PauseChoices(seed: 7)
        for _ in 0..<60 { try world.pause("main", by: try world.connect()) }
        for step in 0..<600 {
            let open = world.open.keys.sorted()
            if choices.next(3) == 0 || open.count < 2 {
                try world.pause("main", by: try world.connect())
            } else if choices.next(4) == 0 {
                try world.pause("main", by: open[choices.next(open.count)])
            } else {
                try world.close(open[choices.next(open.count)])
            }
            try world.check("step \(step)")
        }
    }

    @Test func aResumeFromAnyoneResumesAtOnceHoweverManyHoldIt() throws {
        let world = try PauseWorld(containers: 3)
        var numbers: [Int] = []
        for _ in 0..<30 { numbers.append(try world.connect()) }
        for number in numbers {
            for name in world.names { try world.pause(name, by: number) }
        }
        // The watcher, holding nothing, resumes one; a holder resumes another.
        try world.resume("c1", by: nil)
        try world.check("after the watcher's resume")
        try world.resume("c2", by: numbers[17])
        try world.check("after a holder's resume")
        // Paused again by one of them after the resume: only that one's close resumes it.
        try world.pause("c1", by: numbers[29])
        for number in numbers {
            try world.close(number)
            try world.check("after \(number) closed")
        }
        #expect(world.daemon.core.connections.held.isEmpty)
    }

    /// A container removed (its owner closed, or a `remove`) leaves no hold in its holders' book
    /// entries; their closes still resume what they held.
    @Test func aRemovedContainerLeavesNoHoldBehind() throws {
        let world = try PauseWorld(containers: 1)
        let owner = try world.connect(), other = try world.connect(), pauser = try world.connect()
        #expect(try world.open[owner]?.request(#"{"op":"configure","container":"mine","owned":true,"id":1}"#)?["type"] as? String == "ok")
        #expect(try world.open[other]?.request(#"{"op":"configure","container":"theirs","owned":true,"id":1}"#)?["type"] as? String == "ok")
        for name in ["mine", "theirs", "main"] {
            for number in [pauser, owner, other] {
                #expect(try world.open[number]?.request(#"{"op":"pause","container":"\#(name)","id":2}"#)?["type"] as? String == "ok")
            }
        }
        #expect(world.daemon.core.connections.held[owner]?.owned.count == 1)
        try world.close(owner)
        #expect(try world.watcher.request(#"{"op":"remove","container":"theirs","id":3}"#)?["type"] as? String == "ok")
        let main = try #require(world.daemon.core.record(named: "main"))
        #expect(world.daemon.core.connections.held[pauser]?.paused.keys.sorted() == [main.id])
        #expect(world.daemon.core.connections.held[other]?.paused.keys.sorted() == [main.id])
        #expect(world.daemon.core.connections.held[other]?.owned == [])
        #expect(main.pausedBy == [pauser, other])
        try world.close(pauser)
        #expect(try world.isPaused("main"))
        try world.close(other)
        #expect(try !world.isPaused("main"))
        #expect(world.daemon.core.connections.held.isEmpty)
    }

    /// A restart takes the holders back from the store; those whose connections did not come
    /// back are dropped as if they had closed, and the ones back still hold until they close.
    @Test func holdersWhoseConnectionsDidNotComeBackAreDroppedAtARestart() throws {
        let buffer = RestoreTests.newBuffer()
        let keeper = RestoreTests.Keeper()
        let before = try RestoreTests.keeping(in: buffer, keeper: keeper)
        var connections: [Connection] = []
        for _ in 1...6 { connections.append(try before.connect()) }
        for name in ["a", "b", "c"] {
            #expect(try connections[0].request(#"{"op":"configure","container":"\#(name)","id":1}"#)?["type"] as? String == "ok")
        }
        // Connection numbers 1...6, pausing in an order of their own.
        let pauses: [(String, Int)] = [("a", 6), ("a", 2), ("b", 3), ("a", 4), ("b", 5), ("c", 1), ("a", 5), ("b", 2), ("main", 3), ("c", 6)]
        for (name, number) in pauses {
            #expect(try connections[number - 1].request(#"{"op":"pause","container":"\#(name)","id":2}"#)?["type"] as? String == "ok")
        }
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        #expect(taken.snapshot.containers.map(\.pausedBy) == [[3], [6, 2, 4, 5], [3, 5, 2], [1, 6]])

        let after = try RestoreTests.keeping(in: RestoreTests.newBuffer(), keeper: keeper, restoring: taken, connections: [2, 5])
        let expected: [String: [Int]] = ["main": [], "a": [2, 5], "b": [5, 2], "c": []]
        for (name, holders) in expected {
            #expect(after.core.record(named: name)?.pausedBy == holders, "\(name)")
            #expect(after.core.session.engine.slots[after.core.session.index(of: name)!].isPaused == !holders.isEmpty, "\(name)")
        }
        #expect(Set(after.core.connections.held.keys) == [2, 5])
        try after.reconnect(number: 5).channel.close().wait()
        #expect(after.core.record(named: "b")?.pausedBy == [2])
        let two = try after.reconnect(number: 2)
        _ = try two.drain()
        try two.channel.close().wait()
        #expect(after.core.session.engine.slots.allSatisfy { !$0.isPaused })
        #expect(after.core.connections.held.isEmpty)
    }
}

/// An embedded daemon, its connections by number, and the model of who holds what.
final class PauseWorld {
    let daemon: EmbeddedDaemon
    /// Holds nothing; reads the containers' states.
    let watcher: Connection
    let names: [String]
    var open: [Int: Connection] = [:]
    /// Each container's holders in the order they paused (§19, the simple way).
    var model: [String: [Int]] = [:]

    init(containers: Int) throws {
        daemon = try EmbeddedDaemon()
        watcher = try daemon.connect()
        names = ["main"] + (1..<(containers + 1)).map { "c\($0)" }
        for name in names.dropFirst() {
            #expect(try watcher.request(#"{"op":"configure","container":"\#(name)","id":1}"#)?["type"] as? String == "ok")
        }
        for name in names { model[name] = [] }
    }

    func connect() throws -> Int {
        let connection = try daemon.connect()
        let number = try #require(daemon.core.connections.inOrder.last?.number)
        open[number] = connection
        return number
    }

    func pause(_ name: String, by number: Int) throws {
        #expect(try open[number]?.request(#"{"op":"pause","container":"\#(name)","id":1}"#)?["type"] as? String == "ok")
        if model[name]?.contains(number) == false { model[name]?.append(number) }
    }

    /// A `resume` from connection `number` (nil: the watcher).
    func resume(_ name: String, by number: Int?) throws {
        let connection = try #require(number.map { open[$0] } ?? watcher)
        #expect(try connection.request(#"{"op":"resume","container":"\#(name)","id":1}"#)?["type"] as? String == "ok")
        model[name] = []
    }

    func close(_ number: Int) throws {
        try open.removeValue(forKey: number)?.channel.close().wait()
        for name in names { model[name]?.removeAll { $0 == number } }
    }

    func isPaused(_ name: String) throws -> Bool {
        let state = try watcher.request(#"{"op":"get","container":"\#(name)","id":9}"#)
        #expect(state?["type"] as? String == "state")
        return state?["paused"] as? Bool ?? false
    }

    /// Every container against the model: paused or not, its holders in order, and each
    /// connection's book entry the containers it holds.
    func check(_ step: String) throws {
        var book: [Int: Set<String>] = [:]
        for name in names {
            let holders = model[name] ?? []
            #expect(try isPaused(name) == !holders.isEmpty, "\(name) \(step)")
            #expect(daemon.core.record(named: name)?.pausedBy == holders, "\(name) \(step)")
            for number in holders { book[number, default: []].insert(name) }
        }
        let held = daemon.core.connections.held
        #expect(held.mapValues { Set($0.paused.keys.compactMap { self.daemon.core.publisher[$0]?.name }) } == book, "\(step)")
        // Each holder's place is its place in the container's order.
        for (number, leases) in held {
            for (id, place) in leases.paused {
                let order = daemon.core.publisher[id]?.pausers.order ?? []
                #expect(place < order.count && order[place] == number, "\(number) \(step)")
            }
        }
    }
}

/// A deterministic stream of choices (SplitMix64).
struct PauseChoices {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
