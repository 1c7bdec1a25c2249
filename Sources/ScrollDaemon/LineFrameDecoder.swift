import NIOCore
import ScrollProtocol

/// Splits a client's byte stream into lines, refusing any line longer than `maximumLength`
/// (docs/design.md §7: a line over 64 KiB closes that connection). The check runs as bytes
/// arrive, so a client that never sends a newline cannot make the daemon buffer without bound.
///
/// A line over the limit is reported once (`LineTooLong`, as an error down the pipeline) and
/// everything after it is discarded as it arrives: the handler answers and lingers while the
/// client may still be sending, and its reads (`channelReadComplete`) keep arriving.
package struct LineFrameDecoder: ByteToMessageDecoder {
    package typealias InboundOut = ByteBuffer

    struct LineTooLong: Error {
        /// What the client is told before the connection closes.
        var reply = ProtocolError.tooLarge()
    }

    let maximumLength: Int
    /// Bytes already searched for a newline, so each byte is scanned once.
    private var scanned = 0
    /// A line went over the limit: nothing more is decoded.
    private var discarding = false

    /// The line limit of docs/design.md §7, also a WebSocket message's (§24).
    package static let defaultMaximumLength = 64 * 1024

    package init(maximumLength: Int = LineFrameDecoder.defaultMaximumLength) {
        self.maximumLength = maximumLength
    }

    package mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard !discarding else {
            buffer.moveReaderIndex(to: buffer.writerIndex)
            return .needMoreData
        }
        let view = buffer.readableBytesView
        if let newline = view.dropFirst(scanned).firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            scanned = 0
            guard length <= maximumLength else { return tooLong(context: context, buffer: &buffer) }
            var line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            // Tolerate CRLF from clients written for other protocols.
            if line.readableBytesView.last == UInt8(ascii: "\r") { line.moveWriterIndex(to: line.writerIndex - 1) }
            context.fireChannelRead(wrapInboundOut(line))
            return .continue
        }
        scanned = view.count
        if scanned > maximumLength { return tooLong(context: context, buffer: &buffer) }
        return .needMoreData
    }

    private mutating func tooLong(context: ChannelHandlerContext, buffer: inout ByteBuffer) -> DecodingState {
        discarding = true
        buffer.moveReaderIndex(to: buffer.writerIndex)
        context.fireErrorCaught(LineTooLong())
        return .needMoreData
    }

    package mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A final request without its newline still counts.
        while try decode(context: context, buffer: &buffer) == .continue {}
        if buffer.readableBytes > 0, !discarding {
            guard buffer.readableBytes <= maximumLength else { return tooLong(context: context, buffer: &buffer) }
            context.fireChannelRead(wrapInboundOut(buffer.readSlice(length: buffer.readableBytes)!))
        }
        return .needMoreData
    }
}
