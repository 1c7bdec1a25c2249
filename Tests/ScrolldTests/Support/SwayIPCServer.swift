import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An i3-ipc server answering as sway-ipc(7) documents: `GET_INPUTS` with ``inputs`` (JSON
/// text), `SUBSCRIBE` with `{"success":true}`, and ``sendInputEvent(_:)`` to the subscribers.
/// It stands for sway where the real one cannot show what a test needs: headless sway has no
/// input devices, so its `GET_INPUTS` is always empty (docs/decisions.md).
///
/// Descriptors are closed under the lock that `stop` and ``sendInputEvent(_:)`` use them
/// under: tests run in parallel in one process, and a descriptor number this server closed may
/// be another test's socket a moment later (shutting down or writing to a stale number once
/// ended another test's daemon connection).
final class SwayIPCServer: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var currentInputs: String
    private var subscribers: [Int32] = []
    private var connections: [Int32] = []

    init(inputs: String) throws {
        path = "/tmp/sd-swayipc-\(UUID().uuidString.prefix(8)).sock"
        currentInputs = inputs
        listener = try RawSocket.bound(path, type: SOCK_STREAM)
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// The `GET_INPUTS` reply from now on.
    var inputs: String {
        get { lock.withLock { currentInputs } }
        set { lock.withLock { currentInputs = newValue } }
    }

    /// An `input` event (type 0x80000015) to every subscriber.
    func sendInputEvent(_ payload: String) {
        let message = Self.message(0x8000_0015, payload)
        lock.withLock {
            for fd in subscribers { _ = message.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        }
    }

    var subscriberCount: Int { lock.withLock { subscribers.count } }

    /// Ends the accept loop (which closes the listener) and every connection (whose threads
    /// close them).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        lock.withLock {
            for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        unlink(path)
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0, errno == EINTR || errno == ECONNABORTED { continue }
            guard fd >= 0 else {
                close(listener)
                return
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            lock.withLock { connections.append(fd) }
            Thread.detachNewThread { [self] in serve(fd) }
        }
    }

    private func serve(_ fd: Int32) {
        while let header = Self.read(fd, 14), let body = Self.read(fd, Int(Self.uint32(header, 6))) {
            _ = body
            let reply: [UInt8]
            switch Self.uint32(header, 10) {
            case 100: reply = Self.message(100, inputs)
            case 2:
                lock.withLock { subscribers.append(fd) }
                reply = Self.message(2, #"{"success":true}"#)
            default: reply = Self.message(Self.uint32(header, 10), #"{"success":false}"#)
            }
            _ = reply.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        lock.withLock {
            subscribers.removeAll { $0 == fd }
            connections.removeAll { $0 == fd }
            close(fd)
        }
    }

    static func message(_ type: UInt32, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        func le(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        return Array("i3-ipc".utf8) + le(UInt32(body.count)) + le(type) + body
    }

    static func uint32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
    }

    static func read(_ fd: Int32, _ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = bytes[done...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            done += n
        }
        return bytes
    }
}
