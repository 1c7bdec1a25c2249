import ScrollModel

/// The layout of the session's memfd (docs/design.md §16), written in place through a shared
/// mapping so that keeping it current costs memory writes, never a system call.
///
/// ```
/// 0    magic "SCRLDSES", version (u32), document capacity (u32), slot capacity (u32),
///      header checksum (u32, over the bytes before it), active document (u32: 0 or 1)
/// 64   document 0: length (u32), checksum (u32), JSON (RestartSnapshot)
///      document 1: the same, at 64 + capacity
///      slots: per container (by its index in the document), two copies of its last
///      publication (seq, t, offset, velocity, phase, name hash, checksum), 64 bytes each
/// ```
///
/// A write never touches what a reader would take now: a document goes to the inactive copy
/// and then becomes active with one aligned 4-byte store; a publication goes to the copy its
/// seq's parity names, so the other holds the previous one. A process killed mid-write (the
/// very case this exists for) thus leaves a valid copy of everything. Numbers are the host's
/// byte order: only the same machine ever reads them back.
package final class SnapshotMemory {
    /// One container's last publication.
    package struct Slot: Hashable, Sendable {
        package var seq: Int
        package var time: Timestamp
        package var offset: Point
        package var velocity: Point
        package var phase: ScrollPhase
        /// Which container it belongs to (a document listing containers in another order
        /// never takes another's slot).
        package var nameHash: UInt32
        /// The state's `refreshing` and its header's height (docs/design.md §21): a refresh and
        /// an `enterAlways` header come back as they were.
        package var refreshing: Bool
        package var headerHeight: Double?

        package init(seq: Int, time: Timestamp, offset: Point, velocity: Point, phase: ScrollPhase, nameHash: UInt32, refreshing: Bool = false, headerHeight: Double? = nil) {
            self.seq = seq
            self.time = time
            self.offset = offset
            self.velocity = velocity
            self.phase = phase
            self.nameHash = nameHash
            self.refreshing = refreshing
            self.headerHeight = headerHeight
        }

        /// Why no publication could have these numbers (a damaged or crafted store), or nil: its
        /// `seq` is one a restore may set (``Limits/sequence``), its offset and velocity are
        /// finite and within ``Limits/stateMagnitude``, its header's height within 0…10⁹. They
        /// reach a subscriber: the state goes on from `seq`, an observation's `old` is its value.
        package var problem: String? {
            guard Limits.sequence.contains(seq) else { return "seq \(seq) is not from 0 to 2^53" }
            let numbers = [("offset.x", offset.x), ("offset.y", offset.y), ("velocity.x", velocity.x), ("velocity.y", velocity.y)]
            for (name, value) in numbers where !(value.isFinite && abs(value) <= Limits.stateMagnitude) {
                return "\(name) \(value) is not a finite number within ±1e17"
            }
            if let headerHeight, !(headerHeight.isFinite && (0...Limits.magnitude).contains(headerHeight)) {
                return "the header's height \(headerHeight) is not from 0 to 1e9"
            }
            return nil
        }

        /// A publication's slot.
        package init(seq: Int, state: ScrollState, nameHash: UInt32) {
            self.init(
                seq: seq, time: state.time, offset: state.contentOffset, velocity: state.velocity, phase: state.phase,
                nameHash: nameHash, refreshing: state.refreshing ?? false, headerHeight: state.header?.height
            )
        }
    }

    package static let magic: [UInt8] = Array("SCRLDSES".utf8)
    /// 2: a slot also holds `refreshing` and the header's height (80 bytes, 72 checksummed).
    package static let version: UInt32 = 2
    static let headerSize = 64
    static let slotSize = 80
    static let slotChecksummed = 72
    static let phases = ScrollPhase.allCases

    /// The mapping; replaced when the layout grows.
    package private(set) var bytes: UnsafeMutableRawBufferPointer
    package private(set) var documentCapacity: Int
    package private(set) var slotCapacity: Int
    /// Asked for a mapping of at least the given size (the memfd grown and mapped again);
    /// nil: it cannot grow, and what does not fit is not kept.
    let grow: (Int) -> UnsafeMutableRawBufferPointer?

    /// Formats `bytes` (which must hold ``size(documentCapacity:slotCapacity:)``) as an empty
    /// session.
    package init(formatting bytes: UnsafeMutableRawBufferPointer, documentCapacity: Int = 64 * 1024, slotCapacity: Int = 64, grow: @escaping (Int) -> UnsafeMutableRawBufferPointer?) {
        self.bytes = bytes
        self.documentCapacity = documentCapacity
        self.slotCapacity = slotCapacity
        self.grow = grow
        format()
    }

    package static func size(documentCapacity: Int, slotCapacity: Int) -> Int {
        headerSize + 2 * documentCapacity + slotCapacity * 2 * slotSize
    }

    private func format() {
        for index in 0..<Self.headerSize { bytes[index] = 0 }
        for (index, byte) in Self.magic.enumerated() { bytes[index] = byte }
        bytes.storeBytes(of: Self.version, toByteOffset: 8, as: UInt32.self)
        bytes.storeBytes(of: UInt32(documentCapacity), toByteOffset: 12, as: UInt32.self)
        bytes.storeBytes(of: UInt32(slotCapacity), toByteOffset: 16, as: UInt32.self)
        bytes.storeBytes(of: Self.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<20])), toByteOffset: 20, as: UInt32.self)
        bytes.storeBytes(of: UInt32(0), toByteOffset: 24, as: UInt32.self)
        let empty = Self.headerSize
        bytes.storeBytes(of: UInt32(0), toByteOffset: empty, as: UInt32.self)
        bytes.storeBytes(of: UInt32.max, toByteOffset: empty + 4, as: UInt32.self)
        let slots = Self.headerSize + 2 * documentCapacity
        for index in slots..<(slots + slotCapacity * 2 * Self.slotSize) { bytes[index] = 0 }
    }

    /// Makes `document` the session's, with `slots` for its containers (written first).
    /// Returns false when it does not fit and the memory cannot grow: the previous document stays.
    @discardableResult
    package func write(document: [UInt8], slots: [Slot]) -> Bool {
        if document.count + 8 > documentCapacity || slots.count > slotCapacity {
            var documentCapacity = self.documentCapacity, slotCapacity = self.slotCapacity
            while document.count + 8 > documentCapacity { documentCapacity *= 2 }
            while slots.count > slotCapacity { slotCapacity *= 2 }
            guard let larger = grow(Self.size(documentCapacity: documentCapacity, slotCapacity: slotCapacity)) else { return false }
            bytes = larger
            self.documentCapacity = documentCapacity
            self.slotCapacity = slotCapacity
            format()
        }
        for (index, slot) in slots.enumerated() {
            write(slot, at: index)
            // Both copies: a slot that changed hands must not keep the previous owner's.
            var other = slot
            other.seq -= 1
            write(other, at: index, copy: (slot.seq + 1) & 1)
        }
        let active = Int(bytes.load(fromByteOffset: 24, as: UInt32.self) & 1)
        let next = 1 - active
        let start = Self.headerSize + next * documentCapacity
        bytes.storeBytes(of: UInt32(document.count), toByteOffset: start, as: UInt32.self)
        document.withUnsafeBytes { source in
            UnsafeMutableRawBufferPointer(rebasing: bytes[(start + 8)..<(start + 8 + source.count)]).copyMemory(from: source)
            bytes.storeBytes(of: Self.checksum(source), toByteOffset: start + 4, as: UInt32.self)
        }
        bytes.storeBytes(of: UInt32(next), toByteOffset: 24, as: UInt32.self)
        return true
    }

    /// Records a publication of the container at `index`: 72 bytes stored, no system call.
    @inline(__always)
    package func write(_ slot: Slot, at index: Int) {
        write(slot, at: index, copy: slot.seq & 1)
    }

    private func write(_ slot: Slot, at index: Int, copy: Int) {
        guard index < slotCapacity else { return }
        let start = Self.headerSize + 2 * documentCapacity + (index * 2 + copy) * Self.slotSize
        bytes.storeBytes(of: Int64(slot.seq), toByteOffset: start, as: Int64.self)
        bytes.storeBytes(of: Int64(slot.time), toByteOffset: start + 8, as: Int64.self)
        bytes.storeBytes(of: slot.offset.x, toByteOffset: start + 16, as: Double.self)
        bytes.storeBytes(of: slot.offset.y, toByteOffset: start + 24, as: Double.self)
        bytes.storeBytes(of: slot.velocity.x, toByteOffset: start + 32, as: Double.self)
        bytes.storeBytes(of: slot.velocity.y, toByteOffset: start + 40, as: Double.self)
        bytes.storeBytes(of: UInt32(Self.phases.firstIndex(of: slot.phase) ?? 0), toByteOffset: start + 48, as: UInt32.self)
        bytes.storeBytes(of: slot.nameHash, toByteOffset: start + 52, as: UInt32.self)
        bytes.storeBytes(of: slot.headerHeight ?? 0, toByteOffset: start + 56, as: Double.self)
        let flags = (slot.refreshing ? 1 : 0) | (slot.headerHeight == nil ? 0 : 2)
        bytes.storeBytes(of: UInt64(flags), toByteOffset: start + 64, as: UInt64.self)
        let sum = Self.checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + Self.slotChecksummed)]))
        bytes.storeBytes(of: sum, toByteOffset: start + Self.slotChecksummed, as: UInt32.self)
    }

    // MARK: Reading

    /// The stored session in `bytes`, with each container's seq and offset taken from its slot
    /// when that is newer than the document. Refused, saying why, when anything does not add up:
    /// the magic, the version, a checksum, a size.
    package static func read(_ bytes: UnsafeRawBufferPointer) throws(SnapshotError) -> (snapshot: RestartSnapshot, slots: [Slot?]) {
        guard bytes.count >= headerSize else { throw SnapshotError("truncated: \(bytes.count) bytes, less than the \(headerSize)-byte header") }
        guard Array(bytes[0..<8]) == magic else { throw SnapshotError("not a scrolld session (bad magic)") }
        let version = bytes.load(fromByteOffset: 8, as: UInt32.self)
        guard version == Self.version else { throw SnapshotError("format version \(version), this scrolld reads version \(Self.version)") }
        guard bytes.load(fromByteOffset: 20, as: UInt32.self) == checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<20])) else {
            throw SnapshotError("the header's checksum does not match")
        }
        let documentCapacity = Int(bytes.load(fromByteOffset: 12, as: UInt32.self))
        let slotCapacity = Int(bytes.load(fromByteOffset: 16, as: UInt32.self))
        // Every number read below is then aligned (the writer's capacities are powers of two).
        guard documentCapacity % 8 == 0 else { throw SnapshotError("the document capacity \(documentCapacity) is not a multiple of 8") }
        let needed = size(documentCapacity: documentCapacity, slotCapacity: slotCapacity)
        guard bytes.count >= needed else { throw SnapshotError("truncated: \(bytes.count) bytes, the layout needs \(needed)") }
        let active = Int(bytes.load(fromByteOffset: 24, as: UInt32.self))
        guard active == 0 || active == 1 else { throw SnapshotError("the active document is \(active), not 0 or 1") }
        let start = headerSize + active * documentCapacity
        let length = Int(bytes.load(fromByteOffset: start, as: UInt32.self))
        guard length + 8 <= documentCapacity else { throw SnapshotError("the document's length \(length) exceeds its capacity \(documentCapacity)") }
        let document = UnsafeRawBufferPointer(rebasing: bytes[(start + 8)..<(start + 8 + length)])
        guard bytes.load(fromByteOffset: start + 4, as: UInt32.self) == checksum(document) else {
            throw SnapshotError("the document's checksum does not match")
        }
        var snapshot = try RestartSnapshot(decoding: Array(document))
        var slots: [Slot?] = []
        for (index, container) in snapshot.containers.enumerated() {
            let found = index < slotCapacity ? newestSlot(bytes, at: headerSize + 2 * documentCapacity + index * 2 * slotSize, of: container.name) : (slot: nil, problem: nil)
            let newer = found.slot.flatMap { $0.seq >= container.seq ? $0 : nil }
            if let problem = found.problem {
                let instead = newer == nil ? "the document's seq \(container.seq) and offset count" : "the publication before it counts"
                snapshot.notes.append("container \(container.name)'s last publication is not taken back (\(problem)); \(instead)")
            }
            guard let slot = newer else {
                slots.append(nil)
                continue
            }
            snapshot.containers[index].seq = slot.seq
            snapshot.containers[index].offset = slot.offset
            snapshot.containers[index].refreshing = slot.refreshing
            snapshot.containers[index].headerHeight = slot.headerHeight
            slots.append(slot)
        }
        return (snapshot, slots)
    }

    /// The newer of the container's two slot copies that hold a publication of `name`'s; a copy
    /// whose numbers no publication has (``Slot/problem``) is passed over like a torn one, and
    /// the newest such copy's problem is returned for the log.
    private static func newestSlot(_ bytes: UnsafeRawBufferPointer, at start: Int, of name: String) -> (slot: Slot?, problem: String?) {
        var best: Slot?
        var problem: (seq: Int, text: String)?
        let hash = nameHash(name)
        for copy in 0..<2 {
            let at = start + copy * slotSize
            let sum = checksum(UnsafeRawBufferPointer(rebasing: bytes[at..<(at + slotChecksummed)]))
            guard sum == bytes.load(fromByteOffset: at + slotChecksummed, as: UInt32.self) else { continue }
            let phase = Int(bytes.load(fromByteOffset: at + 48, as: UInt32.self))
            guard phase < phases.count else { continue }
            let flags = bytes.load(fromByteOffset: at + 64, as: UInt64.self)
            let slot = Slot(
                seq: Int(bytes.load(fromByteOffset: at, as: Int64.self)),
                time: Timestamp(bytes.load(fromByteOffset: at + 8, as: Int64.self)),
                offset: Point(x: bytes.load(fromByteOffset: at + 16, as: Double.self), y: bytes.load(fromByteOffset: at + 24, as: Double.self)),
                velocity: Point(x: bytes.load(fromByteOffset: at + 32, as: Double.self), y: bytes.load(fromByteOffset: at + 40, as: Double.self)),
                phase: phases[phase],
                nameHash: bytes.load(fromByteOffset: at + 52, as: UInt32.self),
                refreshing: flags & 1 != 0,
                headerHeight: flags & 2 != 0 ? bytes.load(fromByteOffset: at + 56, as: Double.self) : nil
            )
            // Another container's (a document rewritten after a removal): not this one's. A
            // copy below seq 0 holds no publication (the other copy of one at seq 0 says −1).
            guard slot.nameHash == hash, slot.seq >= 0 else { continue }
            if let wrong = slot.problem {
                if problem.map({ slot.seq > $0.seq }) ?? true { problem = (slot.seq, wrong) }
                continue
            }
            if best.map({ slot.seq > $0.seq }) ?? true { best = slot }
        }
        return (best, problem?.text)
    }

    // MARK: Checksums

    /// FNV-1a over 8-byte words (then the remaining bytes), folded to 32 bits: enough to tell
    /// garbage and torn writes from a document, and cheap enough for every publication (9
    /// multiplications for a slot).
    @inline(__always)
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt64 = 14_695_981_039_346_656_037
        let words = bytes.count / 8
        for index in 0..<words {
            hash ^= bytes.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
            hash = hash &* 1_099_511_628_211
        }
        for index in (words * 8)..<bytes.count {
            hash ^= UInt64(bytes[index])
            hash = hash &* 1_099_511_628_211
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    package static func nameHash(_ name: String) -> UInt32 {
        var name = name
        return name.withUTF8 { checksum(UnsafeRawBufferPointer($0)) }
    }
}
