import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for systemd's notify socket and its file descriptor store that reads nothing until
/// asked: a frozen service manager, whose receive queue fills after
/// `net.unix.max_dgram_qlen` datagrams, and then one that reads everything. What it reads it
/// applies as systemd does — `FDSTORE=1` keeps each descriptor under its `FDNAME`,
/// `FDSTOREREMOVE=1` closes those of that name — and it notes what systemd would not take: a
/// remove of a name it does not hold (sent before its store, or for a store never sent), a
/// store of a name it holds already, a store without exactly one descriptor.
final class HeldNotifySocket {
    let path: String
    private(set) var fd: Int32
    /// The descriptors held, by name.
    private(set) var store: [String: [Int32]] = [:]
    /// Every message read, in order, one line each.
    private(set) var messages: [String] = []
    private(set) var problems: [String] = []
    private let control = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: MemoryLayout<Int>.alignment)

    /// How many datagrams a Unix datagram socket's receive queue holds before a sender waits.
    static var queueLength: Int {
        Int(procFile("/proc/sys/net/unix/max_dgram_qlen")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 512
    }

    init() throws {
        path = "/tmp/sd-held-\(UUID().uuidString.prefix(8))"
        fd = try RawSocket.bound(path, type: SOCK_DGRAM)
    }

    deinit {
        close()
        control.deallocate()
    }

    /// The names held.
    var names: Set<String> { Set(store.keys) }

    /// Reads and applies messages, waiting for each up to `timeout` seconds, until `condition`
    /// holds; whether it came to hold.
    @discardableResult
    func read(timeout: Double = 60, until condition: (HeldNotifySocket) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&descriptor, 1, Int32(min(left, 1) * 1000)) > 0 { receive() }
        }
        return true
    }

    /// Reads one datagram and applies it.
    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var descriptors: [Int32] = []
        let length = buffer.withUnsafeMutableBytes { payload -> Int in
            var vector = iovec(iov_base: payload.baseAddress, iov_len: payload.count)
            return withUnsafeMutablePointer(to: &vector) { vector in
                var header = msghdr()
                header.msg_iov = vector
                header.msg_iovlen = 1
                header.msg_control = control
                header.msg_controllen = 512
                let length = recvmsg(fd, &header, Int32(MSG_DONTWAIT) | Int32(MSG_CMSG_CLOEXEC))
                if length >= 0 { descriptors = Self.rights(in: control, length: header.msg_controllen) }
                return length
            }
        }
        guard length >= 0 else { return }
        apply(String(decoding: buffer[..<length], as: UTF8.self), descriptors)
    }

    /// The descriptors of the `SCM_RIGHTS` messages in a control buffer.
    private static func rights(in control: UnsafeMutableRawPointer, length: Int) -> [Int32] {
        let word = MemoryLayout<Int>.size
        let header = word + 8
        var offset = 0
        var found: [Int32] = []
        while offset + header <= length {
            let size = control.load(fromByteOffset: offset, as: Int.self)
            guard size >= header else { break }
            let level = control.load(fromByteOffset: offset + word, as: Int32.self)
            let type = control.load(fromByteOffset: offset + word + 4, as: Int32.self)
            if level == SOL_SOCKET, type == Int32(SCM_RIGHTS) {
                for index in 0..<(size - header) / 4 {
                    found.append(control.load(fromByteOffset: offset + header + 4 * index, as: Int32.self))
                }
            }
            offset += (size + word - 1) & ~(word - 1)
        }
        return found
    }

    private func apply(_ message: String, _ descriptors: [Int32]) {
        messages.append(message.replacingOccurrences(of: "\n", with: " "))
        var fields: [String: String] = [:]
        for line in message.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        let name = fields["FDNAME"] ?? "stored"
        if fields["FDSTORE"] == "1" {
            if descriptors.count != 1 { problems.append("\(message): \(descriptors.count) descriptors") }
            if store[name] != nil { problems.append("\(name) stored while it was held already") }
            store[name, default: []] += descriptors
            return
        }
        for descriptor in descriptors { Glibc.close(descriptor) }
        if fields["FDSTOREREMOVE"] == "1" {
            guard let held = store.removeValue(forKey: name) else {
                problems.append("\(name) removed while it was not held (message \(messages.count))")
                return
            }
            for descriptor in held { Glibc.close(descriptor) }
        }
    }

    /// Closes the socket and every descriptor held.
    func close() {
        for descriptor in store.values.joined() { Glibc.close(descriptor) }
        store = [:]
        guard fd >= 0 else { return }
        Glibc.close(fd)
        unlink(path)
        fd = -1
    }
}
