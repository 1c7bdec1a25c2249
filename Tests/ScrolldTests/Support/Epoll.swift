import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// epoll(7) for the tests. Glibc's module map does not export <sys/epoll.h> and the test target
/// has no C module of its own, so the three calls are looked up in libc with dlsym and called
/// through C function pointers (the C calling convention, unlike `@_silgen_name`).
struct Epoll: ~Copyable {
    private typealias Create1 = @convention(c) (Int32) -> Int32
    private typealias Control = @convention(c) (Int32, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
    private typealias Wait = @convention(c) (Int32, UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private static func symbol<T>(_ name: String, as type: T.Type) -> T {
        guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("dlsym(\(name)): \(String(cString: dlerror()))") }
        return unsafeBitCast(address, to: type)
    }

    private static let create1 = symbol("epoll_create1", as: Create1.self)
    private static let control = symbol("epoll_ctl", as: Control.self)
    private static let wait = symbol("epoll_wait", as: Wait.self)

    // <sys/epoll.h>: struct epoll_event { uint32_t events; epoll_data_t data; }, packed on x86-64.
    #if arch(x86_64)
    static let eventSize = 12, dataOffset = 4
    #else
    static let eventSize = 16, dataOffset = 8
    #endif
    static let readable: UInt32 = 0x001  // EPOLLIN
    static let peerClosed: UInt32 = 0x2000  // EPOLLRDHUP

    let fd: Int32
    /// Room for `capacity` events per wait: the descriptors ready at one wait are all reported
    /// (level-triggered, so a descriptor left out would only come back in the next wait).
    private let events: UnsafeMutableRawBufferPointer
    let capacity: Int

    init(capacity: Int) {
        fd = Self.create1(Int32(O_CLOEXEC))
        precondition(fd >= 0, "epoll_create1: \(String(cString: strerror(errno)))")
        self.capacity = capacity
        events = .allocate(byteCount: max(1, capacity) * Self.eventSize, alignment: 8)
    }

    deinit {
        events.deallocate()
        close(fd)
    }

    /// Watches `descriptor` for input (level-triggered); `token` comes back with its events.
    func add(_ descriptor: Int32, token: UInt64) {
        var event = [UInt8](repeating: 0, count: Self.eventSize)
        event.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: Self.readable | Self.peerClosed, toByteOffset: 0, as: UInt32.self)
            raw.storeBytes(of: token, toByteOffset: Self.dataOffset, as: UInt64.self)
            precondition(Self.control(fd, 1 /* EPOLL_CTL_ADD */, descriptor, raw.baseAddress) == 0, "epoll_ctl: \(String(cString: strerror(errno)))")
        }
    }

    func remove(_ descriptor: Int32) {
        _ = Self.control(fd, 2 /* EPOLL_CTL_DEL */, descriptor, nil)
    }

    /// Waits up to `timeout` ms; calls `body` with each ready descriptor's token and events.
    /// Returns how many were ready (0 on a timeout or EINTR).
    @discardableResult
    func wait(timeout: Int32, _ body: (UInt64, UInt32) -> Void) -> Int {
        let ready = Self.wait(fd, events.baseAddress, Int32(capacity), timeout)
        if ready < 0 {
            precondition(errno == EINTR, "epoll_wait: \(String(cString: strerror(errno)))")
            return 0
        }
        for i in 0..<Int(ready) {
            let flags = events.loadUnaligned(fromByteOffset: i * Self.eventSize, as: UInt32.self)
            let token = events.loadUnaligned(fromByteOffset: i * Self.eventSize + Self.dataOffset, as: UInt64.self)
            body(token, flags)
        }
        return Int(ready)
    }
}
