import Foundation
import CEpoll
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// N real clients of one server socket, each subscribed to a container, all read by one thread
/// through epoll. Every state line is timed the moment the read that brought it returns
/// (CLOCK_MONOTONIC), so `arrival − t` is the latency from the event's time to this subscriber.
///
/// One reader thread for all subscribers is deliberate: on a 2-core machine the daemon has one
/// core and every subscriber process together the other; the last subscriber read waits for
/// the others, as it would waiting for the CPU.
final class SubscriberSet: @unchecked Sendable {
    struct StateInfo {
        var t: Int64
        var phase: StateLine.Phase
        var firstArrival: Int64
        var lastArrival: Int64
        var receivers: Int
        var bytes: Int
    }

    /// What one subscriber received: (seq, latency in ns) per state, in arrival order.
    struct Received {
        var seqs: [UInt32] = []
        var latencies: [UInt32] = []
    }

    private final class Connection {
        let fd: Int32
        var buffer: UnsafeMutableBufferPointer<UInt8>
        var start = 0
        var end = 0
        var received = Received()
        var closed = false

        init(fd: Int32, leftover: [UInt8], capacity: Int = 256 * 1024) {
            self.fd = fd
            buffer = .allocate(capacity: capacity)
            _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<leftover.count]).initialize(from: leftover)
            end = leftover.count
        }

        deinit {
            buffer.deallocate()
            close(fd)
        }
    }

    let container: String
    /// Whether every arrival is kept (a latency run) or only summed up (a soak).
    let keepsArrivals: Bool
    /// Every arrival's latency when arrivals are not kept.
    private(set) var summary = LatencyStats()
    let lastT = Atomic<Int64>(0)
    /// The seq of the latest state read (the daemon's count of published states).
    let lastSeq = Atomic<UInt32>(0)
    private var connections: [Connection] = []
    private(set) var states: [UInt32: StateInfo] = [:]
    private let epoll: Int32
    private let stopping = Atomic<Bool>(false)
    private var thread: Thread?
    private let finished = Mutex<Bool>(false)
    /// For the run's progress: the last arrival (ns), its phase, and how many states arrived.
    let lastArrival = Atomic<Int64>(0)
    let lastPhase = Atomic<UInt8>(StateLine.Phase.unknown.rawValue)
    let arrivals = Atomic<Int>(0)
    private(set) var closedConnections = 0
    private(set) var clockAnomalies = 0
    /// The first states that arrived before their own `t`: (seq, t, phase, how early in ns).
    private(set) var earlyStates: [(UInt32, Int64, StateLine.Phase, Int64)] = []

    /// Connects `count` clients to `path` and subscribes each (the reply is read before the
    /// next client connects, so every one of them is subscribed when this returns).
    init(path: String, count: Int, container: String = "main", keepsArrivals: Bool = true) throws {
        self.container = container
        self.keepsArrivals = keepsArrivals
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw HarnessError.system("epoll_create1") }
        let request = Array(#"{"op":"subscribe","container":"\#(container)","id":1}"#.utf8) + [UInt8(ascii: "\n")]
        for index in 0..<count {
            let fd = try UnixSocket.connect(path)
            var buffer: [UInt8] = []
            let welcome = try UnixSocket.readLine(fd, buffer: &buffer)
            guard String(decoding: welcome, as: UTF8.self).contains(#""type":"welcome""#) else {
                throw HarnessError("subscriber \(index): expected a welcome, got \(String(decoding: welcome, as: UTF8.self))")
            }
            try UnixSocket.writeAll(fd, request)
            while true {
                let line = String(decoding: try UnixSocket.readLine(fd, buffer: &buffer), as: UTF8.self)
                if line.contains(#""id":1"#) {
                    guard line.contains(#""type":"state""#) else { throw HarnessError("subscriber \(index): subscribe failed: \(line)") }
                    break
                }
            }
            UnixSocket.setNonBlocking(fd)
            let connection = Connection(fd: fd, leftover: buffer)
            connections.append(connection)
            var event = epoll_event()
            event.events = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
            event.data.u64 = UInt64(index)
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0 else { throw HarnessError.system("epoll_ctl") }
        }
    }

    deinit {
        close(epoll)
    }

    var count: Int { connections.count }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.withLock { $0 = true }
        }
        thread.name = "subscribers"
        self.thread = thread
        thread.start()
    }

    /// Stops the reader and returns what every subscriber received.
    func stop() -> [Received] {
        stopping.store(true, ordering: .relaxed)
        while !finished.withLock({ $0 }) { Clock.sleep(seconds: 0.01) }
        return connections.map(\.received)
    }

    /// Closes every connection (the daemon sees them leave).
    func disconnect() {
        connections.removeAll()
    }

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 1024)
        while !stopping.load(ordering: .relaxed) {
            let ready = epoll_wait(epoll, &events, Int32(events.count), 50)
            if ready < 0 {
                if errno == EINTR { continue }
                fatalError("epoll_wait: \(String(cString: strerror(errno)))")
            }
            for i in 0..<Int(ready) {
                readAvailable(connections[Int(events[i].data.u64)])
            }
        }
    }

    private func readAvailable(_ c: Connection) {
        guard !c.closed else { return }
        if c.buffer.count - c.end < 16 * 1024 {
            // Compact: the partial line moves to the front.
            let pending = c.end - c.start
            if c.start > 0 {
                c.buffer.baseAddress!.update(from: c.buffer.baseAddress! + c.start, count: pending)
            }
            c.start = 0
            c.end = pending
            precondition(c.buffer.count - c.end >= 16 * 1024, "a line longer than the read buffer")
        }
        let n = read(c.fd, c.buffer.baseAddress! + c.end, c.buffer.count - c.end)
        let now = Clock.nanoseconds()
        if n <= 0 {
            if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
            c.closed = true
            closedConnections += 1
            epoll_ctl(epoll, EPOLL_CTL_DEL, c.fd, nil)
            return
        }
        c.end += n
        var lineStart = c.start
        var i = c.end - n
        while i < c.end {
            if c.buffer[i] == UInt8(ascii: "\n") {
                let line = UnsafeBufferPointer(rebasing: c.buffer[lineStart..<i])
                if let state = StateLine(line) {
                    record(state, bytes: line.count + 1, arrival: now, on: c)
                    lastSeq.store(state.seq, ordering: .relaxed)
                }
                lineStart = i + 1
            }
            i += 1
        }
        c.start = lineStart
        if c.start == c.end { c.start = 0; c.end = 0 }
    }

    private func record(_ state: StateLine, bytes: Int, arrival: Int64, on c: Connection) {
        var latency = arrival - state.t * 1000
        if latency < 0 {
            // Cannot happen when both ends read CLOCK_MONOTONIC; counted so it would show.
            clockAnomalies += 1
            if earlyStates.count < 20, !earlyStates.contains(where: { $0.0 == state.seq }) {
                earlyStates.append((state.seq, state.t, state.phase, -latency))
            }
            latency = 0
        }
        lastArrival.store(arrival, ordering: .relaxed)
        lastPhase.store(state.phase.rawValue, ordering: .relaxed)
        lastT.store(state.t, ordering: .relaxed)
        arrivals.add(1, ordering: .relaxed)
        guard keepsArrivals else {
            summary.record(nanoseconds: UInt64(latency))
            return
        }
        c.received.seqs.append(state.seq)
        c.received.latencies.append(UInt32(clamping: latency))
        if var info = states[state.seq] {
            info.lastArrival = max(info.lastArrival, arrival)
            info.firstArrival = min(info.firstArrival, arrival)
            info.receivers += 1
            states[state.seq] = info
        } else {
            states[state.seq] = StateInfo(t: state.t, phase: state.phase, firstArrival: arrival, lastArrival: arrival, receivers: 1, bytes: bytes)
        }
    }
}
