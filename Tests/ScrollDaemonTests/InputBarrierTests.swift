import Foundation
import NIOCore
import ScrollConfig
import ScrollDaemon
import ScrollModel
import ScrollProtocol
import Testing

/// The input barrier (InputSource.barrier, docs/design.md §6's "frames never overtake input") with
/// a source whose barrier the test answers: the moment it read, and what reaches the loop after.
/// The real one is libinput's thread; the real-kernel guest checks the same promise end to end
/// ("every wheel click reached the daemon before any later frame").
@Suite struct InputBarrierTests {
    /// Answers barriers when the test says so.
    final class HeldSource: InputSource {
        var devices: [DeviceInfo] { [] }
        var waiting: [@Sendable (Timestamp) -> Void] = []
        func apply(_ settings: InputSettings) {}
        func barrier(_ passed: @escaping @Sendable (Timestamp) -> Void) { waiting.append(passed) }
        func pass(readTime: Timestamp) {
            let passed = waiting
            waiting.removeAll()
            for callback in passed { callback(readTime) }
        }
    }

    /// A daemon with a subscriber to `main`, a wheel click at `start` and its first frame due:
    /// the loop has woken for that frame and waits for the barrier.
    struct FrameDue {
        let daemon: EmbeddedDaemon
        let source = HeldSource()
        let client: Connection
        let start: Timestamp
        let frame: Timestamp

        init() throws {
            daemon = try EmbeddedDaemon()
            daemon.core.scheduler.input = source
            client = try daemon.connect()
            _ = try client.request(#"{"op":"subscribe","container":"main","id":1}"#)
            daemon.input(.deviceAdded(name: "mouse", capabilities: [.wheel]))
            daemon.input(.wheel(v120: AxisValues(y: 120), degrees: nil))
            start = daemon.now
            _ = try client.drain()
            frame = try #require(daemon.core.session.nextDeadline)
            daemon.advance(Double(frame - daemon.now) / 1e6)
        }

        func click(at time: Timestamp) {
            daemon.core.input(ScrollEvent(time: time, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil)))
        }
    }

    /// A frame that comes due while the loop is busy runs once the barrier passes, at its own
    /// time; an event the kernel stamped after that frame but which reached the loop after the
    /// barrier read the clock (it was still on its way into the device's buffer) applies at its
    /// own time too — not at the moment the barrier read, which no replay could reproduce.
    @Test func inputStampedAfterTheLastFrameRunAppliesAtItsOwnTimeEvenAfterTheBarrier() throws {
        let due = try FrameDue()
        // Nothing runs until the barrier passes.
        #expect(due.source.waiting.count == 1)
        #expect(try due.client.drain().isEmpty)
        // It passes 1.8 ms late (a busy machine): the frame runs, stamped with its own time.
        due.source.pass(readTime: due.frame + 1_800)
        #expect(try due.client.drain().map { $0["t"] as? Double } == [Double(due.frame)])
        // A click stamped 1.7 ms after the frame reaches the loop only now.
        due.click(at: due.frame + 1_700)
        let click = try due.client.drain()
        #expect(click.map { $0["t"] as? Double } == [Double(due.frame + 1_700)])
        #expect(click.first?["phase"] as? String == "interacting")
    }

    /// Input stamped before a frame that already ran cannot go back in time: it applies at that
    /// frame's time (and is recorded there, so a replay applies it there too), and is counted
    /// (and logged) as late.
    @Test func inputStampedBeforeAFrameThatRanAppliesAtThatFrame() throws {
        let due = try FrameDue()
        due.source.pass(readTime: due.frame + 100)
        #expect(try due.client.drain().map { $0["t"] as? Double } == [Double(due.frame)])
        #expect(due.daemon.core.scheduler.lateInputs == 0)
        due.click(at: due.start + 1_000)
        #expect(try due.client.drain().map { $0["t"] as? Double } == [Double(due.frame)])
        #expect(due.daemon.core.scheduler.lateInputs == 1)
    }
}
