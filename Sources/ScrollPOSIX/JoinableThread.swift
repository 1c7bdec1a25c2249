#if canImport(Glibc)
import Glibc
#endif

/// A named POSIX thread whose end can be waited for: a desktop settings watcher runs its loop on
/// one, and its `stop()` returns only once that loop has ended, so no call to its sink follows.
public struct JoinableThread: Sendable {
    private let thread: pthread_t

    private final class Body {
        let name: String
        let run: () -> Void
        init(name: String, _ run: @escaping () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept, the kernel's limit);
    /// throws when the system makes no thread (then `body` never runs).
    public init(name: String, _ body: @escaping @Sendable () -> Void) throws(ThreadStartError) {
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, Self.threadMain, context)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            throw ThreadStartError(code: result)
        }
        self.thread = thread
    }

    /// Starts `body` on a new thread and waits until it calls `started` (exactly once, before it
    /// returns) with how its start went: a watcher's thread sets up what is bound to it (a main
    /// context, a bus connection), reports, then runs its loop while the caller goes on.
    public static func start<Outcome: Sendable>(
        name: String,
        _ body: @escaping @Sendable (_ started: (Outcome) -> Void) -> Void
    ) throws(ThreadStartError) -> (thread: JoinableThread, outcome: Outcome) {
        let handshake = Handshake<Outcome>()
        let thread = try JoinableThread(name: name) {
            body { handshake.report($0) }
            precondition(handshake.reported, "\(name) ended without reporting its start")
        }
        return (thread, handshake.wait())
    }

    /// Waits for the thread's body to return; once only.
    public func join() {
        pthread_join(thread, nil)
    }

    private static let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
        DetachedThread.nameCurrentThread(body.name)
        body.run()
        return nil
    }
}

/// `pthread_create` failed (no memory, the process's or the user's thread limit): `code` is
/// its error number.
public struct ThreadStartError: Error, CustomStringConvertible {
    public var code: Int32

    public var description: String { "pthread_create: \(String(cString: strerror(code)))" }
}

/// One value handed from a new thread to the thread that started it, through a POSIX semaphore
/// (whose post and wait order the value's write before its read).
private final class Handshake<Outcome: Sendable>: @unchecked Sendable {
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
    private var outcome: Outcome?
    private(set) var reported = false

    init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func report(_ outcome: Outcome) {
        precondition(!reported, "a thread's start reported twice")
        self.outcome = outcome
        reported = true
        sem_post(semaphore)
    }

    func wait() -> Outcome {
        while sem_wait(semaphore) != 0 {}
        return outcome!
    }
}
