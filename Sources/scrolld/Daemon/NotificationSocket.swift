import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The service manager's notify socket as ``NotificationSender`` uses it: sd_notify(3)'s protocol
/// (one datagram a message, a descriptor as `SCM_RIGHTS`), which systemd documents as stable for
/// anyone to speak, on one datagram socket connected to `$NOTIFY_SOCKET` and kept (one system
/// call a message, where libsystemd makes a socket for each: three).
///
/// Connected, because only then does the kernel say when the manager's receive queue has room
/// (`poll(2)`'s `POLLOUT` on a connected Unix datagram socket follows its peer's queue). A
/// caller that must not wait (the loop) is told ``Outcome/wouldBlock``; the sender's thread
/// sleeps in `poll` while a frozen manager reads nothing, and the sender can still wake it to
/// give up (``abandon``), which a thread blocked in libsystemd's `sendmsg` could not. The
/// credentials systemd checks (`NotifyAccess=main`) are the process' whichever thread sends.
///
/// An address that is no Unix socket (systemd's `vsock:` forms, for a virtual machine's
/// manager) is left to libsystemd (NotificationSocket+Libsystemd.swift), which may wait: such
/// messages are only ever sent by the sender's thread (``sendsWithoutWaiting``).
///
/// Not thread-safe: used by one thread at a time (``NotificationSender`` says which).
final class NotificationSocket {
    enum Outcome: Equatable {
        case sent
        /// Not sent: `errno` (0: no notify socket is named).
        case failed(Int32)
        /// The manager's queue is full and the caller would not wait.
        case wouldBlock
        /// ``abandon`` was readable while the manager's queue was full.
        case abandoned

        /// Nothing listens at the address: the manager is gone (a test's stand-in closed it).
        var isRefusal: Bool { self == .failed(ECONNREFUSED) || self == .failed(ENOENT) }
    }

    /// Where messages go; nil: libsystemd decides (from `$NOTIFY_SOCKET`).
    private let address: UnixSocketAddress?
    /// Read end of the sender's pipe: readable once it gives up on a manager that reads nothing.
    private let abandon: Int32
    private var connection: Int32 = -1
    /// `SCM_RIGHTS` with one descriptor: the header, then an `int`, each aligned as `size_t`.
    private static let headerSize = (MemoryLayout<Int>.size + 2 * MemoryLayout<Int32>.size + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1)
    private static let controlSpace = headerSize + ((MemoryLayout<Int32>.size + MemoryLayout<Int>.size - 1) & ~(MemoryLayout<Int>.size - 1))
    private let control = UnsafeMutableRawPointer.allocate(byteCount: NotificationSocket.controlSpace, alignment: MemoryLayout<Int>.alignment)

    init(address text: String, abandon: Int32) {
        address = text.hasPrefix("/") || text.hasPrefix("@") ? UnixSocketAddress(path: text) : nil
        self.abandon = abandon
        control.initializeMemory(as: UInt8.self, repeating: 0, count: Self.controlSpace)
        control.storeBytes(of: Self.headerSize + MemoryLayout<Int32>.size, as: Int.self)
        control.storeBytes(of: SOL_SOCKET, toByteOffset: MemoryLayout<Int>.size, as: Int32.self)
        control.storeBytes(of: Int32(SCM_RIGHTS), toByteOffset: MemoryLayout<Int>.size + MemoryLayout<Int32>.size, as: Int32.self)
    }

    deinit {
        if connection >= 0 { close(connection) }
        control.deallocate()
    }

    /// Whether a send can be asked never to wait (``send(_:descriptor:waiting:)`` with
    /// `waiting` false): not when libsystemd sends.
    var sendsWithoutWaiting: Bool { address != nil }

    /// Sends `text` (with `descriptor`, which stays the caller's to close), waiting while the
    /// manager's queue is full (`waiting`) or saying so (``Outcome/wouldBlock``). A manager that
    /// went away since the last message is looked up again once (a socket bound anew at the
    /// address gets it), as libsystemd looks it up for every message.
    func send(_ text: String, descriptor: Int32?, waiting: Bool) -> Outcome {
        guard address != nil else { return sendThroughLibsystemd(text, descriptor: descriptor) }
        var outcome = Outcome.failed(ENOTCONN)
        for _ in 0..<2 {
            if connection < 0, let error = connectSocket() { return .failed(error) }
            outcome = sendConnected(text, descriptor: descriptor, waiting: waiting)
            // The manager's socket closed under the connection: the next look finds out.
            guard outcome == .failed(ECONNREFUSED) || outcome == .failed(ENOTCONN) else { return outcome }
            close(connection)
            connection = -1
        }
        return outcome
    }

    /// Connects a new socket to the address; nil, or `errno`.
    private func connectSocket() -> Int32? {
        guard let address else { return ENOENT }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return errno }
        guard address.withSockAddr({ connect(fd, $0, $1) }) == 0 else {
            let error = errno
            close(fd)
            return error
        }
        connection = fd
        return nil
    }

    private func sendConnected(_ text: String, descriptor: Int32?, waiting: Bool) -> Outcome {
        var bytes = Array(text.utf8)
        while true {
            let sent = bytes.withUnsafeMutableBytes { payload in
                var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
                return withUnsafeMutablePointer(to: &vector) { vector in
                    var header = msghdr()
                    header.msg_iov = vector
                    header.msg_iovlen = 1
                    if let descriptor {
                        control.storeBytes(of: descriptor, toByteOffset: Self.headerSize, as: Int32.self)
                        header.msg_control = control
                        header.msg_controllen = Self.controlSpace
                    }
                    return sendmsg(connection, &header, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
                }
            }
            if sent >= 0 { return .sent }
            switch errno {
            case EINTR: continue
            case EAGAIN:
                guard waiting else { return .wouldBlock }
                if let outcome = waitForRoom() { return outcome }
            case let error: return .failed(error)
            }
        }
    }

    /// Sleeps until the manager's queue has room (nil) or the sender gives up.
    private func waitForRoom() -> Outcome? {
        var descriptors = [pollfd(fd: connection, events: Int16(POLLOUT), revents: 0), pollfd(fd: abandon, events: Int16(POLLIN), revents: 0)]
        while poll(&descriptors, 2, -1) < 0 {
            guard errno == EINTR else { return .failed(errno) }
        }
        return descriptors[1].revents != 0 ? .abandoned : nil
    }
}
