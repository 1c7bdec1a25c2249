import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/security.md, "Faults": what goes wrong around the daemon — files removed or broken under
/// it, a disk that fills, clients that send too much, too badly, or vanish — and how it keeps
/// going. The real-kernel parts (a device removed mid-fling, SIGKILL and a full disk while
/// recording real input) are in Tests/e2e/scrolld-guest.sh.
@Suite("scrolld under faults", .serialized)
struct FaultTests {
    @Test(arguments: [false, true])
    func aConfigurationDeletedOrCorruptedBeforeAReloadKeepsTheLastGoodOne(searchPath: Bool) throws {
        let daemon = try DaemonProcess(config: "[containers.main]\ncontainerSize = \"800x500\"\n", searchPath: searchPath)
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        var id = 0
        func height() -> Double? {
            id += 1
            return client.request(["op": "get", "container": "main"], id: id)?.number("containerSize", "height")
        }
        func reload() throws -> (ok: Bool?, file: String?, message: String) {
            id += 1
            let reply = try #require(client.request(["op": "reload"], id: id))
            #expect(reply["type"] as? String == "reloaded")
            return (reply["ok"] as? Bool, reply["file"] as? String, reply["message"] as? String ?? "")
        }
        #expect(height() == 500)

        // Deleted: refused, naming the file, also when the search path would find no file and
        // fall back to the defaults; SIGHUP says so in the log.
        try FileManager.default.removeItem(atPath: daemon.configPath)
        let deleted = try reload()
        #expect(deleted.ok == false)
        #expect(deleted.file == daemon.configPath)
        #expect(deleted.message == "\(daemon.configPath): the configuration file in force was removed; keeping it (write the file again, or restart scrolld to use another)")
        #expect(height() == 500)
        daemon.signal(SIGHUP)
        #expect(daemon.waitForLog("configuration not reloaded, keeping the last good one: \(daemon.configPath): the configuration file in force was removed"))

        // A directory where the file was (or a link to one) is not a removed file, nor a reason
        // to take what the search path finds next.
        try FileManager.default.createDirectory(atPath: daemon.configPath, withIntermediateDirectories: false)
        let directory = try reload()
        #expect(directory.ok == false)
        #expect(directory.message.hasPrefix(daemon.configPath), "\(directory.message)")
        #expect(directory.message == "\(daemon.configPath): the configuration file in force is now a directory; keeping it (write the file again, or restart scrolld to use another)")
        #expect(height() == 500)
        try FileManager.default.removeItem(atPath: daemon.configPath)

        // Corrupted: bytes that are not UTF-8, then TOML cut off mid-value.
        try Data([0x5B, 0xFF, 0xFE, 0x00, 0x80, 0x0A]).write(to: URL(fileURLWithPath: daemon.configPath))
        let binary = try reload()
        #expect(binary.ok == false)
        #expect(binary.message.hasPrefix(daemon.configPath), "\(binary.message)")
        #expect(binary.message.contains("not valid UTF-8"), "\(binary.message)")
        #expect(height() == 500)
        try "[containers.main]\ncontainerSize = \"800x".write(toFile: daemon.configPath, atomically: false, encoding: .utf8)
        let cut = try reload()
        #expect(cut.ok == false)
        #expect(cut.message.hasPrefix(daemon.configPath + ":2"), "\(cut.message)")
        #expect(height() == 500)

        // Written again: the next reload puts it in force.
        try "[containers.main]\ncontainerSize = \"800x300\"\n".write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        let restored = try reload()
        #expect(restored.ok == true, "\(restored.message)")
        #expect(height() == 300)
        #expect(daemon.stop() == 0)
    }

    @Test func aSocketFileRemovedOrReplacedWhileRunningIsBoundAgainAndOthersAreLeftAlone() throws {
        let daemon = try DaemonProcess(socketIn: "run")
        let folder = (daemon.socketPath as NSString).deletingLastPathComponent
        let subscriber = try LineClient(path: daemon.socketPath)
        _ = subscriber.readJSON()
        #expect(subscriber.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        func connects() -> Bool { (try? LineClient(path: daemon.socketPath))?.readJSON()?["type"] as? String == "welcome" }
        func mode(_ path: String) -> mode_t {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode : 0
        }
        func scroll(to y: Int) {
            let driver = try? LineClient(path: daemon.socketPath)
            _ = driver?.request(["op": "scrollTo", "container": "main", "y": y, "animation": "none"], id: y)
        }

        // The socket file removed: a new one at the same path, 0600; the subscriber never noticed.
        unlink(daemon.socketPath)
        #expect(waitUntil(timeout: 30, connects))
        #expect(daemon.stderr.contains("the socket file \(daemon.socketPath) was removed; listening there again"), "\(daemon.stderr)")
        #expect(mode(daemon.socketPath) == S_IFSOCK | 0o600)
        scroll(to: 10)
        #expect(subscriber.read(type: "state")?.y == 10)

        // Its whole directory removed: made again, 0700.
        try FileManager.default.removeItem(atPath: folder)
        #expect(waitUntil(timeout: 30, connects))
        #expect(mode(folder) == S_IFDIR | 0o700)
        scroll(to: 20)
        #expect(subscriber.read(type: "state")?.y == 20)

        // Replaced by a file that is not a socket: left alone, and said so. Once that file is
        // gone, the daemon listens there again.
        let other = daemon.directory.appendingPathComponent("not-a-socket").path
        try "someone else's file\n".write(toFile: other, atomically: false, encoding: .utf8)
        #expect(rename(other, daemon.socketPath) == 0)
        let replaced = "the socket file \(daemon.socketPath) was replaced by another file and cannot be bound again"
        #expect(daemon.waitForLog(replaced))
        #expect(daemon.stderr.contains("a file that is not a socket is in the way; clients already connected are still served"), "\(daemon.stderr)")
        #expect((try? String(contentsOfFile: daemon.socketPath, encoding: .utf8)) == "someone else's file\n")
        unlink(daemon.socketPath)
        #expect(waitUntil(timeout: 30, connects))
        scroll(to: 30)
        #expect(subscriber.read(type: "state")?.y == 30)

        // Replaced again, then stopped: the daemon removes only a socket it made.
        try "someone else's file\n".write(toFile: other, atomically: false, encoding: .utf8)
        #expect(rename(other, daemon.socketPath) == 0)
        #expect(waitUntil(timeout: 30) { daemon.stderr.components(separatedBy: replaced).count == 3 })
        #expect(daemon.stop() == 0)
        #expect((try? String(contentsOfFile: daemon.socketPath, encoding: .utf8)) == "someone else's file\n")
        #expect(subscriber.isClosed())
    }

    @Test func recordingOntoAFullDiskSaysSoAndStops() throws {
        let result = try Scrolld.run(["record", "/dev/full", "--duration", "10"])
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("scrolld: cannot write /dev/full: No space left on device; the recording stops here"), "\(result.stderr)")
    }

    /// `run --record` onto a file that can take no more (RLIMIT_FSIZE, with SIGXFSZ ignored as
    /// a daemon's supervisor may leave it: the write that crosses the limit is short, the next
    /// fails with EFBIG, as on a disk that fills up mid-write). The recording stops with the
    /// reason in the log, what the short write left of a line is cut back off so the file
    /// replays without a warning, and the daemon goes on serving.
    @Test func aRecordingThatCannotGrowEndsOnAWholeLineAndTheDaemonServesOn() throws {
        let recording = try Scrolld.temporaryFile("", name: "session.scrolllog")
        let limit = 16 * 1024  // `ulimit -f` counts 512-byte blocks
        let daemon = try DaemonProcess(
            arguments: ["--record", recording],
            launcher: ["/bin/sh", "-c", "trap '' XFSZ; ulimit -f \(limit / 512) && exec \"$0\" \"$@\""])
        let client = try LineClient(path: daemon.socketPath)
        _ = try #require(client.read(type: "welcome"))
        #expect(client.request(["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 300],
                                "rows": ["count": 1000, "height": 44]], id: 1)?["type"] as? String == "ok")
        // Each request is a recorded line of about 100 bytes: 400 of them are more than the file
        // may hold.
        for number in 0..<400 {
            #expect(client.request(["op": "scrollTo", "container": "list", "y": Double(number) * 10.25], id: 10 + number)?["type"] as? String == "ok")
        }
        #expect(waitUntil(timeout: 60) { daemon.stderr.contains("recording stopped: cannot write \(recording): ") }, "\(daemon.stderr)")
        #expect(daemon.stderr.contains("File too large"), "\(daemon.stderr)")
        #expect(client.request(["op": "ping"], id: 1000)?["type"] as? String == "pong")

        let written = try Data(contentsOf: URL(fileURLWithPath: recording))
        #expect(written.count > limit / 2 && written.count <= limit, "\(written.count) bytes")
        #expect(written.last == UInt8(ascii: "\n"), "the recording ends mid-line: \(String(decoding: written.suffix(80), as: UTF8.self))")
        let replayed = try Scrolld.run(["replay", recording, "--container", "list"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.isEmpty, "\(replayed.stderr)")
        #expect(replayed.states.contains { $0["container"] as? String == "list" })
        #expect(daemon.stop() == 0, "\(daemon.stderr)")
    }

    /// A client that sends requests as fast as it can fills the recording (every request that
    /// applies is recorded, whether it moved anything or not): at `daemon.record_limit_mb` it
    /// stops, on a whole line, saying so, and replays up to there; the daemon serves on.
    @Test func aRecordingStopsAtItsLimitOnAWholeLine() throws {
        let recording = try Scrolld.temporaryFile("", name: "session.scrolllog")
        let daemon = try DaemonProcess(config: "[daemon]\nrecord_limit_mb = 1\n", arguments: ["--record", recording])
        let client = try LineClient(path: daemon.socketPath)
        _ = try #require(client.read(type: "welcome"))
        // The same configure again and again: 4000 listed heights, about 16 KB a line; 100 of
        // them are more than a mebibyte.
        let heights = (0..<4000).map { 40 + Double($0 % 7) * 0.5 }
        for number in 0..<100 {
            let reply = client.request(["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 300], "rows": ["heights": heights]], id: number + 1)
            #expect(reply?["type"] as? String == "ok", "\(String(describing: reply))")
        }
        #expect(waitUntil(timeout: 60) { daemon.stderr.contains("recording stopped: \(recording) would pass its limit of 1 MiB (daemon.record_limit_mb); it replays up to here") }, "\(daemon.stderr)")
        #expect(client.request(["op": "scrollTo", "container": "list", "y": 100], id: 100)?["type"] as? String == "ok")
        #expect(client.request(["op": "ping"], id: 101)?["type"] as? String == "pong")

        let written = try Data(contentsOf: URL(fileURLWithPath: recording))
        #expect(written.count > 1_048_576 / 2 && written.count <= 1_048_576, "\(written.count) bytes")
        #expect(written.last == UInt8(ascii: "\n"))
        let replayed = try Scrolld.run(["replay", recording, "--container", "list"])
        #expect(replayed.status == 0, "\(replayed.stderr)")
        #expect(replayed.stderr.isEmpty, "\(replayed.stderr)")
        // The scrollTo after the limit is not in it: the replay ends at rest at the top.
        #expect(replayed.states.last?["contentOffset"] as? [String: Double] == ["x": 0, "y": 0], "\(String(describing: replayed.states.last))")
        #expect(daemon.stop() == 0, "\(daemon.stderr)")
    }

    /// A recording with no device to read says why at once (found by a user trial: only
    /// "recorded 0 events", and a bug report with an empty log): /dev/null is a device node,
    /// but not one libinput can read.
    @Test func recordingWithoutAUsableDeviceSaysWhy() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString).scrolllog").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let result = try Scrolld.run(["record", out, "--duration", "0.2", "--device", "/dev/null"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("scrolld: /dev/null: libinput could not use it"), "\(result.stderr)")
        #expect(result.stderr.contains("scrolld: no usable input device: none with wheel, touchpad or trackpoint scrolling was found; recording anyway\n"), "\(result.stderr)")
    }

    /// A duration past what the clock counts in µs is a usage error: it trapped converting to
    /// Int64 (exit 132, a backtrace) from about 9.2e12 s (a user's trial).
    @Test func aDurationPastTheClockIsAUsageError() throws {
        for duration in ["1e308", "9.3e12", "1e9"] {
            let result = try Scrolld.run(["record", "/nonexistent/out.scrolllog", "--duration", duration])
            #expect(result.status == 64, "\(duration): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: --duration expects seconds more than 0 and less than 1e9, got "), "\(duration): \(result.stderr)")
        }
    }

    /// A --device that is not there, or no device node, ends `record` and `devices` as it ends
    /// `run`: status 66 and the system's reason (they blamed the node's type or permissions,
    /// and exited 0: a user's trial), before anything is written.
    @Test func aMissingDeviceEndsRecordAndDevicesAsItEndsRun() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("none-\(UUID().uuidString).scrolllog").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let directory = FileManager.default.temporaryDirectory.path
        for (path, reason) in [("/nonexistent", "No such file or directory"), (directory, "not a device node (input devices are /dev/input/event*)")] {
            for arguments in [["record", out, "--duration", "0.2"], ["devices"]] {
                let result = try Scrolld.run(arguments + ["--device", path])
                #expect(result.status == 66, "\(arguments) \(path): \(result.stderr)")
                #expect(result.stderr == "scrolld: cannot use --device \(path): \(reason)\n", "\(arguments) \(path)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func aTenMegabyteRequestLineIsRefusedAndClosedWhileOthersAreServed() throws {
        let daemon = try DaemonProcess()
        let subscriber = try LineClient(path: daemon.socketPath)
        _ = subscriber.readJSON()
        _ = subscriber.request(["op": "subscribe", "container": "main"], id: 1)
        let before = daemon.probe.peakResidentKiB

        let big = try LineClient(path: daemon.socketPath)
        _ = big.readJSON()
        // Sent from another thread: past 64 KiB the daemon answers, then discards the rest as
        // it arrives (docs/design.md, "Limits") and closes once the client is done.
        let line = [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20) + [0x0A]
        let sent = SendResult()
        let done = DispatchSemaphore(value: 0)
        let fd = big.fd
        Thread.detachNewThread {
            sent.bytes = RawSocket.send(fd, line)
            done.signal()
        }
        let refusal = big.readJSON(timeout: 30)
        #expect(refusal?["code"] as? String == "too_large")
        #expect(refusal?["message"] as? String == "line longer than 65536 bytes", "\(refusal ?? [:])")
        #expect(big.isClosed(timeout: 30))
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(sent.bytes == line.count, "the daemon closed after \(sent.bytes) bytes, before the client was done")

        // Everyone else: served as before, and the daemon did not buffer the line.
        let other = try LineClient(path: daemon.socketPath)
        _ = other.readJSON()
        #expect(other.request(["op": "ping"], id: 2)?["type"] as? String == "pong")
        _ = other.request(["op": "scrollTo", "container": "main", "y": 42, "animation": "none"], id: 3)
        #expect(subscriber.read(type: "state")?.y == 42)
        let after = daemon.probe.peakResidentKiB
        print("10 MB line: \(sent.bytes) bytes taken (discarded) before the daemon closed; VmHWM \(before) KiB before, \(after) KiB after")
        #expect(after - before < 4 * 1024, "VmHWM grew from \(before) to \(after) KiB")
        #expect(daemon.stop() == 0)
    }

    @Test func halfClosedResetAndSilentConnectionsAreHandledAndReleased() throws {
        let daemon = try DaemonProcess()
        let probe = daemon.probe
        let path = daemon.socketPath
        let subscriber = try LineClient(path: path)
        _ = subscriber.readJSON()
        _ = subscriber.request(["op": "subscribe", "container": "main"], id: 1)

        // Half-closed: requests, then shutdown(SHUT_WR): every reply, then the daemon closes.
        let half = try LineClient(path: path)
        half.send(#"{"op":"get","container":"main","id":1}"#)
        half.send(#"{"op":"ping","id":2}"#)
        half.send(#"{"op":"subscribe","container":"main","id":3}"#)
        shutdown(half.fd, Int32(SHUT_WR))
        var lines: [[String: Any]] = []
        while let line = half.readJSON(timeout: 30) { lines.append(line) }
        #expect(lines.map { $0["type"] as? String } == ["welcome", "state", "pong", "state"])
        #expect(lines.dropFirst().map { ($0["id"] as? NSNumber)?.intValue } == [1, 2, 3])

        // Reset: a subscriber with states unread closes with SO_LINGER 0 (its peer sees
        // ECONNRESET), and one that connects and closes without a word, a hundred times.
        let reset = try LineClient(path: path)
        _ = reset.request(["op": "subscribe", "container": "main"], id: 1)
        let driver = try LineClient(path: path)
        _ = driver.readJSON()
        _ = driver.request(["op": "scrollTo", "container": "main", "y": 10, "animation": "none"], id: 1)
        #expect(subscriber.read(type: "state")?.y == 10)
        RawSocket.setLingerZero(reset.fd)
        reset.close()
        for _ in 0..<100 {
            if case .success(let fd) = RawSocket.connect(path) { close(fd) }
        }
        // Silent: half a request line, never finished: a client like any other (no timeout).
        let silent = try LineClient(path: path)
        _ = silent.readJSON()
        RawSocket.send(silent.fd, #"{"op":"scrollTo","container":"main","y""#)

        // The daemon holds exactly the connections still open, and serves them.
        #expect(waitUntil(timeout: 30) { probe.clientConnections(on: path) == 3 }, "\(probe.clientConnections(on: path)) clients")
        _ = driver.request(["op": "scrollTo", "container": "main", "y": 20, "animation": "none"], id: 2)
        #expect(subscriber.read(type: "state")?.y == 20)
        silent.close()
        driver.close()
        #expect(waitUntil(timeout: 30) { probe.clientConnections(on: path) == 1 }, "\(probe.clientConnections(on: path)) clients")
        #expect(daemon.stop() == 0)
    }

    /// Thousands of bad lines, one reply each in order, while a subscriber gets every state of
    /// a replay (1000 a second) and another client's pings are answered.
    @Test func thousandsOfMalformedRequestsFromOneClientWhileOthersAreServed() throws {
        var log = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"test"}"#]
        log.append(#"{"t":0,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<4000 { log.append(#"{"t":\#(1_000_000 + i * 1000),"dev":1,"type":"wheel","v120":{"y":1.2}}"#) }
        let replay = try Scrolld.temporaryFile(log.joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(config: "[physics]\nwheel_animation = \"none\"\nwheel_step = 100\n", arguments: ["--loop"], replay: replay)
        let subscriber = try LineClient(path: daemon.socketPath)
        _ = subscriber.readJSON()
        _ = subscriber.request(["op": "subscribe", "container": "main"], id: 1)
        // The flood starts once states flow.
        let firstSeq = try #require(subscriber.read(type: "state", timeout: 30)?.int("seq"))

        let kinds: [(line: String, code: String)] = [
            ("not json", "bad_request"), ("{", "bad_request"), ("[]", "bad_request"), ("", "bad_request"),
            (#"{"op":"warp"}"#, "unknown_op"), (#"{"op":"get"}"#, "bad_request"),
            (#"{"op":"get","container":"nope"}"#, "unknown_container"),
            (#"{"op":"scrollTo","container":"main","y":"down"}"#, "invalid_value"),
            (#"{"op":"subscribe","container":"main","rate":0}"#, "invalid_value"),
            (String(repeating: "[", count: 5000), "bad_request"),
            (#"{"op":"configure","container":"main","physics":{"wheel_animation":"bouncy"}}"#, "invalid_value"),
            (#"{"op":"ping"} trailing"#, "bad_request"), ("\u{01}\u{02}", "bad_request"),
        ]
        let count = 20_000
        let flooder = try LineClient(path: daemon.socketPath)
        _ = flooder.readJSON()
        let fd = flooder.fd
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var batch: [UInt8] = []
            for i in 0..<count {
                batch += Array(kinds[i % kinds.count].line.utf8) + [0x0A]
                if batch.count > 32_768 || i == count - 1 {
                    RawSocket.send(fd, batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            done.signal()
        }
        // The flooder's replies, read here while the subscriber and a pinger are checked on
        // other threads.
        let others = OthersCheck(path: daemon.socketPath, subscriber: subscriber)
        others.start()
        var mismatches: [String] = []
        var replies = 0
        while replies < count, let reply = flooder.readJSON(timeout: 60) {
            let expected = kinds[replies % kinds.count].code
            if reply["code"] as? String != expected, mismatches.count < 5 { mismatches.append("#\(replies): \(reply) (expected \(expected))") }
            replies += 1
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        // And goes on after it; the pinger has had answers.
        let during = others.seqs.count
        #expect(waitUntil(timeout: 30) { others.seqs.count > during })
        #expect(waitUntil(timeout: 30) { others.pongs > 0 })
        others.stop()
        #expect(replies == count, "\(replies) replies to \(count) bad lines")
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(others.pongs > 0 && others.pingFailures == 0, "\(others.pongs) pongs, \(others.pingFailures) failures")
        // The subscriber: in order, and every state while it all happened, none skipped, unless
        // this test was too slow to read it (its socket filled: then latest wins, by design).
        let seqs = others.seqs
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
        let gaps = zip([firstSeq] + seqs, seqs).filter { $1 != $0 + 1 }
        if subscriber.mayHaveFilled {
            print("malformed flood: the subscriber's socket held \(subscriber.mostQueued) bytes at once: \(gaps.count) gaps not judged")
        } else {
            #expect(gaps.isEmpty, "gaps: \(gaps.prefix(5))")
        }
        print("malformed flood: \(replies) error replies in order; meanwhile \(others.pongs) pings answered and \(seqs.count) consecutive states received")
        #expect(daemon.stop() == 0, "the daemon's log ends: \(daemon.stderr.suffix(2000))")
    }

    /// A client that sends without reading its replies is throttled, not buffered: the daemon
    /// stops reading it once its replies fill the socket, and answers the rest when it reads.
    @Test func aClientThatSendsWithoutReadingIsThrottledNotBuffered() throws {
        let daemon = try DaemonProcess()
        let probe = daemon.probe
        let before = probe.residentKiB
        let flooder = try LineClient(path: daemon.socketPath)
        _ = flooder.readJSON()
        let ping = Array(#"{"op":"ping"}"#.utf8) + [0x0A]
        let offered = 16 << 20
        let sender = ThrottledSender(fd: flooder.fd, line: ping, total: offered)
        sender.start()
        // Until the daemon has stopped reading it: its lines wait unread while the daemon
        // sleeps (ProcessProbe.stoppedReading), or, a daemon that never stops, all were taken.
        #expect(waitUntil(timeout: 120) { sender.finished || probe.stoppedReading(flooder.fd) })
        let held = probe.residentKiB
        let other = try LineClient(path: daemon.socketPath)
        _ = other.readJSON()
        #expect(other.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        let taken = sender.sent
        print("a client sending without reading: \(taken) of \(offered) bytes taken before the daemon stopped reading; VmRSS \(before) KiB before, \(held) KiB while it waited")
        #expect(taken < 4 << 20, "the daemon took \(taken) bytes without its replies being read")
        #expect(held - before < 8 * 1024, "VmRSS grew from \(before) to \(held) KiB")
        // Reading now: the daemon reads on (the sender finishes its last line and stops), and
        // there is a pong for every ping.
        sender.requestStop()
        var pongs = 0
        while !(sender.finished && pongs == sender.sent / ping.count), let reply = flooder.readJSON(timeout: 60) {
            guard reply["type"] as? String == "pong" else { break }
            pongs += 1
        }
        #expect(sender.finished)
        #expect(pongs == sender.sent / ping.count, "\(pongs) pongs for \(sender.sent / ping.count) pings")
        #expect(daemon.stop() == 0)
    }

    @Test func aClientThatNeverDrainsIsDroppedAfterTheStuckTimeoutAndOthersAreNot() throws {
        var log = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"test"}"#]
        log.append(#"{"t":0,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<2000 { log.append(#"{"t":\#(100_000 + i * 1000),"dev":1,"type":"wheel","v120":{"y":1.2}}"#) }
        let replay = try Scrolld.temporaryFile(log.joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(
            config: "[physics]\nwheel_animation = \"none\"\n", arguments: ["--loop", "--stuck-client-timeout", "3"], replay: replay
        )
        let stuck = try LineClient(path: daemon.socketPath)
        stuck.send(#"{"op":"subscribe","container":"main"}"#)
        let reader = try LineClient(path: daemon.socketPath)
        _ = reader.readJSON()
        _ = reader.request(["op": "subscribe", "container": "main"], id: 1)
        // The reader keeps reading while the stuck client's socket stays full for over 3 s.
        let dropped = "dropping a client (pid \(getpid()), uid \(getuid())) that has not read for more than 3.0 s"
        var received = 0
        let deadline = Date().addingTimeInterval(120)
        while !daemon.stderr.contains(dropped), Date() < deadline {
            if reader.readJSON(timeout: 1)?["type"] as? String == "state" { received += 1 }
        }
        #expect(daemon.stderr.contains(dropped), "\(daemon.stderr)")
        #expect(daemon.stderr.components(separatedBy: "dropping a client").count == 2, "\(daemon.stderr)")
        // The stuck client gets what was buffered, then the end; the reader goes on.
        #expect(stuck.isClosed(timeout: 30))
        #expect(waitUntil(timeout: 30) { daemon.probe.clientConnections(on: daemon.socketPath) == 1 })
        #expect(reader.read(type: "state", timeout: 30) != nil)
        #expect(received > 0)
        #expect(daemon.stop() == 0)
    }

    @Test func theStuckClientTimeoutMustBeAPositiveNumberOfSeconds() throws {
        let result = try Scrolld.run(["run", "--stuck-client-timeout", "0", "--config", "/dev/null"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--stuck-client-timeout expects a number of seconds greater than 0 and at most 86400"), "\(result.stderr)")
    }

    /// Options that only mean something with --replay are refused without it (found by a user
    /// trial: --speed passed silently while --loop was refused).
    @Test func replayOptionsWithoutAReplayAreRefused() throws {
        for (option, values) in [("--speed", ["--speed", "2"]), ("--loop", ["--loop"])] {
            let result = try Scrolld.run(["run"] + values + ["--config", "/dev/null"])
            #expect(result.status == 64)
            #expect(result.stderr.contains("\(option) goes with --replay"), "\(result.stderr)")
        }
    }
}
