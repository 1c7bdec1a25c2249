import ScrollDaemon
import Logging
import NIOCore
import NIOPosix
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Reloads the configuration when its file changes (docs/design.md §8), by inotify on the file's
/// directory: editors save by writing in place or by renaming a new file over the old one, and
/// a directory watch sees both. The inotify fd is an ordinary readable fd, so NIO's pipe
/// channel puts it on the daemon's event loop like any socket — no thread, no polling.
/// A configuration that is a symbolic link (a dotfile manager's) is watched where it points too:
/// an edit there changes no entry of the link's directory.
final class ConfigurationWatcher: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    /// The names whose change means the configuration changed (the file's, and its target's).
    let fileNames: Set<String>
    let core: DaemonCore
    var debounce: Scheduled<Void>?

    init(fileNames: Set<String>, core: DaemonCore) {
        self.fileNames = fileNames
        self.core = core
    }

    /// Starts watching `path`; nil (with a log line) when inotify is unavailable.
    static func start(path: String, core: NIOLoopBound<DaemonCore>, logger: Logger) -> Channel? {
        // Only a regular file is worth watching: `--config /dev/null` must not reload every time
        // some process writes to /dev/null.
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var watched = [Self.split(path)]
        var link = stat()
        if lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK, let resolved = realpath(path, nil) {
            watched.append(Self.split(String(cString: resolved)))
            free(resolved)
        }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else {
            logger.warning("not watching \(path) for changes: inotify: \(String(cString: strerror(errno)))")
            return nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE)
        for (directory, _) in watched where inotify_add_watch(fd, directory, mask) < 0 {
            logger.warning("not watching \(path) for changes: \(directory): \(String(cString: strerror(errno)))")
            close(fd)
            return nil
        }
        let names = Set(watched.map(\.name))
        do {
            return try NIOPipeBootstrap(group: core.eventLoop)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ConfigurationWatcher(fileNames: names, core: core.value))
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

    /// A path's directory (`.` for none) and last component.
    static func split(_ path: String) -> (directory: String, name: String) {
        let file = FilePath(path)
        let directory = file.removingLastComponent()
        return (directory.isEmpty ? "." : directory.string, file.lastComponent?.string ?? "")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        guard InotifyEvent.parse(&buffer).contains(where: { fileNames.contains($0.name) }) else { return }
        // A save is often several events (truncate, write, close, rename): reload once after
        // they settle.
        debounce?.cancel()
        let core = self.core
        debounce = context.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(150)) {
            let logger = core.logger
            core.reload().whenSuccess { result in
                if result.ok {
                    logger.notice("configuration file changed; reloaded: \(result.message)")
                } else {
                    logger.error("configuration file changed but is not valid; keeping the last good configuration: \(result.message)")
                }
            }
        }
    }
}
