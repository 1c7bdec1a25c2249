import NIOCore

/// Where work too long for the event loop runs: reading and parsing a configuration file,
/// which may be tens of megabytes and take seconds, while every client waits on the loop.
/// The daemon's POSIX edge runs it on NIO's thread pool; a core without other threads (tests
/// on an `EmbeddedEventLoop`) runs it in place, ``InPlace``.
package protocol BackgroundWork: Sendable {
    /// Runs `work` off the loop; the future completes on `eventLoop`, failing only when the work
    /// could not run (the pool is shut down: the daemon is stopping).
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value, completingOn eventLoop: EventLoop) -> EventLoopFuture<Value>
}

/// Runs the work at once, on the caller's thread: for a loop that no other thread may touch.
package struct InPlace: BackgroundWork {
    package init() {}

    package func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value, completingOn eventLoop: EventLoop) -> EventLoopFuture<Value> {
        eventLoop.makeSucceededFuture(work())
    }
}
