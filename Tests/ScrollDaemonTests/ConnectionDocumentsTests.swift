import ScrollDaemon
import Testing

/// The connections' parts of the session's document, spliced in place as they change: after
/// any sequence of sets and removals, exactly the parts present, in number order, joined with
/// commas (what joining them anew would give).
@Suite struct ConnectionDocumentsTests {
    @Test func splicedPartsAlwaysEqualThePartsJoinedAnew() {
        var documents = ConnectionDocuments()
        var parts: [Int: [UInt8]] = [:]
        // A fixed pseudo-random walk (a linear congruential generator): numbers 0..<12, parts of
        // 0–5 bytes (empty ones included), a third of the steps removals, some of absent numbers.
        var seed: UInt64 = 0x5C20_11D5
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for step in 0..<2000 {
            let number = next(12)
            if next(3) == 0 {
                documents.set(number, nil)
                parts[number] = nil
            } else {
                let bytes = [UInt8](repeating: UInt8(ascii: "a") + UInt8(step % 26), count: next(6))
                documents.set(number, bytes)
                parts[number] = bytes
            }
            let expected = Array(parts.keys.sorted().map { parts[$0]! }.joined(separator: [UInt8(ascii: ",")]))
            #expect(documents.joined == expected, "after step \(step)")
            if documents.joined != expected { return }
        }
        documents.removeAll()
        #expect(documents.joined.isEmpty)
    }
}
