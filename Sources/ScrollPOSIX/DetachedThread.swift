#if canImport(Glibc)
import Glibc
#endif

/// A named, detached POSIX thread running one closure: all the daemon (its input thread) and
/// ScrollClient (its reader) need of Foundation's `Thread`, without linking Foundation.
public enum DetachedThread {
    private final class Body {
        let name: String
        let run: @Sendable () -> Void
        init(name: String, _ run: @escaping @Sendable () -> Void) {
            self.name = name
            self.run = run
        }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept, the kernel's limit).
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body(name: name, body)).toOpaque()
        let result = spawn(context)
        // Without its thread the caller cannot work (no input, no replies): nothing sensible is left.
        precondition(result == 0, "pthread_create: error \(result)")
    }

    private static func spawn(_ context: UnsafeMutableRawPointer) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, threadMain, context)
        pthread_attr_destroy(&attributes)
        return result
    }

    private static let threadMain: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
        let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
        nameCurrentThread(body.name)
        body.run()
        return nil
    }

    /// What `pthread_setname_np` does (Glibc's module does not export it): the name shows in
    /// `top -H`, `ps -L` and core dumps.
    static func nameCurrentThread(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
