import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Clients that misbehave, or watch, on threads of their own, for FaultTests.

final class SendResult: @unchecked Sendable {
    var bytes = 0
}

/// While a flood goes on: the subscriber's seqs (read on one thread) and a pinger's round trips
/// (on another).
final class OthersCheck: @unchecked Sendable {
    let path: String
    let subscriber: LineClient
    private let lock = NSLock()
    private var stopRequested = false
    private let threads = DispatchGroup()
    private var receivedSeqs: [Int] = []
    private var pongCount = 0
    private var failures = 0

    /// The subscriber's broadcasts' seqs so far; the pinger's answered and failed pings.
    var seqs: [Int] { lock.withLock { receivedSeqs } }
    var pongs: Int { lock.withLock { pongCount } }
    var pingFailures: Int { lock.withLock { failures } }

    init(path: String, subscriber: LineClient) {
        self.path = path
        self.subscriber = subscriber
    }

    var stopping: Bool { lock.withLock { stopRequested } }

    func start() {
        threads.enter()
        Thread.detachNewThread { [self] in
            while !stopping {
                if let state = subscriber.readJSON(timeout: 0.2), state["type"] as? String == "state", let seq = state.int("seq") {
                    lock.withLock { receivedSeqs.append(seq) }
                }
            }
            threads.leave()
        }
        threads.enter()
        Thread.detachNewThread { [self] in
            guard let pinger = try? LineClient(path: path) else {
                lock.withLock { failures += 1 }
                threads.leave()
                return
            }
            _ = pinger.readJSON()
            var id = 0
            while !stopping {
                id += 1
                let ok = pinger.request(["op": "ping"], id: id, timeout: 60)?["type"] as? String == "pong"
                lock.withLock { if ok { pongCount += 1 } else { failures += 1 } }
            }
            threads.leave()
        }
    }

    func stop() {
        lock.withLock { stopRequested = true }
        threads.wait()
    }
}

/// Sends one line over and over on a non-blocking socket, whole lines only, until `total`
/// bytes or `stop()`.
final class ThrottledSender: @unchecked Sendable {
    let fd: Int32
    let line: [UInt8]
    let total: Int
    private let lock = NSLock()
    private var stopRequested = false
    private var count = 0
    private var done = false

    init(fd: Int32, line: [UInt8], total: Int) {
        self.fd = fd
        self.line = line
        self.total = total
    }

    var sent: Int { lock.withLock { count } }
    var finished: Bool { lock.withLock { done } }

    func start() {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        Thread.detachNewThread { [self] in
            let chunk = [UInt8]((0..<4096).flatMap { _ in line })
            var offset = 0  // into the current chunk; whole lines are finished before stopping
            while true {
                let stopping = lock.withLock { stopRequested }
                if lock.withLock({ count }) >= total || (stopping && offset % line.count == 0) { break }
                var polled = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                guard poll(&polled, 1, 50) > 0 else { continue }
                let n = chunk[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else {
                    if errno == EAGAIN || errno == EINTR { continue }
                    break
                }
                offset = (offset + n) % chunk.count
                lock.withLock { count += n }
            }
            lock.withLock { done = true }
        }
    }

    /// Stops after the line being sent, if any, is complete.
    func requestStop() {
        lock.withLock { stopRequested = true }
    }
}
