@testable import ScrollDaemon
import ScrollModel
import ScrollProtocol
import Testing

/// The session's stored form (docs/design.md §16): the document round-trips, and anything that does
/// not add up — garbage, a truncated file, another version, a torn write — is refused with the
/// reason or falls back to the intact copy.
@Suite("Session snapshot memory")
struct SnapshotMemoryTests {
    static let snapshot = RestartSnapshot(
        instance: "0123456789abcdef0123456789abcdef", nextClientNumber: 7, focus: "list", focusedBy: 3,
        containers: [
            .init(name: "main", settings: [ConfigureSetting(key: "containerSize", value: .object([("width", .double(800)), ("height", .double(600))]))], seq: 4, offset: Point(x: 0, y: 10), paused: false),
            .init(name: "list", settings: [ConfigureSetting(key: "contentSize", value: .object([("width", .double(400)), ("height", .double(9000.25))]))], seq: 12, offset: Point(x: 0, y: 1234.5), paused: true, pausedBy: [3], owner: 3),
        ],
        connections: [
            .init(number: 3, requests: [
                .subscribe(container: "list", rate: nil), .subscribe(container: "main", rate: 30),
                .observe(container: "list", observation: .phase, id: RequestID("p")),
            ]),
            .init(number: 5, requests: []),
        ]
    )

    /// A heap buffer standing in for the memfd's mapping; it can grow (copying, as mremap would).
    final class Buffer {
        var bytes: UnsafeMutableRawBufferPointer
        init(size: Int) {
            bytes = .allocate(byteCount: size, alignment: 16)
            bytes.initializeMemory(as: UInt8.self, repeating: 0)
        }
        func grow(to size: Int) -> UnsafeMutableRawBufferPointer? {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            larger.initializeMemory(as: UInt8.self, repeating: 0)
            UnsafeMutableRawBufferPointer(rebasing: larger[0..<bytes.count]).copyMemory(from: UnsafeRawBufferPointer(bytes))
            bytes.deallocate()
            bytes = larger
            return larger
        }
        deinit { bytes.deallocate() }
    }

    static func memory(documentCapacity: Int = 4096, slotCapacity: Int = 4) -> (Buffer, SnapshotMemory) {
        let buffer = Buffer(size: SnapshotMemory.size(documentCapacity: documentCapacity, slotCapacity: slotCapacity))
        let memory = SnapshotMemory(formatting: buffer.bytes, documentCapacity: documentCapacity, slotCapacity: slotCapacity) { buffer.grow(to: $0) }
        return (buffer, memory)
    }

    static func slots(for snapshot: RestartSnapshot) -> [SnapshotMemory.Slot] {
        snapshot.containers.map {
            SnapshotMemory.Slot(seq: $0.seq, time: 1000, offset: $0.offset, velocity: Point(x: 0, y: 0), phase: .idle, nameHash: SnapshotMemory.nameHash($0.name))
        }
    }

    @Test func theDocumentRoundTrips() throws {
        let decoded = try RestartSnapshot(decoding: Self.snapshot.encoded())
        #expect(decoded == Self.snapshot)
    }

    @Test func theMemoryRoundTripsAndAPublicationIsTakenFromItsSlot() throws {
        let (buffer, memory) = Self.memory()
        #expect(memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot)))
        // Two publications of `list` after the document: the newest counts.
        let hash = SnapshotMemory.nameHash("list")
        memory.write(SnapshotMemory.Slot(seq: 13, time: 2000, offset: Point(x: 0, y: 1300), velocity: Point(x: 0, y: 900), phase: .decelerating, nameHash: hash), at: 1)
        memory.write(SnapshotMemory.Slot(seq: 14, time: 3000, offset: Point(x: 0, y: 1400.75), velocity: Point(x: 0, y: 200), phase: .decelerating, nameHash: hash), at: 1)
        let (read, slots) = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        var expected = Self.snapshot
        expected.containers[1].seq = 14
        expected.containers[1].offset = Point(x: 0, y: 1400.75)
        #expect(read == expected)
        #expect(slots[1]?.phase == .decelerating)
        #expect(slots[1]?.velocity == Point(x: 0, y: 200))
        #expect(slots[0]?.seq == 4)
    }

    @Test func aTornPublicationFallsBackToThePreviousOne() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        let hash = SnapshotMemory.nameHash("list")
        memory.write(SnapshotMemory.Slot(seq: 13, time: 2000, offset: Point(x: 0, y: 1300), velocity: Point(x: 0, y: 0), phase: .idle, nameHash: hash), at: 1)
        memory.write(SnapshotMemory.Slot(seq: 14, time: 3000, offset: Point(x: 0, y: 1400), velocity: Point(x: 0, y: 0), phase: .idle, nameHash: hash), at: 1)
        // The process died in the middle of writing seq 14: half its offset is stored.
        let slotStart = 64 + 2 * memory.documentCapacity + (1 * 2 + 0) * 80  // 80-byte slots (format version 2)
        buffer.bytes.storeBytes(of: 7.0, toByteOffset: slotStart + 24, as: Double.self)
        let (read, _) = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        #expect(read.containers[1].seq == 13)
        #expect(read.containers[1].offset.y == 1300)
    }

    @Test func aDocumentRewrittenKeepsThePreviousOneUntilItIsComplete() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        var changed = Self.snapshot
        changed.focus = nil
        memory.write(document: changed.encoded(), slots: Self.slots(for: changed))
        #expect(try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)).snapshot.focus == nil)
        // Garbage in the inactive copy (copy 1 after two writes: a write cut short) changes nothing.
        let inactive = 64 + 1 * memory.documentCapacity
        for offset in inactive..<(inactive + 100) { buffer.bytes[offset] = 0x5A }
        #expect(try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)).snapshot == changed)
    }

    @Test func aSessionThatOutgrowsTheMemoryGrowsIt() throws {
        let (buffer, memory) = Self.memory(documentCapacity: 128, slotCapacity: 1)
        #expect(memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot)))
        #expect(memory.documentCapacity >= Self.snapshot.encoded().count + 8)
        #expect(memory.slotCapacity >= 2)
        #expect(try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)).snapshot == Self.snapshot)
    }

    @Test func garbageIsRefusedNamingTheProblem() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        for offset in 0..<buffer.bytes.count { buffer.bytes[offset] = UInt8(truncatingIfNeeded: offset &* 31 &+ 7) }
        #expect(throws: SnapshotError("not a scrolld session (bad magic)")) { try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)) }
    }

    @Test func aCorruptDocumentIsRefusedByItsChecksum() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        // The active document is copy 1 after one write; a byte of its JSON flipped.
        buffer.bytes[64 + memory.documentCapacity + 8 + 20] ^= 0x01
        #expect(throws: SnapshotError("the document's checksum does not match")) { try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)) }
    }

    @Test func aTruncatedFileIsRefused() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        let needed = SnapshotMemory.size(documentCapacity: 4096, slotCapacity: 4)
        #expect(throws: SnapshotError("truncated: 1000 bytes, the layout needs \(needed)")) {
            try SnapshotMemory.read(UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<1000]))
        }
        #expect(throws: SnapshotError("truncated: 10 bytes, less than the 64-byte header")) {
            try SnapshotMemory.read(UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<10]))
        }
    }

    @Test func anotherVersionIsRefused() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        buffer.bytes.storeBytes(of: UInt32(1), toByteOffset: 8, as: UInt32.self)
        #expect(throws: SnapshotError("format version 1, this scrolld reads version 2")) { try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)) }
    }

    /// A header whose document capacity is not a multiple of 8 would put the numbers after it
    /// out of alignment (a load from a misaligned pointer ended the debug build): refused.
    @Test func aLayoutThatWouldMisalignTheSlotsIsRefused() throws {
        let (buffer, memory) = Self.memory()
        memory.write(document: Self.snapshot.encoded(), slots: Self.slots(for: Self.snapshot))
        buffer.bytes.storeBytes(of: UInt32(4095), toByteOffset: 12, as: UInt32.self)
        buffer.bytes.storeBytes(of: SnapshotMemory.checksum(UnsafeRawBufferPointer(rebasing: buffer.bytes[0..<20])), toByteOffset: 20, as: UInt32.self)
        #expect(throws: SnapshotError("the document capacity 4095 is not a multiple of 8")) { try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes)) }
    }

    @Test func aDocumentThatIsNotASessionIsRefused() {
        #expect(throws: SnapshotError("the member \"containers\" is missing")) { try RestartSnapshot(decoding: Array(#"{"instance":"x"}"#.utf8)) }
    }

    /// A store written when a pause had one holder (an integer, or null) is still taken back.
    @Test func aStoreWithOnePauserOrNoneIsTakenBack() throws {
        func pausers(_ value: String) throws -> [Int] {
            let document = #"{"instance":"x","nextClient":2,"focus":null,"focusedBy":null,"connections":[],"containers":[{"name":"m","settings":{},"seq":1,"x":0,"y":0,"paused":true,"pausedBy":\#(value),"owner":null,"refreshing":false,"headerHeight":null}]}"#
            return try RestartSnapshot(decoding: Array(document.utf8)).containers[0].pausedBy
        }
        #expect(try pausers("3") == [3])
        #expect(try pausers("null") == [])
        #expect(try pausers("[3,5]") == [3, 5])
        #expect(throws: SnapshotError("\"pausedBy\" is not a list of integers")) { try pausers("\"3\"") }
    }

    /// A damaged store's `seq` past 2^53 is refused, not taken back to overflow at the next state.
    @Test func aStoreWithASeqPastTwoToThe53IsRefused() throws {
        func seq(_ value: String) throws -> Int {
            let document = #"{"instance":"x","nextClient":2,"focus":null,"focusedBy":null,"connections":[],"containers":[{"name":"m","settings":{},"seq":\#(value),"x":0,"y":0,"paused":false,"pausedBy":[],"owner":null,"refreshing":false,"headerHeight":null}]}"#
            return try RestartSnapshot(decoding: Array(document.utf8)).containers[0].seq
        }
        #expect(try seq("9007199254740992") == 1 << 53)
        #expect(throws: SnapshotError("\"seq\" is not an integer from 0 to 2^53")) { try seq("9223372036854775807") }
        #expect(throws: SnapshotError("\"seq\" is not an integer from 0 to 2^53")) { try seq("-1") }
    }
}

