import ScrollDaemon
import Logging
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Reloads the configuration when its file changes (DESIGN §8), by inotify on the file's
/// directory: editors save by writing in place or by renaming a new file over the old one, and
/// a directory watch sees both. The inotify fd is an ordinary readable fd, so NIO's pipe
/// channel puts it on the daemon's event loop like any socket — no thread, no polling.
final class ConfigurationWatcher: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let fileName: String
    let core: DaemonCore
    var debounce: Scheduled<Void>?

    init(fileName: String, core: DaemonCore) {
        self.fileName = fileName
        self.core = core
    }

    /// Starts watching `path`; nil (with a log line) when inotify is unavailable.
    static func start(path: String, core: NIOLoopBound<DaemonCore>, logger: Logger) -> Channel? {
        // Only a regular file is worth watching: `--config /dev/null` must not reload every time
        // some process writes to /dev/null.
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = String(path.split(separator: "/").last ?? "")
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else {
            logger.warning("not watching \(path) for changes: inotify: \(String(cString: strerror(errno)))")
            return nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        guard inotify_add_watch(fd, directory.isEmpty ? "." : directory, mask) >= 0 else {
            logger.warning("not watching \(path) for changes: \(String(cString: strerror(errno)))")
            close(fd)
            return nil
        }
        do {
            return try NIOPipeBootstrap(group: core.eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ConfigurationWatcher(fileName: name, core: core.value))
                    }
                }
                .takingOwnershipOfDescriptor(input: fd)
                .wait()
        } catch {
            logger.warning("not watching \(path) for changes: \(error)")
            close(fd)
            return nil
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard InotifyEvent.parse(&buffer).contains(where: { $0.name == fileName }) else { return }
        // A save is often several events (truncate, write, close, rename): reload once after
        // they settle.
        debounce?.cancel()
        let core = self.core
        debounce = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(150)) {
            let result = core.reload()
            if result.ok {
                core.logger.notice("configuration file changed; reloaded: \(result.message)")
            } else {
                core.logger.error("configuration file changed but is not valid; keeping the last good configuration: \(result.message)")
            }
        }
    }
}
