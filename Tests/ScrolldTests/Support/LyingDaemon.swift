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
        let listener = try RawSocket.bound(directory + "/s.sock", type: SOCK_STREAM)
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
}
