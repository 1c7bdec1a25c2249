import Foundation
import CEpoll
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The CPU floor of one publish: a bare loop of `write(2)` of one line to N connected Unix
/// stream sockets, while another thread drains them (as subscribers would), paced like a
/// 1000 Hz mouse.
enum WriteLoopFloor {
    struct Result {
        var subscribers: Int
        /// One round: a write to each of the N sockets, each waking a reader asleep in epoll.
        var paced = LatencyStats()
        /// Rounds back to back, readers busy draining (no wake-up in most writes).
        var backToBack = LatencyStats()
        var perWritePaced: Double { paced.percentile(50) * 1000 / Double(subscribers) }
        var perWriteBackToBack: Double { backToBack.percentile(50) * 1000 / Double(subscribers) }
    }

    static func measure(subscribers: Int, lineBytes: Int, rounds: Int) throws -> Result {
        var writers: [Int32] = []
        var readers: [Int32] = []
        for _ in 0..<subscribers {
            var pair: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { throw HarnessError.system("socketpair") }
            writers.append(pair[0])
            readers.append(pair[1])
            UnixSocket.setNonBlocking(pair[1])
        }
        defer { for fd in writers + readers { close(fd) } }
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        defer { close(epoll) }
        for (i, fd) in readers.enumerated() {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = UInt64(i)
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
        }
        let drained = readers
        let stopping = Atomic<Bool>(false)
        let done = Atomic<Bool>(false)
        let drain = Thread {
            var events = [epoll_event](repeating: epoll_event(), count: 1024)
            var scratch = [UInt8](repeating: 0, count: 64 * 1024)
            while !stopping.load(ordering: .relaxed) {
                let n = epoll_wait(epoll, &events, 1024, 20)
                for i in 0..<max(0, Int(n)) {
                    _ = scratch.withUnsafeMutableBytes { read(drained[Int(events[i].data.u64)], $0.baseAddress, $0.count) }
                }
            }
            done.store(true, ordering: .relaxed)
        }
        drain.start()
        let line = FloorServer.line(seq: 1, t: Clock.microseconds(), id: false, bytes: lineBytes)
        var result = Result(subscribers: subscribers)
        for paced in [true, false] {
            var next = Clock.nanoseconds()
            for round in 0..<(rounds + rounds / 10) {
                if paced {
                    next += 1_000_000
                    Clock.sleep(untilNanoseconds: next)
                }
                let start = Clock.nanoseconds()
                line.withUnsafeBytes { raw in
                    for fd in writers { _ = write(fd, raw.baseAddress, raw.count) }
                }
                // The first tenth warms up caches and socket buffers.
                guard round >= rounds / 10 else { continue }
                let elapsed = UInt64(Clock.nanoseconds() - start)
                if paced { result.paced.record(nanoseconds: elapsed) } else { result.backToBack.record(nanoseconds: elapsed) }
            }
        }
        stopping.store(true, ordering: .relaxed)
        while !done.load(ordering: .relaxed) { Clock.sleep(seconds: 0.005) }
        return result
    }
}
