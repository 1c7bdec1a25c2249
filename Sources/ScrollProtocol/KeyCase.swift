/// Conversions between the protocol's camelCase member names and the configuration's
/// snake_case keys, on ASCII letters only.
enum KeyCase {
    /// `minHeight` → `min_height`; snake_case keys come back unchanged.
    static func snake(_ key: String) -> String {
        guard key.utf8.contains(where: isUpper) else { return key }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(key.utf8.count + 4)
        for b in key.utf8 {
            if isUpper(b) {
                if !bytes.isEmpty { bytes.append(UInt8(ascii: "_")) }
                bytes.append(b | 0x20)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `min_height` → `minHeight`: an underscore before a lowercase letter goes, the letter is
    /// capitalised; `snake(camel(k)) == k` for every snake_case key.
    static func camel(_ key: String) -> String {
        let utf8 = Array(key.utf8)
        guard utf8.contains(UInt8(ascii: "_")) else { return key }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = 0
        while i < utf8.count {
            let b = utf8[i]
            if b == UInt8(ascii: "_"), !bytes.isEmpty, i + 1 < utf8.count, isLower(utf8[i + 1]) {
                bytes.append(utf8[i + 1] & ~0x20)
                i += 2
            } else {
                bytes.append(b)
                i += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUpper(_ b: UInt8) -> Bool { b &- UInt8(ascii: "A") < 26 }
    private static func isLower(_ b: UInt8) -> Bool { b &- UInt8(ascii: "a") < 26 }
}
