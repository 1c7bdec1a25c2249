import Foundation
import Logging
import NIOCore
import NIOPosix
import ScrollModel
import Synchronization
import Testing

@testable import ScrollDaemon

/// Frames that fall behind (each takes longer to deliver than a frame lasts) must not keep the
/// loop from its sockets. NIO runs every task that is due before it waits in epoll again, so a
/// wake-up that is due already when it is scheduled runs in the same turn, and so on for as long
/// as frames stay behind: no connection was read, no ping answered, for seconds. On a real
/// `SelectableEventLoop` (an embedded loop runs no epoll), a pipe's byte must be read while the
/// frames are still behind.
@Suite struct LateFrameTests {
    /// What happened on the loop, in order: "frame" for each frame, "read" for the pipe's byte.
    final class Happenings: Sendable {
        private let list = Mutex<[String]>([])
        func append(_ event: String) { list.withLock { $0.append(event) } }
        var all: [String] { list.withLock { $0 } }
    }

    /// Frames that each take longer than the interval they are scheduled at, for `frames` frames.
    /// Touched on the loop alone.
    final class SlowFrames: DeadlineTarget, @unchecked Sendable {
        let eventLoop: EventLoop
        let events: Happenings
        var scheduler: DeadlineScheduler!
        var remaining: Int
        static let interval: Timestamp = 2000
        static let work: useconds_t = 5000

        init(eventLoop: EventLoop, frames: Int, events: Happenings) {
            self.eventLoop = eventLoop
            remaining = frames
            self.events = events
        }

        func runDeadlines(until time: Timestamp) {
            events.append("frame")
            // The stand-in for a frame's delivery to many subscribers: longer than a frame.
            usleep(Self.work)
            remaining -= 1
            scheduler.reschedule(at: remaining > 0 ? time + Self.interval : nil)
        }
    }

    /// Records what the pipe brings.
    final class Reader: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let events: Happenings
        init(events: Happenings) { self.events = events }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            events.append("read")
        }
    }

    @Test func aSocketIsReadWhileFramesAreBehind() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let events = Happenings()
        let frames = 40
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let channel = try NIOPipeBootstrap(group: group)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Reader(events: events)) } }
            .takingOwnershipOfDescriptor(input: descriptors[0])
            .wait()
        defer { close(descriptors[1]); try? channel.close().wait() }

        let target = SlowFrames(eventLoop: loop, frames: frames, events: events)
        try loop.submit {
            let scheduler = DeadlineScheduler(eventLoop: loop, target: target, logger: Logger(label: "test"))
            target.scheduler = scheduler
            // The first frame runs now; its work makes every later one late.
            scheduler.reschedule(at: loop.timestamp)
        }.wait()
        // Written once the frames are under way: the loop must come round to read it.
        #expect(write(descriptors[1], "x", 1) == 1)
        let done = waitUntil(timeout: 60) { events.all.filter { $0 == "frame" }.count == frames && events.all.contains("read") }
        #expect(done)
        let seen = events.all
        let readAt = try #require(seen.firstIndex(of: "read"))
        #expect(readAt < frames, "the pipe was read after \(readAt) late frames of \(frames): the loop reached epoll only once they were over")
        try loop.submit { target.scheduler = nil }.wait()
    }

    private func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            if condition() { return true }
            usleep(2000)
        }
        return condition()
    }
}
