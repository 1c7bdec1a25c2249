import NIOCore
import NIOEmbedded
import NIOWebSocket
@testable import ScrollDaemon
import Testing

/// A fragment of a WebSocket message waits until its message ends; it must hold its own bytes
/// only, not the read buffer it came in (a thousand one-byte fragments held a thousand 4 KiB
/// buffers: 4 MiB per connection).
@Suite("WebSocket fragments in memory")
struct WebSocketFragmentTests {
    @Test func aFragmentWaitsWithItsOwnBytesAndAFinalFrameAsItCame() throws {
        let channel = EmbeddedChannel(handler: WebSocketFrameChecks())
        var read = channel.allocator.buffer(capacity: 4096)
        read.writeRepeatingByte(0x61, count: 4096)
        let mask: WebSocketMaskingKey = [1, 2, 3, 4]
        for (opcode, fin) in [(WebSocketOpcode.text, false), (.continuation, false), (.continuation, true)] {
            let fragment = read.getSlice(at: 100, length: 1)!
            try channel.writeInbound(WebSocketFrame(fin: fin, opcode: opcode, maskKey: mask, data: fragment))
            let passed = try #require(try channel.readInbound(as: WebSocketFrame.self))
            #expect(passed.data == fragment)
            #expect(passed.fin == fin && passed.opcode == opcode && passed.maskKey == mask)
            let sharesTheRead = read.withUnsafeReadableBytes { whole in
                passed.data.withUnsafeReadableBytes { part in
                    part.baseAddress! >= whole.baseAddress! && part.baseAddress! < whole.baseAddress! + whole.count
                }
            }
            // Only the fragments that wait are copied; the last one is put together at once.
            #expect(sharesTheRead == fin, "\(opcode), fin \(fin)")
        }
    }
}
