import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads many subscribers' streams on a few threads, each thread waiting in its own epoll(7)
/// set (level-triggered) for a share of the sockets, and checking each stream as it arrives
/// (StreamCheck). The test thread looks at the checks under each shard's lock.
///
/// When did a state reach the subscriber? The read that brought it returned at `arrival`, but
/// a Unix socket has no receive timestamp, so each read also gets a lower bound: its bytes
/// arrived after the thread last called epoll_wait before this round (anything there earlier
/// would have made that wait report the socket, and been read then: every ready descriptor is
/// reported, and read until a read comes back short) and after the start of the last read that
/// drained this socket. The gap between the two is this reader's own delay, measured per read.
final class SubscriberReaders: @unchecked Sendable {
    /// What one thread saw of its own pace.
    struct ThreadFigures {
        var rounds = 0
        var readyMax = 0
        /// How long each round (wait returned → last socket handled) took, µs.
        var roundMicros: [Int32] = []
        var cpuSeconds = 0.0
        /// Time spent runnable but waiting for a CPU (/proc/…/schedstat), seconds.
        var runQueueSeconds = 0.0
        /// Why the thread did not get its real-time priority, if it did not.
        var priorityFailure: String?
    }

    private final class Shard: @unchecked Sendable {
        let lock = NSLock()
        var streams: [StreamCheck]
        let indices: [Int]
        var figures = ThreadFigures()
        var stopRequested = false
        let finished = DispatchSemaphore(value: 0)

        init(streams: [StreamCheck], indices: [Int]) {
            self.streams = streams
            self.indices = indices
        }
    }

    private let shards: [Shard]
    private let count: Int
    /// More than a full socket can hold (its send buffer, `wmem_default`: 208 KiB), plus the
    /// partial line kept from the last read.
    static let bufferSize = 1 << 18

    private let realTimePriority: Int32?

    /// `realTimePriority`: the threads run under SCHED_FIFO at that priority (RealTimePriority).
    init(_ streams: [StreamCheck], threads: Int, realTimePriority: Int32? = nil) {
        self.realTimePriority = realTimePriority
        count = streams.count
        shards = (0..<threads).map { shard in
            let indices = Array(stride(from: shard, to: streams.count, by: threads))
            return Shard(streams: indices.map { streams[$0] }, indices: indices)
        }
    }

    func start() {
        for (n, shard) in shards.enumerated() {
            let priority = realTimePriority
            let thread = Thread {
                if let priority, let failure = RealTimePriority.applyToCurrentThread(priority: priority) {
                    shard.lock.withLock { shard.figures.priorityFailure = failure }
                }
                Self.run(shard)
            }
            thread.name = "subscribers \(n)"
            thread.start()
        }
    }

    /// Stops reading (the sockets stay open).
    func stop() {
        for shard in shards { shard.lock.withLock { shard.stopRequested = true } }
        for shard in shards { shard.finished.wait() }
    }

    /// Whether `predicate` holds for every stream right now.
    func all(_ predicate: (StreamCheck) -> Bool) -> Bool {
        shards.allSatisfy { shard in shard.lock.withLock { shard.streams.allSatisfy(predicate) } }
    }

    /// Every stream, in the order given to init.
    var streams: [StreamCheck] {
        var all = [StreamCheck?](repeating: nil, count: count)
        for shard in shards {
            shard.lock.withLock {
                for (k, index) in shard.indices.enumerated() { all[index] = shard.streams[k] }
            }
        }
        return all.map { $0! }
    }

    var figures: [ThreadFigures] {
        shards.map { shard in shard.lock.withLock { shard.figures } }
    }

    private static func run(_ shard: Shard) {
        let epoll = Epoll(capacity: shard.streams.count)
        for (k, stream) in shard.streams.enumerated() { epoll.add(stream.fd, token: UInt64(k)) }
        let buffers = shard.streams.map { _ in UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16) }
        defer { for buffer in buffers { buffer.deallocate() } }
        var filled = [Int](repeating: 0, count: buffers.count)
        var lastDrainStart = [Int64](repeating: 0, count: buffers.count)
        let schedstat = "/proc/thread-self/schedstat"
        let runQueueAtStart = runQueueNanoseconds(schedstat)
        var previousWaitCall: Int64 = 0
        var roundMicros: [Int32] = []
        roundMicros.reserveCapacity(1 << 16)
        var readyMax = 0
        var ready: [Int] = []
        ready.reserveCapacity(shard.streams.count)
        while !shard.lock.withLock({ shard.stopRequested }) {
            let waitCall = monotonicMicroseconds()
            ready.removeAll(keepingCapacity: true)
            // A short timeout keeps the lower bound of the next reads close: a wait that
            // blocked long only says their bytes came after it began.
            epoll.wait(timeout: 1) { token, _ in ready.append(Int(token)) }
            guard !ready.isEmpty else {
                previousWaitCall = waitCall
                continue
            }
            let woke = monotonicMicroseconds()
            readyMax = max(readyMax, ready.count)
            shard.lock.withLock {
                for k in ready where !shard.streams[k].eof {
                    let lower = max(previousWaitCall, lastDrainStart[k])
                    let buffer = buffers[k]
                    // No FIONREAD: the buffer has room for more than a full socket, so the
                    // first read takes everything waiting, and its size is what was queued.
                    while true {
                        let readStart = monotonicMicroseconds()
                        let room = buffer.count - filled[k]
                        let n = read(shard.streams[k].fd, buffer.baseAddress! + filled[k], room)
                        let arrival = monotonicMicroseconds()
                        if n > 0 {
                            filled[k] = consume(buffer, filled: filled[k], new: n, into: &shard.streams[k])
                            shard.streams[k].read(lower: lower, arrival: arrival, bytes: n)
                            if n < room { lastDrainStart[k] = readStart; break }
                        } else if n < 0, errno == EAGAIN {
                            lastDrainStart[k] = readStart
                            break
                        } else if n < 0, errno == EINTR {
                            continue
                        } else {
                            shard.streams[k].eof = true
                            epoll.remove(shard.streams[k].fd)
                            break
                        }
                    }
                }
            }
            roundMicros.append(Int32(clamping: monotonicMicroseconds() - woke))
            previousWaitCall = waitCall
        }
        var cpu = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
        let runQueue = runQueueNanoseconds(schedstat) - runQueueAtStart
        shard.lock.withLock {
            shard.figures.rounds = roundMicros.count
            shard.figures.readyMax = readyMax
            shard.figures.roundMicros = roundMicros
            shard.figures.cpuSeconds = Double(cpu.tv_sec) + Double(cpu.tv_nsec) / 1e9
            shard.figures.runQueueSeconds = Double(runQueue) / 1e9
        }
        shard.finished.signal()
    }

    /// Hands the whole lines among `filled + new` bytes to `stream`; moves a partial line to
    /// the front. Returns how many bytes stay.
    private static func consume(_ buffer: UnsafeMutableRawBufferPointer, filled: Int, new: Int, into stream: inout StreamCheck) -> Int {
        let base = buffer.baseAddress!
        let end = filled + new
        var start = 0
        // Only the new bytes can hold a newline not seen yet.
        var searchFrom = filled
        while searchFrom < end, let newline = memchr(base + searchFrom, 0x0A, end - searchFrom) {
            let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(newline))
            stream.line(UnsafeRawBufferPointer(start: base + start, count: at - start))
            start = at + 1
            searchFrom = start
        }
        let left = end - start
        if left > 0, start > 0 { memmove(base, base + start, left) }
        precondition(left < buffer.count, "a line longer than \(buffer.count) bytes")
        return left
    }

    /// The second field of /proc/…/schedstat: nanoseconds spent waiting on a run queue.
    static func runQueueNanoseconds(_ path: String) -> Int64 {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? Int64(fields[1]) ?? 0 : 0
    }
}
