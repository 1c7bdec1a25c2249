import NIOCore
import NIOPosix
import ScrollDaemon

/// The daemon's background work on a thread pool of its own: one thread, idle in the kernel
/// until a reload reads and parses the configuration file.
struct ThreadPoolWork: BackgroundWork {
    let pool: NIOThreadPool

    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value, completingOn eventLoop: EventLoop) -> EventLoopFuture<Value> {
        pool.runIfActive(eventLoop: eventLoop, work)
    }
}
