import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import ScrollConfig
import ScrollInput
import ScrollModel
#if canImport(Glibc)
import Glibc
#endif

/// Real input: a libinput context on its own thread, which sleeps in poll(2) on libinput's fd
/// (and an eventfd to be woken for shutdown), dispatches the moment the fd is readable, and
/// hands each batch of events to the daemon's event loop. libinput contexts are not
/// thread-safe, so the context never leaves this thread.
final class LibinputSource: Sendable {
    let backend: LibinputContext.Backend
    let logger: Logger
    /// A pipe whose read end wakes the thread's poll(2) for shutdown.
    let wake: (read: Int32, write: Int32)
    let devices = NIOLockedValueBox<[InputDevice]>([])
    /// Ordering with frames: a frame must never run before input the kernel has already
    /// stamped with an earlier time, or live states would differ from a replay of the same
    /// events. `inFlight` counts batches being read or on their way to the loop; the loop
    /// defers a frame while it is non-zero or libinput's fd is readable, and `deferred` tells
    /// this thread to wake the loop again when a read produced nothing to deliver.
    let inFlight = NIOLockedValueBox<Int>(0)
    let deferred = NIOLockedValueBox<Bool>(false)
    let libinputFD = NIOLockedValueBox<Int32>(-1)
    /// `[input]` from the configuration in force; replaced on reload.
    let settings: NIOLockedValueBox<InputSettings>
    let problem = NIOLockedValueBox<String?>(nil)

    init(backend: LibinputContext.Backend, settings: InputSettings, logger: Logger) {
        self.backend = backend
        self.logger = logger
        self.settings = NIOLockedValueBox(settings)
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = (fds[0], fds[1])
    }

    /// Starts the thread; `ready` is called (on the loop) once the initial devices are known.
    func start(core: NIOLoopBound<DaemonCore>, ready: @escaping @Sendable (_ usable: Int, _ problem: String?) -> Void) {
        let thread = Thread { [self] in self.run(core: core, ready: ready) }
        thread.name = "scrolld-input"
        thread.start()
    }

    func stop() {
        var byte = Self.stopRequest
        _ = write(wake.write, &byte, 1)
    }

    /// Puts new `[input]` settings in force on every present device (on the input thread).
    func update(_ new: InputSettings) {
        settings.withLockedValue { $0 = new }
        var byte = Self.reapplyRequest
        _ = write(wake.write, &byte, 1)
    }

    /// Whether input may be waiting that is older than now; if so, remembers to wake the loop
    /// once it has been read (called on the loop before running a frame).
    func hasPendingInput() -> Bool {
        if inFlight.withLockedValue({ $0 }) > 0 || isReadable(libinputFD.withLockedValue { $0 }) {
            deferred.withLockedValue { $0 = true }
            return true
        }
        return false
    }

    private func isReadable(_ fd: Int32) -> Bool {
        guard fd >= 0 else { return false }
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&pfd, 1, 0) > 0
    }

    static let stopRequest: UInt8 = 1
    static let reapplyRequest: UInt8 = 2

    private func run(core: NIOLoopBound<DaemonCore>, ready: @escaping @Sendable (Int, String?) -> Void) {
        let loop = core.eventLoop
        let settings = self.settings
        let context: LibinputContext
        do {
            let logger = self.logger
            context = try LibinputContext(
                backend,
                settings: { name in settings.withLockedValue { $0 }.libinputSettings(forDevice: name) },
                onDiagnostic: { message in logger.warning("\(message)") }
            )
        } catch {
            let message = "\(error)"
            problem.withLockedValue { $0 = message }
            loop.execute { ready(0, message) }
            return
        }
        let logger = self.logger

        libinputFD.withLockedValue { $0 = context.fileDescriptor }
        inFlight.withLockedValue { $0 += 1 }
        deliver(context, to: core)
        let usable = context.devices.count
        let permission = context.permissionProblem
        problem.withLockedValue { $0 = permission }
        loop.execute { ready(usable, permission) }

        var fds = [pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let result = poll(&fds, 2, -1)
            if result < 0 {
                if errno == EINTR { continue }
                logger.error("input: poll failed: \(String(cString: strerror(errno)))")
                return
            }
            if fds[1].revents != 0 {
                var request: UInt8 = 0
                _ = read(wake.read, &request, 1)
                if request == Self.reapplyRequest {
                    context.reapplySettings()
                } else {
                    return
                }
            }
            if fds[0].revents != 0 {
                // Counted before reading, so the loop never sees "nothing readable, nothing on
                // the way" while events are between the kernel and the engine.
                inFlight.withLockedValue { $0 += 1 }
                context.dispatch()
                deliver(context, to: core)
            }
        }
    }

    /// Hands what libinput has to the loop, and ends one `inFlight` count there.
    private func deliver(_ context: LibinputContext, to core: NIOLoopBound<DaemonCore>) {
        var batch: [ScrollEvent] = []
        var devicesChanged = false
        while let event = context.nextEvent() {
            if !event.isInput { devicesChanged = true }
            batch.append(event)
        }
        if devicesChanged {
            let snapshot = context.devices.values.sorted { $0.id < $1.id }
            devices.withLockedValue { $0 = snapshot }
        }
        let inFlight = self.inFlight, deferred = self.deferred
        guard !batch.isEmpty else {
            inFlight.withLockedValue { $0 -= 1 }
            // A deferred frame waited for this read, which brought nothing: let it run now.
            if deferred.withLockedValue({ let was = $0; $0 = false; return was }) {
                core.eventLoop.execute { core.value.reschedule() }
            }
            return
        }
        core.eventLoop.execute {
            for event in batch { core.value.input(event) }
            inFlight.withLockedValue { $0 -= 1 }
            deferred.withLockedValue { $0 = false }
            if devicesChanged { core.value.onStatusChange() }
        }
    }
}
