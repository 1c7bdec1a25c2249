import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §16 with the real binary and a stand-in for systemd's side
/// (Tests/e2e/fdstore-manager.py: the listening socket, the notify socket and its file descriptor
/// store, restarts). The real systemd does the same in the e2e guest
/// (RealKernelTests.systemdUnitsInTheGuest).
@Suite("Restart without loss (a stand-in service manager)")
struct RestartWithoutLossTests {
    /// The manager and its commands.
    final class Manager {
        let process = Process()
        let input = Pipe()
        let output = Pipe()
        let directory: String
        private var pending = Data()

        /// `nioWrites`: the daemon runs with `SCROLLD_NIO_WRITES=1`, so no connection has the
        /// fan-out's duplicate and the store is given the descriptor NIO lends.
        init(nioWrites: Bool = false) throws {
            directory = "/tmp/scrolld-fdstore-\(UUID().uuidString.prefix(8))"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [
                Scrolld.packageRoot.appendingPathComponent("Tests/e2e/fdstore-manager.py").path, directory,
                Scrolld.binary.path, "run", "--config", "/dev/null", "--replay", Scrolld.example("demo.scrolllog"), "--socket", directory + "/unused.sock",
                "--record", directory + "/session.scrolllog",
            ]
            if nioWrites {
                process.environment = ProcessInfo.processInfo.environment.merging(["SCROLLD_NIO_WRITES": "1"]) { $1 }
            }
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        var socket: String { directory + "/s.sock" }
        /// What the daemon running now records (each start begins the file anew).
        var recording: String { directory + "/session.scrolllog" }

        /// The next line the manager prints.
        func line() -> String? {
            while true {
                if let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return line
                }
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { return nil }
                pending += data
            }
        }

        /// The daemon started under the manager, and a client connected to it once it listens.
        func firstClient(sourceLocation: SourceLocation = #_sourceLocation) throws -> LineClient {
            #expect(line()?.hasPrefix("started ") == true, sourceLocation: sourceLocation)
            var client: LineClient?
            _ = waitUntil(timeout: 30) {
                client = try? LineClient(path: socket)
                return client != nil
            }
            return try #require(client, sourceLocation: sourceLocation)
        }

        func command(_ text: String) -> String? {
            input.fileHandleForWriting.write(Data((text + "\n").utf8))
            return line()
        }

        var log: String { (try? String(contentsOfFile: directory + "/scrolld.log", encoding: .utf8)) ?? "" }

        /// What the daemon told the manager, one message a line (applied to the store by then).
        var notifications: [Substring] {
            ((try? String(contentsOfFile: directory + "/notify.log", encoding: .utf8)) ?? "").split(separator: "\n")
        }

        /// Expects the store to hold exactly `names` once the manager has applied the messages
        /// `after`, in that order (the store changes when the manager's thread reads the notify
        /// socket, so only what it has applied can be asked for). When not, the test fails with
        /// what the daemon told the manager and what it logged: the evidence to find out why.
        func expectStore(_ names: String, after messages: [String], sourceLocation: SourceLocation = #_sourceLocation) {
            let applied = waitUntil(timeout: 30) {
                var remaining = messages[...]
                for line in notifications where remaining.first.map({ line.hasPrefix($0 + " fds=") }) == true {
                    remaining.removeFirst()
                }
                return remaining.isEmpty
            }
            let expected = "store " + names
            let found = command("store")
            if applied, found == expected { return }
            let what = applied ? "the store holds \(found ?? "nothing (no answer)"), not \(expected)" : "the manager never got \(messages)"
            Issue.record("\(what)\n--- notify.log\n\(notifications.joined(separator: "\n"))\n--- scrolld.log\n\(log)", sourceLocation: sourceLocation)
        }

        func stop() {
            _ = try? input.fileHandleForWriting.write(contentsOf: Data("quit\n".utf8))
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// Run twice: with the fan-out's duplicated sockets (what the store is given then), and with
    /// every write through NIO (the store is given the descriptor NIO lends for the call).
    @Test(arguments: [false, true])
    func connectionsAndTheSessionSurviveSIGKILLAndACorruptStoreIsRefused(nioWrites: Bool) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"))
        let manager = try Manager(nioWrites: nioWrites)
        defer { manager.stop() }
        let app = try manager.firstClient()
        let welcome = try #require(app.read(type: "welcome"))
        #expect((welcome["features"] as? [String])?.contains("restore") == true)
        #expect(app.request(["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 600], "contentSize": ["width": 400, "height": 20000]], id: 1)?["type"] as? String == "ok")
        #expect(app.request(["op": "subscribe", "container": "list"], id: 2)?["type"] as? String == "state")
        let scrolled = app.linesBeforeReply(to: ["op": "scrollTo", "container": "list", "y": 1234.5, "animation": "none"], id: 3)
        let last = try #require(scrolled.before.last { $0["container"] as? String == "list" })
        #expect(last.number("contentOffset", "y") == 1234.5)
        let lastSeq = try #require((last["seq"] as? NSNumber)?.intValue)
        let other = try LineClient(path: manager.socket)
        #expect(other.read(type: "welcome") != nil)
        #expect(other.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        // The store: the memfd and both connections, nothing else.
        manager.expectStore("client-1 client-2 session", after: ["FDSTORE=1 FDNAME=session", "FDSTORE=1 FDNAME=client-2"])

        // SIGKILL: the same connection, never closed, gets list at rest where it was, seq going on.
        let killed = Date()
        #expect(manager.command("kill")?.hasPrefix("started ") == true)
        let restored = try #require(app.read(type: "state", timeout: 60))
        // Measured, not judged: systemd adds RestartSec=1 to this.
        print("restart without loss: list's state \(String(format: "%.3f", Date().timeIntervalSince(killed))) s after SIGKILL (no RestartSec)")
        #expect(restored["container"] as? String == "list")
        #expect(restored.number("contentOffset", "y") == 1234.5)
        #expect(restored["phase"] as? String == "idle")
        #expect((restored["seq"] as? NSNumber)?.intValue == lastSeq + 1)
        #expect(!app.reachedEnd)
        #expect(app.request(["op": "ping"], id: 4)?["type"] as? String == "pong")
        let moved = app.linesBeforeReply(to: ["op": "scrollBy", "container": "list", "dy": 10, "animation": "none"], id: 5).before
        #expect(moved.last?.number("contentOffset", "y") == 1244.5)
        #expect((moved.last?["seq"] as? NSNumber)?.intValue == lastSeq + 2)
        // docs/design.md §17 across the restart: the new process' recording replays what the
        // connection received since it began, seq for seq (the restore is one recorded request).
        // The first state a resumed subscriber gets is the current one, as for a `subscribe`: the
        // restore's state (same seq, offset and phase) sampled when the connection was taken back.
        let replay = try Scrolld.run(["replay", manager.recording, "--container", "list"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let first = try #require(replay.states.first)
        #expect((first["seq"] as? NSNumber)?.intValue == lastSeq + 1)
        #expect(first.number("contentOffset", "y") == 1234.5)
        #expect(first["phase"] as? String == "idle")
        #expect(try #require((first["t"] as? NSNumber)?.int64Value) <= (restored["t"] as? NSNumber)?.int64Value ?? 0)
        let live = moved.filter { $0["container"] as? String == "list" }.map(RecordReplayTests.key)
        #expect(Array(replay.states.dropFirst().prefix(live.count)).map(RecordReplayTests.key) == live)
        #expect(other.request(["op": "ping"], id: 2)?["type"] as? String == "pong")
        let newcomer = try LineClient(path: manager.socket)
        let second = try #require(newcomer.read(type: "welcome"))
        #expect(second["containers"] as? [String] == ["main", "list"])
        #expect(second["instance"] as? String == welcome["instance"] as? String)
        newcomer.close()
        manager.expectStore("client-1 client-2 session", after: ["FDSTORE=1 FDNAME=client-3", "FDSTOREREMOVE=1 FDNAME=client-3"])

        // Garbage in the memfd: refused with a clear line, an empty session, the connections kept.
        #expect(manager.command("corrupt") == "corrupted 1")
        #expect(manager.command("kill")?.hasPrefix("started ") == true)
        let greeted = try #require(app.read(type: "welcome", timeout: 60))
        #expect(greeted["containers"] as? [String] == ["main"])
        #expect(greeted["instance"] as? String != welcome["instance"] as? String)
        #expect(app.request(["op": "get", "container": "list"], id: 6)?["code"] as? String == "unknown_container")
        #expect(other.read(type: "welcome", timeout: 60) != nil)
        _ = waitUntil(timeout: 30) { manager.log.contains("restart: the stored session is refused (not a scrolld session (bad magic))") }
        #expect(manager.log.contains("restart: the stored session is refused (not a scrolld session (bad magic)); starting with an empty session, taking back 2 connections"))
        // The store as it was: the refused memfd is formatted anew and kept using, nothing added.
        manager.expectStore("client-1 client-2 session", after: ["FDSTOREREMOVE=1 FDNAME=client-3", "READY=1 STATUS=2 clients"])
    }

    /// The session's memfd is sealed against shrinking: whoever holds it (systemd, a process of
    /// the user through /proc/PID/fd) cannot cut it short under the daemon's mapping, which
    /// made its next publication a SIGBUS. It still grows (70 containers: more than the 64 slots
    /// it starts with) and what it holds comes back; an empty file in the store is refused,
    /// saying so.
    @Test func theSessionsMemfdCannotBeCutShortAndStillGrows() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"))
        let manager = try Manager()
        defer { manager.stop() }
        let app = try manager.firstClient()
        #expect(app.read(type: "welcome") != nil)
        for index in 0..<70 {
            #expect(app.request(["op": "configure", "container": "c\(index)", "contentSize": ["width": 800, "height": 5000]], id: index)?["type"] as? String == "ok")
        }
        #expect(app.request(["op": "subscribe", "container": "c69"], id: 100)?["type"] as? String == "state")
        #expect(manager.command("truncate") == "refused EPERM")
        let moved = app.linesBeforeReply(to: ["op": "scrollBy", "container": "c69", "dy": 10, "animation": "none"], id: 101)
        #expect(moved.reply?["type"] as? String == "ok")
        #expect(moved.before.last?.number("contentOffset", "y") == 10)

        #expect(manager.command("kill")?.hasPrefix("started ") == true)
        let restored = try #require(app.read(type: "state", timeout: 60))
        #expect(restored["container"] as? String == "c69" && restored.number("contentOffset", "y") == 10)
        #expect(app.request(["op": "get", "container": "c0"], id: 102)?["type"] as? String == "state")

        #expect(manager.command("empty") == "emptied")
        #expect(manager.command("kill")?.hasPrefix("started ") == true)
        #expect(app.read(type: "welcome", timeout: 60) != nil)
        let refusal = "restart: the stored session cannot be read (it is empty); starting with an empty session"
        #expect(waitUntil(timeout: 30) { manager.log.contains(refusal) }, "\(manager.log)")
    }
}
