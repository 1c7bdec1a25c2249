import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Reads event nodes beside libinput (evdev gives every reader every event) to learn the
/// kernel's timestamp of each evdev frame: the `t` libinput hands scrolld for the events made
/// from it. A state whose `t` is one of these came from input; any other came from a deadline.
final class EvdevTimes: @unchecked Sendable {
    private var fds: [Int32] = []
    private let times = Mutex<Set<Int64>>([])
    private let stopping = Atomic<Bool>(false)
    private let finished = Atomic<Bool>(false)

    // _IOW('E', 0xa0, int)
    private static let eviocsclockid: UInt = 0x4004_45a0

    init(nodes: [String]) throws {
        for node in nodes {
            let fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw HarnessError.system("open \(node)") }
            // evdev stamps with CLOCK_REALTIME unless asked; libinput asks for CLOCK_MONOTONIC.
            var clock = Int32(CLOCK_MONOTONIC)
            guard ioctl(fd, Self.eviocsclockid, &clock) == 0 else { throw HarnessError.system("EVIOCSCLOCKID \(node)") }
            fds.append(fd)
        }
    }

    func start() {
        let thread = Thread { [self] in
            var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            var buffer = [UInt8](repeating: 0, count: 24 * 256)
            while !stopping.load(ordering: .relaxed) {
                guard poll(&polls, nfds_t(polls.count), 50) > 0 else { continue }
                for p in polls where p.revents != 0 {
                    let n = buffer.withUnsafeMutableBytes { read(p.fd, $0.baseAddress, $0.count) }
                    guard n > 0 else { continue }
                    var frames: [Int64] = []
                    buffer.withUnsafeBytes { raw in
                        for i in 0..<(n / 24) where raw.load(fromByteOffset: 24 * i + 16, as: UInt16.self) == 0 {
                            let sec = raw.load(fromByteOffset: 24 * i, as: Int.self)
                            let usec = raw.load(fromByteOffset: 24 * i + 8, as: Int.self)
                            frames.append(Int64(sec) * 1_000_000 + Int64(usec))
                        }
                    }
                    times.withLock { $0.formUnion(frames) }
                }
            }
            finished.store(true, ordering: .relaxed)
        }
        thread.start()
    }

    func stop() -> Set<Int64> {
        stopping.store(true, ordering: .relaxed)
        while !finished.load(ordering: .relaxed) { Clock.sleep(seconds: 0.01) }
        for fd in fds { close(fd) }
        return times.withLock { $0 }
    }
}
