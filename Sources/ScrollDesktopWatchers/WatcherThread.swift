#if canImport(Glibc)
import Glibc
#endif
import ScrollPOSIX

/// A joinable thread (``JoinableThread``) that blocks in `poll(2)` on its descriptors and a
/// wake-up pipe, with no timeout: it uses no CPU until the kernel has something for it. `stop()`
/// writes to the pipe and joins the thread, so nothing it does follows the return.
final class WatcherThread: @unchecked Sendable {
    private let name: String
    private var thread: JoinableThread?
    private let wake: (read: Int32, write: Int32)
    private let body: @Sendable (_ wakeFD: Int32) -> Void

    /// A thread named `name` that will run `body`, which must return once `wakeFD` is readable.
    init(name: String, _ body: @escaping @Sendable (_ wakeFD: Int32) -> Void) throws(WatcherError) {
        var fds: [Int32] = [-1, -1]
        // (Glibc's module has no pipe2.)
        guard pipe(&fds) == 0 else { throw WatcherError("pipe", errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = (fds[0], fds[1])
        self.name = name
        self.body = body
    }

    /// A started thread named `name` that watches `fd` with `body` and closes it when `body`
    /// returns; `fd` is closed at once when the thread cannot start.
    static func start(name: String, owning fd: Int32, _ body: @escaping @Sendable (_ wakeFD: Int32) -> Void) throws(WatcherError) -> WatcherThread {
        do {
            let thread = try WatcherThread(name: name) { wakeFD in
                defer { close(fd) }
                body(wakeFD)
            }
            try thread.start()
            return thread
        } catch {
            close(fd)
            throw error
        }
    }

    func start() throws(WatcherError) {
        let (body, wakeFD) = (self.body, wake.read)
        do {
            thread = try JoinableThread(name: name) { body(wakeFD) }
        } catch {
            close(wake.read)
            close(wake.write)
            throw WatcherError("pthread_create", error.code)
        }
    }

    /// Wakes the thread and waits for it to end.
    func stop() {
        guard let thread else { return }
        self.thread = nil
        var byte: UInt8 = 1
        _ = write(wake.write, &byte, 1)
        thread.join()
        close(wake.read)
        close(wake.write)
    }

    /// Blocks until one of `fds` or the wake-up pipe is readable; returns the readable ones
    /// of `fds`, or nil once woken to stop.
    static func wait(for fds: [Int32], wakeFD: Int32) -> [Int32]? {
        var polled = ([wakeFD] + fds).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let count = poll(&polled, nfds_t(polled.count), -1)
            if count < 0 && errno == EINTR { continue }
            guard count > 0, polled[0].revents == 0 else { return nil }
            return polled.dropFirst().filter { $0.revents != 0 }.map(\.fd)
        }
    }
}

/// A system call that failed, with its errno.
public struct WatcherError: Error, CustomStringConvertible {
    public var description: String

    init(_ call: String, _ code: Int32) {
        description = "\(call): \(String(cString: strerror(code)))"
    }

    init(_ message: String) {
        description = message
    }
}
