/// The id a daemon picks at each start, `welcome`'s `instance` (docs/design.md §19): a client
/// that reconnects tells a new daemon from the same one (a dropped connection, or a restart
/// that kept everything, §16).
enum DaemonInstance {
    /// 128 random bits as 32 hex digits.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
    }
}
