#if canImport(Glibc)
import Glibc
#endif

/// The write end of the self-pipe, for the async-signal-safe handler.
nonisolated(unsafe) private var signalSelfPipeWriteEnd: Int32 = -1

/// Turns signals into bytes on a pipe, so a process that sleeps in poll(2) or epoll sees them
/// as ordinary readable input: the handler only writes the signal's number.
enum SignalSelfPipe {
    struct SetupError: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { "cannot create the signal pipe: \(String(cString: strerror(errno)))" }
    }

    /// Installs handlers for `signals` (unblocking them: a parent may have left them blocked,
    /// and a blocked SIGTERM would stay pending forever) and returns the pipe's read end.
    static func install(_ signals: [Int32]) throws -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw SetupError(errno: errno) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(fds[1], F_SETFL, O_NONBLOCK)
        signalSelfPipeWriteEnd = fds[1]
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                // The handler interrupts code that may be about to read errno: what write(2)
                // or sched_setscheduler(2) set here must not reach it.
                let savedErrno = errno
                defer { errno = savedErrno }
                // SIGXCPU: a real-time thread ran too long without sleeping. Leaving real time
                // cannot wait for the loop, which may be the thread that does not sleep.
                if number == SIGXCPU { RealtimeScheduling.dropToNormalPriority() }
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalSelfPipeWriteEnd, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
            sigaddset(&unblock, number)
        }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        return fds[0]
    }
}
