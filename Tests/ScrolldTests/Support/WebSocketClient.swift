import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A WebSocket client for the listener's tests (RFC 6455 written out, so a test can also send
/// what no well-behaved client would: huge frames, fragments, binary, broken UTF-8). Blocking,
/// with deadlines that only catch hangs.
final class WebSocketClient {
    /// One frame from the daemon.
    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
        /// A close frame's code.
        var closeCode: Int? { opcode == 8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
        /// A close frame's reason, after its code (nil: not UTF-8, or no close frame).
        var closeReason: String? { opcode == 8 && payload.count >= 2 ? String(validating: payload[2...], as: UTF8.self) : nil }
        var json: [String: Any]? { opcode == 1 ? (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any] : nil }
    }

    private(set) var fd: Int32
    private var buffer: [UInt8] = []
    /// The HTTP response to the handshake (status line and headers, and a refusal's body).
    private(set) var response = ""

    /// A TCP connection to 127.0.0.1:`port`, not yet upgraded.
    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw HarnessError("connect 127.0.0.1:\(port): \(String(cString: strerror(code)))")
        }
    }

    /// Connects and sends the handshake for `path`, with `origin` if given; true when the
    /// daemon answered 101 (`response` has the answer either way).
    static func open(port: Int, path: String = "/scrolld", origin: String? = nil) throws -> (WebSocketClient, Bool) {
        let client = try WebSocketClient(port: port)
        return (client, client.handshake(path: path, origin: origin))
    }

    /// `connection`: the Connection header's value (nil: none).
    func handshake(path: String = "/scrolld", origin: String? = nil, method: String = "GET", connection: String? = "Upgrade") -> Bool {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        if let connection { request += "Connection: \(connection)\r\n" }
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if let origin { request += "Origin: \(origin)\r\n" }
        sendRaw(Array((request + "\r\n").utf8))
        return readResponse()
    }

    /// The header lines of a handshake as RFC 6455 §4.1 writes it, for a test to change.
    static let handshakeHeaders = [
        "Host: 127.0.0.1", "Upgrade: websocket", "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
    ]

    /// Sends a handshake for /scrolld with these header lines, as written; true when the
    /// daemon answered 101.
    func handshake(headers: [String]) -> Bool {
        sendRaw(Array(("GET /scrolld HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n").utf8))
        return readResponse()
    }

    /// The values of the response's header `name` (any case), without the spaces around them.
    func responseHeader(_ name: String) -> [String] {
        let head = response.components(separatedBy: "\r\n\r\n")[0]
        return head.components(separatedBy: "\r\n").dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == name.lowercased() else { return nil }
            return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// Reads the daemon's HTTP answer into `response`; true when it is 101 (the upgrade).
    func readResponse() -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let end = headerEnd() {
                response = String(decoding: buffer[..<end], as: UTF8.self)
                buffer.removeSubrange(..<(end + 4))
                if !response.hasPrefix("HTTP/1.1 101") {
                    // A refusal's body, up to the close.
                    while receive(timeout: 5) {}
                    response += String(decoding: buffer, as: UTF8.self)
                    return false
                }
                return true
            }
            guard receive(timeout: deadline.timeIntervalSinceNow) else { break }
        }
        return false
    }

    private func headerEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// A masked frame, as a client must send it.
    static func frame(opcode: UInt8, payload: [UInt8], fin: Bool = true) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let count = payload.count
        if count < 126 {
            bytes.append(0x80 | UInt8(count))
        } else if count <= 0xFFFF {
            bytes += [0x80 | 126, UInt8(count >> 8), UInt8(count & 0xFF)]
        } else {
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((count >> shift) & 0xFF)) }
        }
        let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }

    func sendText(_ text: String) { sendRaw(Self.frame(opcode: 1, payload: Array(text.utf8))) }
    func send(_ object: [String: Any]) {
        sendText(String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
    }

    /// Sends `bytes` whole (blocking); the bytes the kernel took (fewer once the daemon closed).
    @discardableResult
    func sendRaw(_ bytes: [UInt8]) -> Int { Self.send(bytes, on: fd) }

    /// Sends `bytes` whole on `fd` (from another thread, say); the bytes the kernel took.
    @discardableResult
    static func send(_ bytes: [UInt8], on fd: Int32) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            offset += n
        }
        return offset
    }

    /// Reads once into the buffer; false at EOF, on an error or after `timeout` seconds.
    private func receive(timeout: Double) -> Bool { receiveOnce(timeout: timeout) == .read }

    private enum Received { case read, ended, timedOut }

    /// Reads once into the buffer: whether bytes came, the peer ended the connection (EOF or
    /// an error), or nothing came within `timeout` seconds.
    private func receiveOnce(timeout: Double) -> Received {
        guard timeout > 0 else { return .timedOut }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&pfd, 1, Int32(timeout * 1000) + 1) > 0 else { return .timedOut }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return .ended }
        buffer += chunk[..<n]
        return .read
    }

    /// The next frame from the daemon, or nil at EOF or after `timeout` seconds.
    func readFrame(timeout: Double = 30) -> Frame? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let frame = parseFrame() { return frame }
            guard receive(timeout: deadline.timeIntervalSinceNow) else { return nil }
        }
    }

    private func parseFrame() -> Frame? {
        guard buffer.count >= 2 else { return nil }
        let opcode = buffer[0] & 0x0F
        var length = Int(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return nil }
            length = Int(buffer[2]) << 8 | Int(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return nil }
            length = buffer[2..<10].reduce(0) { $0 << 8 | Int($1) }
            offset = 10
        }
        guard buffer.count >= offset + length else { return nil }
        let frame = Frame(opcode: opcode, payload: Array(buffer[offset..<(offset + length)]))
        buffer.removeSubrange(..<(offset + length))
        return frame
    }

    /// The next text message as JSON (skipping nothing else: a close gives nil).
    func readJSON(timeout: Double = 30) -> [String: Any]? {
        readFrame(timeout: timeout)?.json
    }

    /// The reply carrying `id`, past the messages before it.
    func request(_ object: [String: Any], id: Int, timeout: Double = 30) -> [String: Any]? {
        var object = object
        object["id"] = id
        send(object)
        let deadline = Date().addingTimeInterval(timeout)
        while let frame = readFrame(timeout: deadline.timeIntervalSinceNow), frame.opcode == 1 {
            if let reply = frame.json, (reply["id"] as? NSNumber)?.intValue == id { return reply }
        }
        return nil
    }

    /// The frames up to and including the daemon's close (or the end of the connection).
    func framesUntilClose(timeout: Double = 60) -> [Frame] {
        var frames: [Frame] = []
        let deadline = Date().addingTimeInterval(timeout)
        while let frame = readFrame(timeout: deadline.timeIntervalSinceNow) {
            frames.append(frame)
            if frame.opcode == 8 { break }
        }
        return frames
    }

    /// Whether the daemon closes the connection within `timeout` seconds (what it sends
    /// meanwhile is kept for `readFrame`).
    func closedByPeer(timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            switch receiveOnce(timeout: deadline.timeIntervalSinceNow) {
            case .read: continue
            case .ended: return true
            case .timedOut: return false
            }
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }

    /// A loopback port nobody listens on now (the kernel's choice for a socket bound to port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw HarnessError("no free port: \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
