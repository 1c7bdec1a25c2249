import Foundation
import Testing

/// RFC 6455's rules for what a client sends, against a real daemon: a frame that breaks them
/// closes its connection with 1002 (protocol error) at once, and every other client is served
/// meanwhile; a handshake that is not a GET is refused.
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

    @Test(arguments: [
        ("an unmasked text frame", frame(first: 0x81, payload: ping, masked: false)),
        ("a text frame with RSV1", frame(first: 0x80 | 0x40 | 0x1, payload: ping)),
        ("a frame of the reserved opcode 3", frame(first: 0x83, payload: ping)),
        ("a close frame of one byte", frame(first: 0x88, payload: [0x03])),
        ("a close frame with code 0", frame(first: 0x88, payload: [0, 0])),
        ("a close frame with code 1005", frame(first: 0x88, payload: [0x03, 0xED])),
        ("a close reason that is not UTF-8", frame(first: 0x88, payload: [0x03, 0xE8, 0xFF])),
    ])
    func aFrameAgainstTheRFCClosesWith1002(_ what: String, _ bytes: [UInt8]) throws {
        let served = try WebLimitsTests.Served()
        let client = try served.connect()
        client.sendRaw(bytes)
        let frames = client.framesUntilClose()
        #expect(frames.map(\.opcode) == [8], "\(what): \(frames.map(\.text))")
        #expect(frames.last?.closeCode == 1002, "\(what)")
        #expect(served.servesOthers)
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
