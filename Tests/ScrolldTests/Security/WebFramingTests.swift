import Foundation
import Testing

/// RFC 6455's rules for what a client sends, against a real daemon: a frame that breaks them
/// closes its connection with 1002 (protocol error) at once, naming the problem, and every
/// other client is served meanwhile; a handshake that is not a GET, or of another version, is
/// refused.
@Suite("scrolld's WebSocket listener: framing", .serialized)
struct WebFramingTests {
    static let ping = Array(#"{"op":"ping","id":1}"#.utf8)

    /// A frame with `first` as its first byte (FIN, reserved bits, opcode), masked or not.
    static func frame(first: UInt8, payload: [UInt8], masked: Bool = true) -> [UInt8] {
        guard masked else { return [first, UInt8(payload.count)] + payload }
        var bytes = WebSocketClient.frame(opcode: first & 0x0F, payload: payload)
        bytes[0] = first
        return bytes
    }

    /// Each closes with 1002 and a reason naming the problem, whether scrolld's checks or
    /// NIO's decoder or aggregator found it.
    @Test(arguments: [
        ("an unmasked text frame", frame(first: 0x81, payload: ping, masked: false), "an unmasked frame from a client"),
        ("a text frame with RSV1", frame(first: 0x80 | 0x40 | 0x1, payload: ping), "a reserved bit set with no extension agreed"),
        ("a frame of the reserved opcode 3", frame(first: 0x83, payload: ping), "the reserved opcode 3"),
        ("a close frame of one byte", frame(first: 0x88, payload: [0x03]), "a close frame of one byte"),
        ("a close frame with code 0", frame(first: 0x88, payload: [0, 0]), "the close code 0, which no endpoint may send"),
        ("a close frame with code 1005", frame(first: 0x88, payload: [0x03, 0xED]), "the close code 1005, which no endpoint may send"),
        ("a close reason that is not UTF-8", frame(first: 0x88, payload: [0x03, 0xE8, 0xFF]), "a close reason that is not UTF-8"),
        ("a fragmented ping", frame(first: 0x09, payload: [0x01]), "a fragmented control frame"),
        ("a ping of 126 bytes", frame(first: 0x89, payload: [UInt8](repeating: 0x20, count: 126)), "a control frame of more than 125 bytes"),
        ("a continuation of nothing", frame(first: 0x80, payload: ping), "a continuation frame with no message to continue"),
        ("a new message before the last one ended", frame(first: 0x01, payload: [0x20]) + frame(first: 0x81, payload: ping), "a new message before the last one's final fragment"),
    ])
    func aFrameAgainstTheRFCClosesWith1002NamingTheProblem(_ what: String, _ bytes: [UInt8], _ reason: String) throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        client.sendRaw(bytes)
        let frames = client.framesUntilClose()
        #expect(frames.map(\.opcode) == [8], "\(what): \(frames.map(\.text))")
        #expect(frames.last?.closeCode == 1002, "\(what)")
        #expect(frames.last?.closeReason == reason, "\(what)")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// RFC 6455 §5.2: a 64-bit payload length has its most significant bit clear. One that
    /// does not is a protocol error (1002), not a message too big (1009), even with its header
    /// in two reads; what came before it is served.
    @Test func aPayloadLengthWithItsMostSignificantBitSetClosesWith1002() throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        let header: [UInt8] = [0x81, 0x80 | 127, 0x80, 0, 0, 0, 0, 0, 0, 0x10, 0x37, 0xFA, 0x21, 0x3D]
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: Array(#"{"op":"ping","id":3}"#.utf8)) + header[..<2])
        let pong = client.readJSON()
        #expect(pong?["type"] as? String == "pong" && pong?["id"] as? Int == 3, "\(String(describing: pong))")
        client.sendRaw(Array(header[2...]))
        let frames = client.framesUntilClose()
        #expect(frames.map(\.opcode) == [8], "\(frames.map(\.text))")
        #expect(frames.last?.closeCode == 1002)
        #expect(frames.last?.closeReason == "a 64-bit payload length with its most significant bit set")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// Frames of every length encoding, sent at once and so read in 4 KiB pieces that cut
    /// through headers and payloads anywhere: each is served, in order (the daemon follows the
    /// frame headers through its reads to check their lengths).
    @Test func framesCutAnywhereByReadsAreServed() throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        let lengths = (1...300).map { id in id == 150 ? 64 * 1024 : 30 + (id * 37) % 400 }
        let batch = lengths.enumerated().flatMap { index, length in
            WebSocketClient.frame(opcode: 1, payload: WebLimitsTests.paddedPing(id: index + 1, length: length))
        }
        client.sendRaw(batch)
        var ids: [Int] = []
        while ids.count < lengths.count, let reply = client.readJSON() {
            ids.append(reply["id"] as? Int ?? -1)
        }
        #expect(ids == Array(1...lengths.count))
        #expect(served.daemon.stop() == 0)
    }

    /// A client's own close with a code it may send is echoed, and a reason in UTF-8 is fine.
    @Test func aValidCloseIsEchoed() throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        client.sendRaw(Self.frame(first: 0x88, payload: [0x0F, 0xA0] + Array("bye ✓".utf8)))
        #expect(client.framesUntilClose().last?.closeCode == 4000)
        #expect(served.daemon.stop() == 0)
    }

    /// More than 64 fragments is a line too long, as the limit says: `too_large`, then 1009.
    @Test func moreThan64FragmentsIsALineTooLong() throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: [0x20], fin: false))
        for _ in 0..<64 { client.sendRaw(WebSocketClient.frame(opcode: 0, payload: [0x20], fin: false)) }
        let frames = client.framesUntilClose()
        WebLimitsTests.expectLineTooLong(frames)
        #expect(frames.first?.json?["message"] as? String == "message in more than 64 fragments")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// RFC 6455 lets a fragment be empty, the first one included.
    @Test func emptyFragmentsAreServed() throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: [], fin: false))
        for _ in 0..<8 { client.sendRaw(WebSocketClient.frame(opcode: 0, payload: [], fin: false)) }
        client.sendRaw(WebSocketClient.frame(opcode: 0, payload: Array(#"{"op":"ping","id":5}"#.utf8), fin: false))
        client.sendRaw(WebSocketClient.frame(opcode: 0, payload: [], fin: true))
        let pong = client.readJSON()
        #expect(pong?["type"] as? String == "pong")
        #expect(pong?["id"] as? Int == 5)
        #expect(served.daemon.stop() == 0)
    }

    /// RFC 6455 §4.2.2: a handshake of another version gets 426 and the version served, so
    /// that a client that speaks several can try again with it; one that names none is
    /// malformed: 400 with the reason, naming the version too.
    @Test func aHandshakeOfAnotherVersionGets426NamingVersion13() throws {
        let served = try WebLimitsTests.Served()
        let others = WebSocketClient.handshakeHeaders.filter { !$0.hasPrefix("Sec-WebSocket-Version") }
        for version in ["8", "14", "7", "13, 8"] {
            let client = try WebSocketClient(port: served.port)
            #expect(!client.handshake(headers: others + ["Sec-WebSocket-Version: \(version)"]), "\(version)")
            #expect(client.response.hasPrefix("HTTP/1.1 426 Upgrade Required"), "\(version): \(client.response)")
            #expect(client.responseHeader("Sec-WebSocket-Version") == ["13"], "\(version): \(client.response)")
            #expect(client.responseHeader("Upgrade") == ["websocket"], "\(version): \(client.response)")
            #expect(client.response.contains("scrolld speaks WebSocket version 13 only, not \(version) (RFC 6455)"), "\(client.response)")
        }
        let client = try WebSocketClient(port: served.port)
        #expect(!client.handshake(headers: others))
        #expect(client.response.hasPrefix("HTTP/1.1 400 Bad Request"), "\(client.response)")
        #expect(client.responseHeader("Sec-WebSocket-Version") == ["13"], "\(client.response)")
        #expect(client.response.contains("a WebSocket handshake says Sec-WebSocket-Version: 13 (RFC 6455)"), "\(client.response)")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    @Test func aHandshakeThatIsNotAGETIsRefused() throws {
        let served = try WebLimitsTests.Served()
        let client = try WebSocketClient(port: served.port)
        #expect(!client.handshake(method: "POST"))
        #expect(client.response.hasPrefix("HTTP/1.1 405"), "\(client.response)")
        #expect(client.response.contains("a WebSocket handshake is a GET request"), "\(client.response)")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// RFC 6455 §4.2.1: a handshake is HTTP/1.1 or later with a Host, and its key is 16 bytes in
    /// base64; anything else is answered 400 with the reason, and never upgraded.
    @Test(arguments: [
        ("GET /scrolld HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: AAAA\r\nSec-WebSocket-Version: 13\r\n\r\n", "one Sec-WebSocket-Key, 16 bytes in base64"),
        ("GET /scrolld HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: !!!!!!!!!!!!!!!!!!!!!!!!\r\nSec-WebSocket-Version: 13\r\n\r\n", "one Sec-WebSocket-Key, 16 bytes in base64"),
        ("GET /scrolld HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAAAAAAA=\r\nSec-WebSocket-Version: 13\r\n\r\n", "one Sec-WebSocket-Key, 16 bytes in base64"),
        ("GET /scrolld HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", "HTTP/1.1 or later, with one Host header"),
        ("GET /scrolld HTTP/1.0\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", "HTTP/1.1 or later, with one Host header"),
    ])
    func aHandshakeAgainstTheRFCIsRefusedWith400(_ request: String, _ reason: String) throws {
        let served = try WebLimitsTests.Served()
        let client = try WebSocketClient(port: served.port)
        _ = client.sendRaw(Array(request.utf8))
        #expect(!client.readResponse())
        #expect(client.response.hasPrefix("HTTP/1.1 400"), "\(client.response)")
        #expect(client.response.contains(reason), "\(client.response)")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }
}
