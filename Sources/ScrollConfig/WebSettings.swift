import ScrollModel
/// `[web]`: the WebSocket listener for browsers (docs/design.md §24, "Browsers"). Off unless
/// `listen` is set; only a loopback address is accepted, and a browser's page only from an
/// origin `origins` lists.
public struct WebSettings: Hashable, Sendable {
    /// Where the listener binds, or nil: no listener (the default). Read at start only.
    public var listen: ListenAddress?
    /// The `Origin`s a browser's page may connect from, matched exactly, each spelled as a
    /// browser sends it (``originProblem(_:)`` refuses any other spelling). Empty: no page may
    /// connect; a client that sends no `Origin` (not a browser) still may, when it runs as an
    /// allowed uid.
    public var origins: [String] = []

    public init() {}

    /// The most origins the list holds: it is searched at every handshake.
    public static let maximumOrigins = 64

    /// A loopback address and a port: `127.0.0.1:8765`, `[::1]:8765`.
    public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
        /// The address as written (`127.0.0.1`, `::1`), without brackets.
        public var host: String
        public var port: Int

        public init(host: String, port: Int) {
            self.host = host
            self.port = port
        }

        public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

        /// Parses `HOST:PORT`, where HOST is an IPv4 address in 127.0.0.0/8 or `[::1]`, or says
        /// what is wrong with it.
        public static func parse(_ text: String) -> Result<ListenAddress, ListenAddressError> {
            let host: Substring, portText: Substring
            // A URL (`ws://127.0.0.1:8765/scrolld`) where an address and a port are meant.
            guard !text.contains("/") else { return .failure(.url) }
            if text.hasPrefix("[") {
                guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                    return .failure(.malformed)
                }
                host = text[text.index(after: text.startIndex)..<close]
                portText = text[text.index(close, offsetBy: 2)...]
            } else {
                guard let colon = text.lastIndex(of: ":") else { return .failure(.malformed) }
                host = text[..<colon]
                portText = text[text.index(after: colon)...]
            }
            guard let port = Int(portText), (1...65535).contains(port) else { return .failure(.port) }
            if host.contains(":") {
                // IPv6: only the loopback address itself, however it is spelled.
                guard let address = IPv6Address(host) else { return .failure(.notAnAddress(String(host))) }
                guard address == .loopback else { return .failure(.notLoopback(String(host))) }
                return .success(ListenAddress(host: "::1", port: port))
            }
            let octets = host.split(separator: ".", omittingEmptySubsequences: false)
            guard octets.count == 4, octets.allSatisfy({ $0.count <= 3 && UInt8($0) != nil }) else {
                // A name (`localhost`, a host name) may resolve anywhere: only addresses.
                return .failure(.notAnAddress(String(host)))
            }
            guard octets[0] == "127" else { return .failure(.notLoopback(String(host))) }
            return .success(ListenAddress(host: String(host), port: port))
        }
    }

    /// What is wrong with a `listen` value.
    public enum ListenAddressError: Error, Hashable, Sendable, CustomStringConvertible {
        case malformed
        case url
        case port
        case notAnAddress(String)
        case notLoopback(String)

        public var description: String {
            switch self {
            case .malformed: "expected HOST:PORT, like \"127.0.0.1:8765\" or \"[::1]:8765\""
            case .url: "expected HOST:PORT without a scheme or a path, like \"127.0.0.1:8765\": pages connect to ws://HOST:PORT/scrolld"
            case .port: "expected a port from 1 to 65535 after the colon"
            case .notAnAddress(let host): "\(host) is not an IP address: write 127.0.0.1 or [::1] (a name may resolve to another interface)"
            case .notLoopback(let host): "\(host) is not a loopback address: the listener serves this machine only (127.0.0.0/8 or ::1), since anything else would let other hosts reach the daemon"
            }
        }
    }

    /// What is valid but does nothing: origins listed while no listener is set.
    public var warnings: [String] {
        listen == nil && !origins.isEmpty ? ["web.origins lists \(origins.count) origin\(origins.count == 1 ? "" : "s") but web.listen is not set: no listener, no page connects"] : []
    }

    /// `web.listen` when it differs from `old`: a reload says it waits for the next start.
    public func startOnlyChanges(from old: WebSettings) -> [String] {
        listen != old.listen ? ["web.listen"] : []
    }

    mutating func set(_ name: String, _ value: SettingValue, key: String) throws(ConfigurationError) {
        switch name {
        case "listen":
            let text = try value.string(key)
            switch ListenAddress.parse(text) {
            case .success(let address): listen = address
            case .failure(let problem): throw ConfigurationError(key: key, message: "\(problem), got \(value.rendered)")
            }
        case "origins":
            let list = try value.strings(key)
            guard list.count <= Self.maximumOrigins else {
                throw ConfigurationError(key: key, message: "at most \(Self.maximumOrigins) origins, got \(list.count)")
            }
            for entry in list {
                if let problem = Self.originProblem(entry) { throw ConfigurationError(key: key, message: problem) }
            }
            origins = list
        default:
            throw ConfigurationError(key: key, message: "unknown key in [web] (listen, origins)")
        }
    }
}
