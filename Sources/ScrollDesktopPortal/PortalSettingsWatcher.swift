import CSystemd
import ScrollDesktop
import ScrollPOSIX
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The XDG desktop portal's Settings (docs/design.md §23): `reduced-motion` in the
/// `org.freedesktop.appearance` namespace (0: no preference, 1: reduce), read with `ReadOne` (or
/// the older `Read`) and followed through its `SettingChanged` signal, over sd-bus on the
/// session bus.
///
/// A thread of its own owns the connection (sd-bus connections are not thread-safe) and sleeps
/// in poll(2) on it and on a pipe `stop()` writes: no timeout, no polling.
public final class PortalSettingsWatcher: DesktopSettingsWatcher {
    public let desktop = Desktop.portal

    static let service = "org.freedesktop.portal.Desktop"
    static let path = "/org/freedesktop/portal/desktop"
    static let interface = "org.freedesktop.portal.Settings"
    static let namespace = "org.freedesktop.appearance"
    static let key = "reduced-motion"

    private struct Running: Sendable {
        let thread: JoinableThread
        /// The pipe `stop()` writes to wake the thread: read end, write end.
        let wake: (read: Int32, write: Int32)
    }

    private let running = Mutex<Running?>(nil)
    private let absenceReason = Mutex<String?>(nil)
    /// Why the last `start` found no portal setting here, for the log; nil after one that did.
    public var absence: String? { absenceReason.withLock { $0 } }

    /// The bus the portal is looked for on: the user's session bus (nil), or another one's
    /// address (`unix:path=…`), as a test's private session bus.
    private let busAddress: String?

    public init(busAddress: String? = nil) {
        self.busAddress = busAddress
    }

    deinit { stop() }

    public func start(delivering sink: any DesktopSettingsSink) throws -> String? {
        stop()
        let wake = try Self.wakePipe()
        let address = busAddress
        let thread: JoinableThread
        let outcome: Result<String, PortalConnection.Absent>
        do {
            (thread, outcome) = try JoinableThread.start(name: "scrolld-portal") { (started: (Result<String, PortalConnection.Absent>) -> Void) in
                Self.watch(on: address, delivering: sink, wake: wake.read, started: started)
            }
        } catch {
            close(wake.read)
            close(wake.write)
            throw error
        }
        switch outcome {
        case .success(let found):
            running.withLock { $0 = Running(thread: thread, wake: wake) }
            absenceReason.withLock { $0 = nil }
            return found
        case .failure(let absent):
            thread.join()
            close(wake.read)
            close(wake.write)
            absenceReason.withLock { $0 = absent.description }
            return nil
        }
    }

    public func stop() {
        guard let running = running.withLock({ state -> Running? in defer { state = nil }; return state }) else { return }
        var byte: UInt8 = 1
        _ = write(running.wake.write, &byte, 1)
        running.thread.join()
        close(running.wake.read)
        close(running.wake.write)
    }

    /// A pipe, both ends close-on-exec (the daemon starts no process, but a library might).
    private static func wakePipe() throws(WatchFailed) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw WatchFailed(description: "pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    public struct WatchFailed: Error, CustomStringConvertible {
        public let description: String
    }

    /// The watcher's thread: connects, subscribes, reads, reports how that went, delivers the
    /// first settings, then dispatches signals until `wake` is written or the bus goes away.
    private static func watch(
        on address: String?, delivering sink: any DesktopSettingsSink, wake: Int32,
        started: (Result<String, PortalConnection.Absent>) -> Void
    ) {
        let connection: PortalConnection
        let reducedMotion: Bool
        do throws(PortalConnection.Absent) {
            connection = try PortalConnection(address: address, onChange: { sink.desktopSettingsChanged(settings(reducedMotion: $0)) })
            reducedMotion = try connection.readReducedMotion()
        } catch {
            started(.failure(error))
            return
        }
        sink.desktopSettingsChanged(settings(reducedMotion: reducedMotion))
        started(.success("the XDG desktop portal's Settings on the session bus (\(namespace) \(key))"))
        connection.run(until: wake)
    }

    static func settings(reducedMotion: Bool) -> DesktopSettings {
        DesktopSettings(desktop: .portal, reducedMotion: reducedMotion)
    }
}
