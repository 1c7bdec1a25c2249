/// Shrinks a failing list of seeds to a shortest one that still fails: steps are dropped (a
/// run of them at a time, then one by one), then each left is made smaller keeping its kind
/// (``CommandStream/step(_:)`` reads the kind from the low five bits), until nothing more can
/// go. Each try runs the whole stream again, so it stops after `budget` tries.
enum Shrinker {
    static func shortest(_ seeds: [Int], budget: Int = 2_000, fails: ([Int]) throws -> Bool) rethrows -> [Int] {
        var current = seeds
        var tries = 0
        func attempt(_ candidate: [Int]) throws -> Bool {
            guard tries < budget else { return false }
            tries += 1
            return try fails(candidate)
        }
        var progress = true
        while progress, tries < budget {
            progress = false
            var chunk = max(1, current.count / 2)
            while chunk >= 1 {
                var start = 0
                while start < current.count {
                    var candidate = current
                    candidate.removeSubrange(start..<min(start + chunk, current.count))
                    if !candidate.isEmpty, try attempt(candidate) {
                        current = candidate
                        progress = true
                    } else {
                        start += chunk
                    }
                }
                chunk /= 2
            }
            for index in current.indices {
                var value = current[index] >> 5
                while value > 0 {
                    value /= 2
                    var candidate = current
                    candidate[index] = value << 5 | current[index] & 31
                    guard try attempt(candidate) else { break }
                    current = candidate
                    progress = true
                }
            }
        }
        return current
    }
}

/// A small, fast generator with a fixed sequence per seed (Steele, Lea and Flood's SplitMix64):
/// the test's streams are the same on every machine and every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
