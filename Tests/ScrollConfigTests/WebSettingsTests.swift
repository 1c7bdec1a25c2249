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
        for spelling in ["0:0:0:0:0:0:0:1", "::0:1", "0::1", "::0001", "0000:0000::0000:0001"] {
            let same = try Configuration.parse("[web]\nlisten = \"[\(spelling)]:8765\"\n", file: "a.toml")
            #expect(same.web.listen?.description == "[::1]:8765", "\(spelling)")
        }
    }

    /// A URL where an address is meant is refused with what to write instead.
    @Test func aURLForAListenAddressIsRefusedWithTheForm() {
        for text in ["ws://127.0.0.1:8765/scrolld", "127.0.0.1:8765/scrolld", "http://[::1]:8765"] {
            #expect(Self.error("[web]\nlisten = \"\(text)\"\n") == "scrolld.toml:2: web.listen: expected HOST:PORT without a scheme or a path, like \"127.0.0.1:8765\": pages connect to ws://HOST:PORT/scrolld, got \"\(text)\"", "\(text)")
        }
    }

    /// `null`, the origin of a page opened from a file, would admit every such page: refused
    /// with what to do instead.
    @Test func theNullOriginIsRefusedWithWhatToDo() {
        #expect(Self.error("[web]\norigins = [\"null\"]\n") == #"scrolld.toml:2: web.origins: origins entry "null" would admit every page opened from a file, a sandboxed frame or a data: URL (a browser sends "null" for each): serve the page over http and list its origin, like "http://127.0.0.1:8080""#)
    }

    /// Origins without a listener are valid (a drop-in may add `listen`) but do nothing: a
    /// warning says so.
    @Test func originsWithoutAListenerAreWarnedOf() throws {
        let without = try Configuration.parse("[web]\norigins = [\"http://127.0.0.1:8080\", \"http://[::1]:8080\"]\n", file: "a.toml")
        #expect(without.warnings == ["web.origins lists 2 origins but web.listen is not set: no listener, no page connects"])
        let with = try Configuration.parse("[web]\nlisten = \"127.0.0.1:8765\"\norigins = [\"http://127.0.0.1:8080\"]\n", file: "a.toml")
        #expect(with.warnings == [])
        #expect(Configuration.defaults.warnings == [])
    }

    /// Any other IPv6 address is refused as not loopback, and what is no IPv6 address as no
    /// address at all.
    @Test func anIPv6ListenAddressIsReadAsAnAddress() {
        for host in ["::2", "1::1", "::ffff:127.0.0.1", "0:0:0:0:0:0:0:0"] {
            #expect(Self.error("[web]\nlisten = \"[\(host)]:8765\"\n")?.contains("\(host) is not a loopback address") == true, "\(host)")
        }
        for host in ["::1::", "::g", "1:2:3:4:5:6:7:8:9", "12345::1", "fe80::1%lo", ":1"] {
            #expect(Self.error("[web]\nlisten = \"[\(host)]:8765\"\n")?.contains("\(host) is not an IP address") == true, "\(host)")
        }
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
        ("http://[0:0:0:0:0:0:0:1]:8080", "http://[::1]:8080"),
        ("http://[::0001]", "http://[::1]"),
        ("http://[0::1]", "http://[::1]"),
        ("http://[::FFFF:127.0.0.1]:8080", "http://[::ffff:7f00:1]:8080"),
        ("http://[2001:db8:0:0:1:0:0:1]", "http://[2001:db8::1:0:0:1]"),
        ("http://[2001:0DB8::0:1]", "http://[2001:db8::1]"),
        ("http://[1:2:3:4:5:6:7::]", "http://[1:2:3:4:5:6:7:0]"),
        ("http://[1:0:0:2:0:0:0:3]", "http://[1:0:0:2::3]"),
    ])
    func anOriginNoBrowserSendsIsRefusedWithTheOneItSends(_ entry: String, _ sent: String) {
        let message = "scrolld.toml:2: web.origins: origins entry \"\(entry)\" is not an origin a browser sends: did you mean \"\(sent)\"?"
        #expect(Self.error("[web]\norigins = [\"http://127.0.0.1:8080\", \"\(entry)\"]\n") == message)
        #expect(Self.error("[web]\norigins = [\"\(sent)\"]\n") == nil, "\(sent)")
    }

    /// What no page's origin can be is refused without a suggestion; what a browser sends is
    /// kept as written.
    @Test func originsABrowserSendsAreKeptAndNonOriginsRefused() throws {
        let sent = ["http://127.0.0.1:8080", "https://kiosk.example", "http://[::1]:8080", "http://[1:0:2:3:4:5:6:7]", "http://[::ffff:7f00:1]", "http://[2001:db8::1]", "http://127.0.0.1:443", "https://localhost:80", "chrome-extension://abcdefghijklmnop", "http://my_host.local"]
        let list = sent.map { "\"\($0)\"" }.joined(separator: ", ")
        #expect(try Configuration.parse("[web]\norigins = [\(list)]\n", file: "a.toml").web.origins == sent)
        for entry in ["http://", "http:/x", "1http://x", "http://user@x", "http://x:0", "http://x:65536", "http://x:8a", "http://ex ample", "http://127.1", "http://127.000.0.1", "http://[::1", "http://[]", "http://[::1::]", "http://[1:2:3:4:5:6:7:8:9]", "http://[12345::]", "http://[::1.2.3]", "http://[::01.2.3.4]", "http://[::1.2.3.256]", "http://[1:2:3:4:5:6:7:1.2.3.4]", "http://[fe80::1%25eth0]", "http://[:1]", "http://[1:]", "http://[1::2::3]", "http://bücher.example", "http://" + String(repeating: "a", count: 300)] {
            #expect(Self.error("[web]\norigins = [\"\(entry)\"]\n")?.contains("is not an origin a browser sends: expected SCHEME://HOST[:PORT] without a path") == true, "\(entry)")
        }
    }
}
