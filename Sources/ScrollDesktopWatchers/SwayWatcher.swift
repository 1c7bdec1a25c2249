#if canImport(Glibc)
import Glibc
#endif
import ScrollDesktop

/// sway's settings (docs/design.md §23) through its IPC socket (`$SWAYSOCK`): `GET_INPUTS` at
/// start, then a subscription to `input` events; after each event the inputs are asked for
/// again (on a connection of their own: the subscribed one carries events).
public final class SwayWatcher: DesktopSettingsWatcher, @unchecked Sendable {
    public let desktop = Desktop.sway
    private let socketPath: String?
    private var thread: WatcherThread?

    /// Talks to the socket at `socketPath` (`$SWAYSOCK`; nil: sway is not running here).
    public init(socketPath: String?) {
        self.socketPath = socketPath
    }

    public func start(delivering sink: any DesktopSettingsSink) throws -> String? {
        guard let path = socketPath, !path.isEmpty else { return nil }
        sink.desktopSettingsChanged(try Self.inputs(at: path))
        let fd = try Self.connect(path)
        do {
            try Self.send(fd, SwayIPC.message(SwayIPC.subscribe, #"["input"]"#))
            let reply = try Self.receive(fd)
            guard String(decoding: reply.payload, as: UTF8.self).contains("true") else {
                throw WatcherError("sway refused the subscription to input events")
            }
        } catch {
            close(fd)
            throw error
        }
        thread = try WatcherThread.start(name: "scrolld-sway", owning: fd) { wakeFD in
            while let ready = WatcherThread.wait(for: [fd], wakeFD: wakeFD), !ready.isEmpty {
                // sway gone (or a message that is not i3-ipc): stop following it.
                guard let event = try? Self.receive(fd), event.type & SwayIPC.eventBit != 0 else { return }
                if let settings = try? Self.inputs(at: path) { sink.desktopSettingsChanged(settings) }
            }
        }
        return "sway's IPC at \(path), subscribed to input events"
    }

    public func stop() {
        thread?.stop()
        thread = nil
    }

    /// `GET_INPUTS` on a connection of its own.
    static func inputs(at path: String) throws(WatcherError) -> DesktopSettings {
        let fd = try connect(path)
        defer { close(fd) }
        try send(fd, SwayIPC.message(SwayIPC.getInputs))
        let reply = try receive(fd)
        do {
            return try SwayInputs.settings(getInputsReply: reply.payload)
        } catch {
            throw WatcherError("sway's GET_INPUTS reply: \(error.message)")
        }
    }

    static func connect(_ path: String) throws(WatcherError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WatcherError("socket", errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw WatcherError("the sway socket's path is too long: \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw WatcherError("connect \(path)", code)
        }
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) throws(WatcherError) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw WatcherError("send to sway", errno) }
            sent += count
        }
    }

    /// One whole message (blocking: sway writes a message at once).
    static func receive(_ fd: Int32) throws(WatcherError) -> (type: UInt32, payload: [UInt8]) {
        guard let header = SwayIPC.header(try read(fd, SwayIPC.headerLength)) else {
            throw WatcherError("sway sent something that is not an i3-ipc message")
        }
        return (header.type, try read(fd, header.length))
    }

    private static func read(_ fd: Int32, _ length: Int) throws(WatcherError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let count = bytes[done...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw WatcherError(count == 0 ? "sway closed its socket" : "recv from sway: \(String(cString: strerror(errno)))") }
            done += count
        }
        return bytes
    }
}
