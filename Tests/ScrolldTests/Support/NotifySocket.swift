import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's notify socket.
final class NotifySocket {
    private(set) var fd: Int32
    let path: String

    /// `path`: a fresh one unless given (bound again where an earlier one was closed).
    init(path: String? = nil) throws {
        self.path = path ?? "/tmp/sd-notify-\(UUID().uuidString.prefix(8))"
        fd = try RawSocket.bound(self.path, type: SOCK_DGRAM)
    }

    /// Closes and removes the socket: what the daemon sends afterwards fails at once
    /// (nothing reads it, and a full queue would block a sender).
    func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        unlink(path)
        fd = -1
    }

    deinit { close() }

    /// Messages received within `timeout` seconds, until one contains `until`.
    func receive(until marker: String, timeout: Double = 30) -> [String] {
        var messages: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) > 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { continue }
            let message = String(decoding: buffer[..<n], as: UTF8.self)
            messages.append(message)
            if message.contains(marker) { break }
        }
        return messages
    }
}
