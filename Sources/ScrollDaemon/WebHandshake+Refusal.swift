import NIOHTTP1
import ScrollConfig

extension WebHandshake {
    /// Why a handshake is not upgraded: the HTTP status, a sentence for the body, and the
    /// headers that status calls for.
    struct Refusal {
        var status: HTTPResponseStatus
        var reason: String
        var headers: HTTPHeaders = [:]

        init(_ status: HTTPResponseStatus, _ reason: String, headers: HTTPHeaders = [:]) {
            self.status = status
            self.reason = reason
            self.headers = headers
        }

        /// A 426 says which protocol it wants (RFC 7230 §6.7), and for a WebSocket, which
        /// version of it (RFC 6455 §4.2.2).
        static func upgradeRequired(_ reason: String) -> Refusal {
            Refusal(.upgradeRequired, reason, headers: ["Upgrade": "websocket", "Sec-WebSocket-Version": version])
        }
    }

    /// The one version of the protocol served (RFC 6455's).
    static let version = "13"

    /// Why the handshake `head` is refused, or nil: it may be upgraded. `origins`: the
    /// configuration's `web.origins`.
    ///
    /// Header values are read as RFC 7230 has them: without the spaces and tabs around them,
    /// and `Upgrade` and `Connection` as lists of case-insensitive tokens (Firefox sends
    /// `Connection: keep-alive, Upgrade`). NIO's upgrader reads the key and the version the
    /// same way, so what passes here is what it upgrades.
    static func refusal(of head: HTTPRequestHead, origins: [String]) -> Refusal? {
        let target = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        guard target == path else { return Refusal(.notFound, "\(shown(String(target))) is not served: scrolld serves its protocol at \(path) only") }
        guard head.method == .GET else { return Refusal(.methodNotAllowed, "a WebSocket handshake is a GET request") }
        let found = head.headers["Origin"]
        guard found.count <= 1 else { return Refusal(.forbidden, "more than one Origin header") }
        if let origin = found.first.map(withoutWhitespace), !origins.contains(origin) {
            return Refusal(.forbidden, "origin \(shown(origin)) is not in web.origins")
        }
        guard lists(head, "Upgrade", "websocket") else { return .upgradeRequired("scrolld speaks WebSocket only at \(path)") }
        // RFC 6455 §4.2.1: the request's Connection header lists the upgrade.
        guard lists(head, "Connection", "upgrade") else {
            return Refusal(.badRequest, "a WebSocket handshake says Connection: Upgrade (RFC 6455)")
        }
        guard head.version.major == 1, head.version.minor >= 1, head.headers["Host"].count == 1 else {
            return Refusal(.badRequest, "a WebSocket handshake is HTTP/1.1 or later, with one Host header (RFC 6455)")
        }
        if let refused = versionRefusal(head.headers[canonicalForm: "Sec-WebSocket-Version"]) { return refused }
        let keys = head.headers[canonicalForm: "Sec-WebSocket-Key"]
        guard keys.count == 1, isNonce(keys[0]) else {
            return Refusal(.badRequest, "a WebSocket handshake has one Sec-WebSocket-Key, 16 bytes in base64 (RFC 6455)")
        }
        return nil
    }

    /// RFC 6455 §4.2.2: a version other than 13 is answered 426 with the version served, so
    /// that a client that speaks several can try again with it. A handshake that names none is
    /// malformed rather than of another version: 400, which names the version too.
    private static func versionRefusal(_ versions: [Substring]) -> Refusal? {
        guard versions != [Substring(version)] else { return nil }
        guard !versions.isEmpty else {
            return Refusal(.badRequest, "a WebSocket handshake says Sec-WebSocket-Version: \(version) (RFC 6455)", headers: ["Sec-WebSocket-Version": version])
        }
        let named = shown(versions.joined(separator: ", "))
        return .upgradeRequired("scrolld speaks WebSocket version \(version) only, not \(named) (RFC 6455)")
    }

    /// Whether `head`'s `name` headers list `token`, in any case.
    private static func lists(_ head: HTTPRequestHead, _ name: String, _ token: String) -> Bool {
        head.headers[canonicalForm: name].contains { $0.lowercased() == token }
    }

    /// `value` without the spaces and tabs around it (RFC 7230 §3.2.4: they are not part of it).
    private static func withoutWhitespace(_ value: String) -> String {
        let isWhitespace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = value.utf8.firstIndex(where: { !isWhitespace($0) }) else { return "" }
        let last = value.utf8.lastIndex(where: { !isWhitespace($0) })!
        return String(value[first...last])
    }

    /// Whether `key` is 16 bytes in base64: 22 characters of the alphabet, the last of which
    /// leaves no bits over (A, Q, g or w), then `==`.
    static func isNonce(_ key: Substring) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        return bytes[..<22].allSatisfy(base64Alphabet.contains) && "AQgw".utf8.contains(bytes[21])
    }

    private static let base64Alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// A header value or a path as a message shows it: at most 100 characters, then "…", and
    /// quoted with its control characters escaped when it holds one (a reply and a log line
    /// stay short and printable whatever a client sends).
    static func shown(_ value: String) -> String {
        Configuration.excerpt(value)
    }
}
