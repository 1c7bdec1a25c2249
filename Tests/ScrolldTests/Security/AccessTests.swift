import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/security.md, "Access and privacy": who can reach the daemon, and what a client can make it
/// do. (The uid check itself, refused and allowed, is
/// DaemonTests.theSocketIsPrivateAndOtherUidsAreRefused; keyboards never opened is the real-kernel
/// test's.)
@Suite("scrolld: privacy and access", .serialized)
struct AccessTests {
    static func mode(_ path: String) -> (mode: mode_t, uid: uid_t)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_mode, info.st_uid)
    }

    /// A fresh directory in /tmp standing in for $XDG_RUNTIME_DIR (which logind makes 0700).
    static func runtimeDirectory() throws -> String {
        let path = "/tmp/sd-rt-\(UUID().uuidString.prefix(8))"
        guard mkdir(path, 0o700) == 0 else { throw HarnessError("mkdir \(path)") }
        return path
    }

    /// `scrolld run` on the default socket path, under `umask` 000.
    static func runDefault(runtime: String) throws -> (Process, URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "umask 000 && exec \"$0\" run --config /dev/null", Scrolld.binary.path]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime
        environment.removeValue(forKey: "NOTIFY_SOCKET")
        process.environment = environment
        let log = URL(fileURLWithPath: runtime + ".log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: log)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, log)
    }

    @Test func theDefaultSocketIsInAPrivateDirectoryWhateverTheUmask() throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let (daemon, log) = try Self.runDefault(runtime: runtime)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }; try? FileManager.default.removeItem(at: log) }
        let socket = runtime + "/scrolld/scrolld.sock"
        #expect(waitUntil(timeout: 30) { (try? LineClient(path: socket))?.readJSON()?["type"] as? String == "welcome" })
        let directory = try #require(Self.mode(runtime + "/scrolld"))
        #expect(directory.mode == S_IFDIR | 0o700 && directory.uid == getuid(), "mode \(String(directory.mode, radix: 8))")
        let file = try #require(Self.mode(socket))
        #expect(file.mode == S_IFSOCK | 0o600 && file.uid == getuid(), "mode \(String(file.mode, radix: 8))")
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        #expect(Self.mode(socket) == nil)
    }

    @Test func aDefaultDirectoryOpenedUpIsMadePrivateAgainAndOneOfAnotherUidIsRefused() throws {
        let runtime = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let folder = runtime + "/scrolld"
        // Ours but 0777 (by hand, or an old version): back to 0700.
        #expect(mkdir(folder, 0o777) == 0 && chmod(folder, 0o777) == 0)
        let (daemon, log) = try Self.runDefault(runtime: runtime)
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) }; try? FileManager.default.removeItem(at: log) }
        #expect(waitUntil(timeout: 30) { (try? LineClient(path: folder + "/scrolld.sock")) != nil })
        #expect(Self.mode(folder)?.mode == S_IFDIR | 0o700)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()

        // Another uid's: whoever owns it could replace the socket; refused, and said why.
        try #require(getuid() == 0, "needs root to make a directory another uid owns")
        #expect(chown(folder, 65534, 65534) == 0)
        let (refused, refusedLog) = try Self.runDefault(runtime: runtime)
        defer { try? FileManager.default.removeItem(at: refusedLog) }
        refused.waitUntilExit()
        #expect(refused.terminationStatus == 1)
        let message = (try? String(contentsOf: refusedLog, encoding: .utf8)) ?? ""
        #expect(message.contains("cannot use socket path \(folder)/scrolld.sock: \(folder) belongs to uid 65534, not to this daemon's uid 0; remove it"), "\(message)")
    }

    @Test func aChosenSocketDirectoryThatOthersCouldWriteIntoIsRefusedUnlessSticky() throws {
        let base = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let open = base + "/open"
        #expect(mkdir(open, 0o777) == 0 && chmod(open, 0o777) == 0)
        let refused = try Scrolld.run(["run", "--socket", open + "/s.sock", "--config", "/dev/null"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot use socket path \(open)/s.sock: \(open) is writable by other users (mode 0777) and not sticky: anyone could replace the socket"), "\(refused.stderr)")
        #expect(Self.mode(open + "/s.sock") == nil)


        // Sticky like /tmp: nobody else can remove or rename what is ours in it.
        let sticky = base + "/sticky"
        #expect(mkdir(sticky, 0o777) == 0 && chmod(sticky, 0o1777) == 0)
        let daemon = Process()
        daemon.executableURL = Scrolld.binary
        daemon.arguments = ["run", "--socket", sticky + "/s.sock", "--config", "/dev/null"]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer { if daemon.isRunning { kill(daemon.processIdentifier, SIGKILL) } }
        #expect(waitUntil(timeout: 30) { (try? LineClient(path: sticky + "/s.sock"))?.readJSON()?["type"] as? String == "welcome" })
        #expect(Self.mode(sticky + "/s.sock")?.mode == S_IFSOCK | 0o600)
        kill(daemon.processIdentifier, SIGTERM)
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
    }

    @Test(.enabled(if: getuid() == 0, "needs root to make a directory another uid owns"))
    func aChosenSocketDirectoryOfAnotherUidIsRefused() throws {
        let base = try Self.runtimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let theirs = base + "/theirs"
        #expect(mkdir(theirs, 0o755) == 0 && chown(theirs, 65534, 65534) == 0)
        let foreign = try Scrolld.run(["run", "--socket", theirs + "/s.sock", "--config", "/dev/null"])
        #expect(foreign.status == 1)
        #expect(foreign.stderr.contains("\(theirs) belongs to uid 65534; only this uid (0) or root may own the socket's directory"), "\(foreign.stderr)")
        #expect(Self.mode(theirs + "/s.sock") == nil)
    }

    @Test func aRefusedUidIsToldWhyAndNothingItSendsIsActedOn() throws {
        try #require(getuid() == 0, "needs root to act as another uid")
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"))
        let daemon = try DaemonProcess()
        // Only SO_PEERCRED stands between uid 65534 and the daemon.
        chmod(daemon.directory.path, 0o755)
        chmod(daemon.socketPath, 0o666)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
            s.sendall(b'{"op":"configure","container":"intruder","containerSize":{"width":10,"height":10},"id":1}\\n'
                      b'{"op":"scrollTo","container":"main","y":500,"animation":"none","id":2}\\n'
                      b'{"op":"pause","container":"main","id":3}\\n')
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:  # it closed with what was sent still unread
                    break
                if not chunk: break
                data += chunk
            sys.stdout.write(data.decode())
            """
        let intruder = Process()
        intruder.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        intruder.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, daemon.socketPath]
        let out = Pipe()
        intruder.standardOutput = out
        try intruder.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        intruder.waitUntilExit()
        // One line, then the daemon hung up.
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.contains(#""code":"forbidden""#) == true && lines.first?.contains("uid 65534 may not connect") == true, "\(lines)")
        #expect(daemon.stderr.contains("refused a connection: uid 65534 may not connect"), "\(daemon.stderr)")
        // Nothing it sent happened.
        let owner = try LineClient(path: daemon.socketPath)
        #expect(owner.readJSON()?["containers"] as? [String] == ["main"])
        let state = try #require(owner.request(["op": "get", "container": "main"], id: 1))
        #expect(state.y == 0 && state.phase == "idle")
        #expect(owner.request(["op": "get", "container": "intruder"], id: 2)?["code"] as? String == "unknown_container")
        #expect(daemon.stop() == 0)
    }

    /// No operation takes a file path: every string a request carries is a name (a container,
    /// a device), a choice from a fixed list, or an id echoed back. Requests full of paths to
    /// files the test watches make the daemon touch none of them, while its own `reload` shows
    /// that the watch sees the daemon's opens.
    @Test func noRequestMakesTheDaemonReadOrWriteAFileItNames() throws {
        let canary = "/tmp/sd-canary-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: canary + "/d", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: canary) }
        try "canary\n".write(toFile: canary + "/secret", atomically: false, encoding: .utf8)
        let daemon = try DaemonProcess(config: "[containers.main]\ncontainerSize = \"800x600\"\n")

        let watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        try #require(watch >= 0)
        defer { close(watch) }
        // IN_ALL_EVENTS, spelled out (Swift does not import the macro).
        let everything = UInt32(IN_ACCESS | IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_OPEN)
            | UInt32(IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF)
        let canaryWatches: Set<Int32> = [inotify_add_watch(watch, canary, everything), inotify_add_watch(watch, canary + "/d", everything)]
        let configWatch = inotify_add_watch(watch, daemon.configPath, UInt32(IN_OPEN))
        try #require(!canaryWatches.contains(-1) && configWatch >= 0)

        let paths = [
            canary + "/secret", canary + "/d", canary + "/new-file", canary + "/d/new-file", "file://" + canary + "/secret",
            "../../../../../.." + canary + "/secret", canary + "/secret\u{0}", "~/../.." + canary + "/secret",
            "$(touch \(canary)/pwned)", "`touch \(canary)/pwned`", "; touch \(canary)/pwned", "| touch \(canary)/pwned",
        ]
        var requests: [[String: Any]] = []
        for p in paths {
            for op in ["subscribe", "get", "unsubscribe", "pause", "resume"] { requests.append(["op": op, "container": p]) }
            requests.append(["op": "scrollTo", "container": p, "y": 1])
            requests.append(["op": "scrollBy", "container": p, "dy": 1])
            requests.append(["op": "configure", "container": p, "containerSize": ["width": 10, "height": 10]])
            requests.append(["op": "configure", "container": "main", "devices": [p]])
            requests.append(["op": "configure", "container": "main", "axes": p])
            requests.append(["op": "configure", "container": "main", "scrollTarget": p])
            requests.append(["op": "configure", "container": "main", "physics": ["profile": p]])
            requests.append(["op": "configure", "container": "main", "physics": ["socket": p]])
            requests.append(["op": "configure", "container": "main", "header": ["maxHeight": p]])
            requests.append(["op": "configure", "container": "main", "rows": ["heights": [p]]])
            for key in ["socket", "config", "file", "path", "log", "output", "record", "replay", "include", "seat"] {
                requests.append(["op": "configure", "container": "main", key: p])
            }
            requests.append(["op": "configure", "container": "main", "daemon": ["socket": p, "devices": [p]]])
            requests.append(["op": "configure", "container": "main", "input": ["devices": [p]]])
            requests.append(["op": "subscribe", "container": "main", "rate": p])
            requests.append(["op": "scrollTo", "container": "main", "y": 1, "animation": p])
            requests.append(["op": "scrollTo", "container": "main", "y": 1, "animation": ["spring": ["duration": p]]])
            requests.append(["op": p])
            requests.append(["op": "devices", "path": p])
            requests.append(["op": "ping", "file": p])
            requests.append(["op": "reload", "file": p, "config": p, "path": p])
        }
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        var reloadFiles: Set<String> = []
        for (i, request) in requests.enumerated() {
            let reply = try #require(client.request(request, id: i + 1), "no reply to \(request)")
            if reply["type"] as? String == "reloaded" { reloadFiles.insert(reply["file"] as? String ?? "?") }
        }
        #expect(reloadFiles == [daemon.configPath])
        #expect(client.request(["op": "ping"], id: requests.count + 1)?["type"] as? String == "pong")

        // Every event the watch saw: none about the canaries; the daemon's own reloads opened
        // its configuration file (the watch works).
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var canaryEvents: [String] = []
        var configOpens = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            var offset = 0
            while offset + 16 <= n {
                let (wd, mask, length) = buffer.withUnsafeBytes {
                    ($0.load(fromByteOffset: offset, as: Int32.self), $0.load(fromByteOffset: offset + 4, as: UInt32.self),
                     Int($0.load(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let name = String(decoding: buffer[(offset + 16)..<(offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
                if canaryWatches.contains(wd) { canaryEvents.append("mask 0x\(String(mask, radix: 16)) \(name)") }
                if wd == configWatch, mask & UInt32(IN_OPEN) != 0 { configOpens += 1 }
                offset += 16 + length
            }
        }
        #expect(canaryEvents.isEmpty, "\(canaryEvents)")
        // (inotify merges identical events not yet read: several opens may show as one.)
        #expect(configOpens >= 1, "the watch saw no open of the configuration by \(paths.count) reloads")
        #expect(!FileManager.default.fileExists(atPath: canary + "/pwned"))
        #expect(!FileManager.default.fileExists(atPath: canary + "/new-file"))
        #expect(daemon.probe.descriptors.allSatisfy { !$0.hasPrefix(canary) })
        print("file-path audit: \(requests.count) requests naming \(paths.count) paths; 0 events on the watched files; the daemon's own configuration seen opened by its reloads")
        #expect(daemon.stop() == 0)
    }
}
