import ScrollModel

extension WebSettings {
    /// Why `entry` is not an origin a browser sends, as a configuration error says it, or nil:
    /// it may be listed. A handshake's `Origin` is matched exactly, so an entry spelled
    /// otherwise than a browser serializes it would never match and lock its page out without
    /// a word; the message names the spelling a browser sends, when there is one.
    static func originProblem(_ entry: String) -> String? {
        let shown = SettingValue.string(entry).rendered
        guard entry != "null" else {
            return "origins entry \"null\" would admit every page opened from a file, a sandboxed frame or a data: URL (a browser sends \"null\" for each): serve the page over http and list its origin, like \"http://127.0.0.1:8080\""
        }
        guard let origin = browserOrigin(entry) else {
            return "origins entry \(shown) is not an origin a browser sends: expected SCHEME://HOST[:PORT] without a path, like \"http://127.0.0.1:8080\""
        }
        guard origin == entry else {
            return "origins entry \(shown) is not an origin a browser sends: did you mean \"\(origin)\"?"
        }
        return nil
    }

    /// `entry` as a browser serializes the origin of a page at that address (RFC 6454 §6.2):
    /// the scheme and host in lowercase, `://` between them, the port only when it is not the
    /// scheme's default, and nothing after (no path, no trailing slash, no query). Nil when no
    /// page has such an origin: no scheme, no host, credentials, a port out of range, a host
    /// of characters a browser would encode.
    static func browserOrigin(_ entry: String) -> String? {
        guard entry.utf8.count <= 256, let colon = entry.firstIndex(of: ":") else { return nil }
        let scheme = lowercased(entry[..<colon]), rest = entry[entry.index(after: colon)...]
        guard rest.hasPrefix("//"), let first = scheme.utf8.first, isLetter(first), scheme.utf8.allSatisfy(isSchemeByte) else { return nil }
        // The authority ends where a path, a query or a fragment begins.
        let authority = rest.dropFirst(2).prefix { !"/?#".contains($0) }
        guard !authority.contains("@"), let (host, port) = hostAndPort(authority) else { return nil }
        guard let host = browserHost(host) else { return nil }
        var origin = scheme + "://" + host
        if let port, port != defaultPorts[scheme] { origin += ":\(port)" }
        return origin
    }

    /// The ports a browser leaves out of an origin, by scheme (the URL standard's special
    /// schemes).
    private static let defaultPorts = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// `authority` split at its port, if any (an empty one is none, as a browser reads it);
    /// nil when the port is not a number from 1 to 65535. An IPv6 host keeps its brackets.
    private static func hostAndPort(_ authority: Substring) -> (Substring, Int?)? {
        let hostEnd: Substring.Index
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostEnd = authority.index(after: close)
        } else {
            hostEnd = authority.firstIndex(of: ":") ?? authority.endIndex
        }
        let host = authority[..<hostEnd], rest = authority[hostEnd...]
        guard rest.count > 1 else { return rest.isEmpty || rest == ":" ? (host, nil) : nil }
        let digits = rest.dropFirst()
        guard rest.first == ":", digits.utf8.allSatisfy(isDigit), let port = Int(digits), (1...65535).contains(port) else { return nil }
        return (host, port)
    }

    /// `host` in lowercase, as a browser sends it: a name of letters, digits, `-`, `_` and
    /// `.`, an IPv4 address in four decimal parts, or an IPv6 address in brackets in its
    /// shortest form (`[::1]` for `[0:0:0:0:0:0:0:1]`, `IPv6Address`). Nil for
    /// anything a browser would first encode or rewrite (non-ASCII names go out in their
    /// `xn--` form, `127.1` as `127.0.0.1`), which no entry can match as written.
    private static func browserHost(_ host: Substring) -> String? {
        let lower = lowercased(host)
        if lower.hasPrefix("[") {
            guard lower.hasSuffix("]"), let address = IPv6Address(lower.dropFirst().dropLast()) else { return nil }
            return "[" + address.serialized + "]"
        }
        let labels = lower.split(separator: ".", omittingEmptySubsequences: false)
        guard !lower.isEmpty, lower.utf8.allSatisfy({ isLetter($0) || isDigit($0) || "-_.".utf8.contains($0) }) else { return nil }
        // A browser reads a name whose last label is a number as an IPv4 address, and writes
        // it back as four decimal parts.
        guard let last = labels.last, !last.isEmpty, last.utf8.allSatisfy(isDigit) else { return lower }
        let isDottedQuad = labels.count == 4 && labels.allSatisfy { part in
            guard let value = Int(part), value <= 255 else { return false }
            return String(value) == part
        }
        return isDottedQuad ? lower : nil
    }

    /// `text` with its ASCII letters in lowercase, and nothing else changed (a browser folds
    /// the case of ASCII only; anything else is refused as it stands).
    private static func lowercased(_ text: Substring) -> String {
        String(decoding: text.utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    private static func isSchemeByte(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) || "+-.".utf8.contains(byte) }
}
