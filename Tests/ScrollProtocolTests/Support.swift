import ScrollJSON
import ScrollModel
@testable import ScrollProtocol

/// The request a line decodes to, or the error it is refused with.
func decode(_ line: String) -> Result<Request, ProtocolError> {
    Result { () throws(ProtocolError) in try RequestDecoder.decode(line) }
}

func decodeBytes(_ line: [UInt8]) -> Result<Request, ProtocolError> {
    Result { () throws(ProtocolError) in try RequestDecoder.decode(line) }
}

/// The error a line is refused with; nil when it decodes.
func refusal(_ line: String) -> ProtocolError? {
    if case .failure(let error) = decode(line) { return error }
    return nil
}

/// The operation a line decodes to; nil when it is refused.
func operation(_ line: String) -> Operation? {
    try? decode(line).get().operation
}

/// What an encoder appends to a fresh buffer, as text.
func encoded(_ body: (inout [UInt8]) -> Void) -> String {
    var buffer: [UInt8] = []
    body(&buffer)
    return String(decoding: buffer, as: UTF8.self)
}

func decodeReply(_ line: String) -> Result<Reply, ProtocolError> {
    Result { () throws(ProtocolError) in try ReplyDecoder.decode(line) }
}

/// The error reply the daemon would send for a refused line.
func errorReply(_ line: String) -> String? {
    refusal(line).map { error in encoded { ReplyEncoder.error(error, into: &$0) } }
}

let sampleState = ScrollState(
    time: 1_815_000,
    phase: .interacting,
    geometry: ScrollGeometry(
        contentOffset: Point(x: 0, y: 123.5),
        contentSize: Size(width: 800, height: 5000),
        containerSize: Size(width: 800, height: 600),
        contentInsets: EdgeInsets()
    ),
    velocity: Point(x: 0, y: 812.25),
    header: HeaderState(height: 92.5, progress: 0.5),
    visibleRows: VisibleRows(first: 3, last: 16)
)

/// Whether `text` is one valid JSON value: nil when it is, else the scanner's error.
func jsonError(_ text: String) -> JSONError? {
    Array(text.utf8).withUnsafeBytes { raw -> JSONError? in
        var scanner = JSONScanner(raw)
        do throws(JSONError) {
            try scanner.skipValue()
            try scanner.finish()
            return nil
        } catch {
            return error
        }
    }
}
