import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Clients that connect and disconnect in a loop, `slots` of them at any time, each cycle
/// behaving differently: gone without a word; subscribed and gone with states unread (the
/// daemon sees a reset); a ping whose answer is read; subscribed then half-closed.
final class Churner: @unchecked Sendable {
    let path: String
    let slots: Int
    private let lock = NSLock()
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)
    private var counts = (cycles: 0, pongs: 0, backlogFull: 0)
    private var failureList: [String] = []

    /// Connections closed, pongs read, connects refused with a full backlog, and other failures
    /// so far (read while the churning thread runs).
    var cycles: Int { lock.withLock { counts.cycles } }
    var pongs: Int { lock.withLock { counts.pongs } }
    var backlogFull: Int { lock.withLock { counts.backlogFull } }
    var failures: [String] { lock.withLock { failureList } }

    init(path: String, slots: Int) {
        self.path = path
        self.slots = slots
    }

    func start() {
        Thread.detachNewThread { [self] in
            run()
            finished.signal()
        }
    }

    func stop() {
        lock.withLock { stopRequested = true }
        finished.wait()
    }

    private func run() {
        var fds = [Int32](repeating: -1, count: slots)
        var kinds = [Int](repeating: 0, count: slots)
        var round = 0
        var scratch = [UInt8](repeating: 0, count: 65536)
        while !lock.withLock({ stopRequested }) {
            for slot in 0..<slots {
                if fds[slot] >= 0 {
                    if kinds[slot] == 2 {
                        let n = scratch.withUnsafeMutableBytes { recv(fds[slot], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                        if n > 0, String(decoding: scratch[..<n], as: UTF8.self).contains(#""type":"pong""#) { lock.withLock { counts.pongs += 1 } }
                    }
                    if kinds[slot] == 1 { RawSocket.setLingerZero(fds[slot]) }
                    close(fds[slot])
                    fds[slot] = -1
                    lock.withLock { counts.cycles += 1 }
                }
                switch RawSocket.connect(path, nonblocking: true) {
                case .success(let fd):
                    fds[slot] = fd
                    kinds[slot] = (slot + round) % 4
                    switch kinds[slot] {
                    case 1: RawSocket.send(fd, #"{"op":"subscribe","container":"main"}"# + "\n")
                    case 2: RawSocket.send(fd, #"{"op":"ping","id":"churn"}"# + "\n")
                    case 3:
                        RawSocket.send(fd, #"{"op":"subscribe","container":"main"}"# + "\n")
                        shutdown(fd, Int32(SHUT_WR))
                    default: break
                    }
                case .failure(let failure) where failure.errno == EAGAIN:
                    lock.withLock { counts.backlogFull += 1 }
                case .failure(let failure):
                    lock.withLock { if failureList.count < 10 { failureList.append("connect: \(failure)") } }
                }
                usleep(500)
            }
            round += 1
        }
        for fd in fds where fd >= 0 { close(fd) }
    }
}
