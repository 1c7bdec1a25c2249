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

    /// Frames that are each late when scheduled, as when delivering the last one took longer
    /// than a frame: the next one's time has passed already. The first frame writes a byte to
    /// the pipe the loop watches; the last one says the frames are over. Touched on the loop
    /// alone.
    final class LateFrames: DeadlineTarget, @unchecked Sendable {
        let eventLoop: EventLoop
        let events: Happenings
        let pipe: Int32
        let over: EventLoopPromise<Void>
        var scheduler: DeadlineScheduler!
        var remaining: Int

        init(eventLoop: EventLoop, frames: Int, events: Happenings, pipe: Int32) {
            self.eventLoop = eventLoop
            remaining = frames
            self.events = events
            self.pipe = pipe
            over = eventLoop.makePromise()
        }

        func runDeadlines(until time: Timestamp) {
            if events.all.isEmpty { _ = write(pipe, "x", 1) }
            events.append("frame")
            remaining -= 1
            guard remaining > 0 else {
                scheduler.reschedule(at: nil)
                over.succeed()
                return
            }
            // Due already: a microsecond ago on the loop's clock.
            scheduler.reschedule(at: eventLoop.timestamp - 1)
        }
    }

    /// Records what the pipe brings, and says when it came.
    final class Reader: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let events: Happenings
        let read: EventLoopPromise<Void>
        init(events: Happenings, read: EventLoopPromise<Void>) {
            self.events = events
            self.read = read
        }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            events.append("read")
            read.succeed()
        }
    }

    /// Without the fix the frames run back to back inside one turn of the loop and the byte is
    /// read after all of them, whatever the machine's speed; with it, between two of them.
    @Test(.timeLimit(.minutes(1))) func aSocketIsReadWhileFramesAreBehind() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let events = Happenings()
        let frames = 40
        var descriptors: [Int32] = [0, 0]
        try #require(pipe(&descriptors) == 0)
        let read = loop.makePromise(of: Void.self)
        let channel = try NIOPipeBootstrap(group: group)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Reader(events: events, read: read)) } }
            .takingOwnershipOfDescriptor(input: descriptors[0])
            .wait()
        defer { close(descriptors[1]); try? channel.close().wait() }

        let target = LateFrames(eventLoop: loop, frames: frames, events: events, pipe: descriptors[1])
        try loop.submit {
            let scheduler = DeadlineScheduler(eventLoop: loop, target: target, logger: Logger(label: "test"))
            target.scheduler = scheduler
            scheduler.reschedule(at: loop.timestamp - 1)
        }.wait()
        _ = try target.over.futureResult.and(read.futureResult).wait()
        let readAt = try #require(events.all.firstIndex(of: "read"))
        #expect(readAt < frames, "the pipe was read after \(readAt) late frames of \(frames): the loop reached epoll only once they were over")
        try loop.submit { target.scheduler = nil }.wait()
    }
}
