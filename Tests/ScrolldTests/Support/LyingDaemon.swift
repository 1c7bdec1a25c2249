import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A socket that welcomes one client as scrolld would, then answers its first line with
/// `reply`, and holds the connection until the client goes.
final class LyingDaemon: @unchecked Sendable {
    let directory = "/tmp/lie-\(UUID().uuidString.prefix(8))"
    var path: String { directory + "/s.sock" }
    private let listener: Int32

    init(reply: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let listener = try Self.listening(at: directory + "/s.sock")
        self.listener = listener
        Thread.detachNewThread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            defer { Glibc.close(client) }
            let welcome = #"{"type":"welcome","protocol":1,"server":"scrolld 0.1.0","containers":["main"]}"# + "\n"
            _ = RawSocket.send(client, welcome)
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) == 1 && byte != UInt8(ascii: "\n") {}
            _ = RawSocket.send(client, reply + "\n")
            while recv(client, &byte, 1, 0) == 1 {}
        }
    }

    func close() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A Unix stream socket bound to `path` and listening, nothing accepted yet.
    static func listening(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0 && listen(fd, 8) == 0)
        return fd
    }
}
