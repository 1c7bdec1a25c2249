import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads a subscriber's lines on a thread of its own as they come, noting when each arrived,
/// so that a test can read several streams at once and tell a stream's passes apart.
final class StreamRecorder: @unchecked Sendable {
    struct Line {
        var object: [String: Any]
        /// CLOCK_MONOTONIC (µs) once the read that brought it returned: the daemon sent it
        /// before then.
        var arrival: Int64
        /// The most bytes seen waiting in the socket since the line before (LineClient).
        var queued: Int
    }

    let client: LineClient
    private let lock = NSLock()
    private var recorded: [Line] = []
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)

    init(_ client: LineClient) {
        self.client = client
    }

    var lines: [Line] { lock.withLock { recorded } }

    func start() {
        Thread.detachNewThread { [self] in
            while !lock.withLock({ stopRequested }), !client.reachedEnd {
                guard let object = client.readJSON(timeout: 0.2) else { continue }
                let line = Line(object: object, arrival: monotonicMicroseconds(), queued: client.takeMostQueued())
                lock.withLock { recorded.append(line) }
            }
            finished.signal()
        }
    }

    func stop() {
        lock.withLock { stopRequested = true }
        finished.wait()
    }

    /// The first whole pass of a looped replay after line `index`, as this stream has it: the
    /// state lines after an idle state up to and including the next idle one (indices into
    /// `lines`); nil if none came within `timeout` seconds.
    func pass(after index: Int = 0, timeout: Double = 60) -> ClosedRange<Int>? {
        var found: ClosedRange<Int>?
        _ = waitUntil(timeout: timeout) {
            let lines = self.lines
            let states = lines.indices.filter { $0 >= index && lines[$0].object["type"] as? String == "state" }
            func idle(_ i: Int) -> Bool { lines[i].object.phase == "idle" }
            // An idle state followed by a moving one: a pass begins.
            guard let k = states.indices.first(where: { $0 + 1 < states.count && idle(states[$0]) && !idle(states[$0 + 1]) }),
                  let closing = states[(k + 1)...].first(where: idle)
            else { return false }
            found = states[k + 1]...closing
            return true
        }
        return found
    }

    /// Whether the socket may have filled while `range` was read (then the daemon may have
    /// coalesced states in it): the lines from the one before it.
    func mayHaveFilled(_ range: ClosedRange<Int>) -> Bool {
        let lines = self.lines
        return lines[max(0, range.lowerBound - 1)...range.upperBound].contains { $0.queued >= LineClient.neverFullBelow }
    }
}
