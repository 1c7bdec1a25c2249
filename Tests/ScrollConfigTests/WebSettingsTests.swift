import ScrollConfig
import Testing

/// `[web]` (docs/design.md §24): a loopback address or nothing, origins as browsers send them,
/// each bad value named with its key and what is wrong.
@Suite struct WebSettingsTests {
    static func error(_ text: String) -> String? {
        do {
            _ = try Configuration.parse(text, file: "scrolld.toml")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theListenerIsOffByDefault() {
        #expect(Configuration.defaults.web.listen == nil)
        #expect(Configuration.defaults.web.origins == [])
    }

    @Test func loopbackAddressesAreAccepted() throws {
        let v4 = try Configuration.parse("[web]\nlisten = \"127.0.0.1:8765\"\norigins = [\"http://127.0.0.1:8080\", \"https://kiosk.example\"]\n", file: "a.toml")
        #expect(v4.web.listen == WebSettings.ListenAddress(host: "127.0.0.1", port: 8765))
        #expect(v4.web.origins == ["http://127.0.0.1:8080", "https://kiosk.example"])
        let other = try Configuration.parse("[web]\nlisten = \"127.1.2.3:1\"\n", file: "a.toml")
        #expect(other.web.listen?.description == "127.1.2.3:1")
        let v6 = try Configuration.parse("[web]\nlisten = \"[::1]:65535\"\n", file: "a.toml")
        #expect(v6.web.listen?.description == "[::1]:65535")
    }

    @Test func anythingButLoopbackIsRefusedWithTheReason() {
        #expect(Self.error("[web]\nlisten = \"0.0.0.0:8765\"\n") == "scrolld.toml:2: web.listen: 0.0.0.0 is not a loopback address: the listener serves this machine only (127.0.0.0/8 or ::1), since anything else would let other hosts reach the daemon, got \"0.0.0.0:8765\"")
        #expect(Self.error("[web]\nlisten = \"[::]:8765\"\n")?.contains(":: is not a loopback address") == true)
        #expect(Self.error("[web]\nlisten = \"localhost:8765\"\n")?.contains("localhost is not an IP address") == true)
        #expect(Self.error("[web]\nlisten = \"127.0.0.1\"\n")?.contains("expected HOST:PORT") == true)
        #expect(Self.error("[web]\nlisten = \"127.0.0.1:0\"\n")?.contains("expected a port from 1 to 65535") == true)
        #expect(Self.error("[web]\nlisten = \"127.0.0.1:70000\"\n")?.contains("expected a port from 1 to 65535") == true)
        #expect(Self.error("[web]\nlisten = \"127.0.0.256:80\"\n")?.contains("is not an IP address") == true)
    }

    @Test func originsMustBeOriginsAndBounded() {
        #expect(Self.error("[web]\norigins = [\"127.0.0.1:8080\"]\n") == #"scrolld.toml:2: web.origins: origins entry "127.0.0.1:8080" is not an origin a browser sends: expected SCHEME://HOST[:PORT] without a path, like "http://127.0.0.1:8080""#)
        let many = (0...WebSettings.maximumOrigins).map { "\"http://h\($0).example\"" }.joined(separator: ",")
        #expect(Self.error("[web]\norigins = [\(many)]\n")?.contains("at most 64 origins, got 65") == true)
        #expect(Self.error("[web]\nport = 1\n")?.contains("unknown key in [web] (listen, origins)") == true)
    }

    /// A browser sends its page's origin lowercase, without a path or its scheme's default port
    /// (RFC 6454 §6.2), and the handshake matches it exactly: an entry spelled otherwise would
    /// never match, so it is refused, with the spelling a browser sends.
    @Test(arguments: [
        ("HTTP://X", "http://x"),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8080"),
        ("https://kiosk.example/app/index.html", "https://kiosk.example"),
        ("https://kiosk.example?page=1", "https://kiosk.example"),
        ("https://Kiosk.Example", "https://kiosk.example"),
        ("Https://kiosk.example", "https://kiosk.example"),
        ("http://127.0.0.1:80", "http://127.0.0.1"),
        ("https://kiosk.example:443", "https://kiosk.example"),
        ("http://127.0.0.1:08080", "http://127.0.0.1:8080"),
        ("http://127.0.0.1:", "http://127.0.0.1"),
        ("http://[::1]:8080/", "http://[::1]:8080"),
        ("http://[::1]:80", "http://[::1]"),
    ])
    func anOriginNoBrowserSendsIsRefusedWithTheOneItSends(_ entry: String, _ sent: String) {
        let message = "scrolld.toml:2: web.origins: origins entry \"\(entry)\" is not an origin a browser sends: did you mean \"\(sent)\"?"
        #expect(Self.error("[web]\norigins = [\"http://127.0.0.1:8080\", \"\(entry)\"]\n") == message)
        #expect(Self.error("[web]\norigins = [\"\(sent)\"]\n") == nil, "\(sent)")
    }

    /// What no page's origin can be is refused without a suggestion; what a browser sends is
    /// kept as written.
    @Test func originsABrowserSendsAreKeptAndNonOriginsRefused() throws {
        let sent = ["http://127.0.0.1:8080", "https://kiosk.example", "http://[::1]:8080", "http://127.0.0.1:443", "https://localhost:80", "chrome-extension://abcdefghijklmnop", "http://my_host.local"]
        let list = sent.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(try Configuration.parse("[web]\norigins = [\(list)]\n", file: "a.toml").web.origins == sent)
        for entry in ["null", "http://", "http:/x", "1http://x", "http://user@x", "http://x:0", "http://x:65536", "http://x:8a", "http://ex ample", "http://127.1", "http://127.000.0.1", "http://[::1", "http://[]", "http://bücher.example", "http://" + String(repeating: "a", count: 300)] {
            #expect(Self.error("[web]\norigins = [\"\(entry)\"]\n")?.contains("is not an origin a browser sends: expected SCHEME://HOST[:PORT] without a path") == true, "\(entry)")
        }
    }
}
