import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The requests a connection holds (docs/design.md §19), from `scrollctl` against a real daemon:
/// `focus CONTAINER` and `pause CONTAINER` last as long as the scrollctl that made them runs;
/// `focus --none` and `resume` undo them whoever made them.
@Suite(.serialized) struct ScrollctlHeldRequestTests {
    static let configuration = """
        [containers.list]
        contentSize = "800x3000"

        [containers.a]
        parent = "list"
        axes = "horizontal"
        contentSize = "2400x600"
        """

    static func focus(_ client: LineClient) -> Any? {
        client.request(["op": "devices"], id: 1)?["focus"] as Any?
    }

    static func paused(_ container: String, _ client: LineClient) -> Bool {
        client.request(["op": "get", "container": container], id: 1)?["paused"] as? Bool == true
    }

    /// `scrollctl ARGUMENTS` started, left running; its stderr goes to `errors` when given.
    static func start(_ arguments: [String], on daemon: DaemonProcess, errors: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = Scrollctl.binary
        process.arguments = arguments + ["--socket", daemon.socketPath]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for `process` to end on its own: killed after 90 s, a deadline that only catches
    /// a process that would never end (it then fails on its status, 9).
    static func ending(_ process: Process) {
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + 90, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
    }

    /// SIGTERM is how a held request is meant to end (status 0), even started with SIGTERM
    /// blocked, as a child of the test runner is.
    static func interrupt(_ process: Process) {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// A container's name is any client's: an escape sequence or a newline in it reached the
    /// terminal raw from `pause`, `focus`, `watch` and `devices` (a user's trial). It is quoted
    /// with the configuration's escapes, as the daemon's own messages quote it.
    @Test func aNameWithControlCharactersNeverReachesTheTerminalRaw() throws {
        let daemon = try DaemonProcess(config: Self.configuration)
        defer { daemon.stop() }
        let name = "evil\u{1B}]0;title\u{7}\nscrollctl: forged"
        let quoted = #""evil\u001B]0;title\u0007\nscrollctl: forged""#
        #expect(try Scrollctl.run(["configure", name, "--container-size", "100x100", "--socket", daemon.socketPath]).status == 0)
        let errors = Pipe()
        let holder = try Self.start(["pause", name], on: daemon, errors: errors)
        let focus = Pipe()
        let focused = try Self.start(["focus", name], on: daemon, errors: focus)
        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")
        #expect(waitUntil(timeout: 30) { Self.paused(name, watcher) })
        #expect(try Scrollctl.run(["resume", name, "--socket", daemon.socketPath]).status == 0)
        Self.ending(holder)
        Self.interrupt(focused)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said == "scrollctl: \(quoted) paused until interrupted\nscrollctl: \(quoted) was resumed by another client: the pause is over\n")
        let focusSaid = String(decoding: focus.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(focusSaid == "scrollctl: focus on \(quoted) until interrupted\n")
        // A watch that has its first state (so it follows the container) when it is removed.
        let watch = Process(), states = Pipe(), watchErrors = Pipe()
        watch.executableURL = Scrollctl.binary
        watch.arguments = ["watch", name, "--socket", daemon.socketPath]
        watch.standardOutput = states
        watch.standardError = watchErrors
        try watch.run()
        #expect(!states.fileHandleForReading.availableData.isEmpty)  // EOF only if it ended
        #expect(try Scrollctl.run(["remove", name, "--socket", daemon.socketPath]).status == 0)
        Self.ending(watch)
        let watchSaid = String(decoding: watchErrors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(watchSaid == "scrollctl: container \(quoted) was removed\n")
    }

    @Test func focusHoldsUntilInterruptedAndNoneClearsIt() throws {
        let daemon = try DaemonProcess(config: Self.configuration)
        defer { daemon.stop() }
        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")

        let holder = try Self.start(["focus", "a"], on: daemon)
        #expect(waitUntil(timeout: 30) { Self.focus(watcher) as? String == "a" })
        #expect(holder.isRunning)
        Self.interrupt(holder)
        // Its connection closed: the focus it set is undone.
        #expect(waitUntil(timeout: 30) { Self.focus(watcher) is NSNull })

        #expect(watcher.request(["op": "focus", "container": "a"], id: 2)?["type"] as? String == "ok")
        let none = try Scrollctl.run(["focus", "--none", "--socket", daemon.socketPath])
        #expect(none.status == 0, "\(none.stderr)")
        #expect(Self.focus(watcher) is NSNull)

        let unknown = try Scrollctl.run(["focus", "nope", "--socket", daemon.socketPath])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("nope"), "\(unknown.stderr)")
        let neither = try Scrollctl.run(["focus", "--socket", daemon.socketPath])
        #expect(neither.status != 0)
        #expect(neither.stderr.contains("--none"), "\(neither.stderr)")
    }

    @Test func pauseHoldsUntilInterruptedAndResumeEndsItAtOnce() throws {
        let daemon = try DaemonProcess(config: Self.configuration)
        defer { daemon.stop() }
        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")

        let holder = try Self.start(["pause", "list"], on: daemon)
        #expect(waitUntil(timeout: 30) { Self.paused("list", watcher) })
        #expect(holder.isRunning)
        #expect(!Self.paused("a", watcher))
        Self.interrupt(holder)
        // Its connection closed: the pause it made is undone.
        #expect(waitUntil(timeout: 30) { !Self.paused("list", watcher) })

        // Resumed by someone else: at once, and the holder, which holds nothing any more, ends.
        let errors = Pipe()
        let second = try Self.start(["pause", "list"], on: daemon, errors: errors)
        #expect(waitUntil(timeout: 30) { Self.paused("list", watcher) })
        let resumed = try Scrollctl.run(["resume", "list", "--socket", daemon.socketPath])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(!Self.paused("list", watcher))
        Self.ending(second)
        #expect(second.terminationReason == .exit && second.terminationStatus == 0)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said == "scrollctl: list paused until interrupted\nscrollctl: list was resumed by another client: the pause is over\n")

        let unknown = try Scrollctl.run(["pause", "nope", "--socket", daemon.socketPath])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown_container"), "\(unknown.stderr)")
        #expect(try Scrollctl.run(["pause", "--socket", daemon.socketPath]).status == 64)  // CONTAINER is required
    }

    /// A paused container that is removed ends its holders' pause as it ends a `watch`.
    @Test func aHeldPauseEndsWith1WhenItsContainerIsRemoved() throws {
        let daemon = try DaemonProcess(config: Self.configuration)
        defer { daemon.stop() }
        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")
        #expect(try Scrollctl.run(["configure", "made", "--container-size", "100x100", "--socket", daemon.socketPath]).status == 0)
        let errors = Pipe()
        let holder = try Self.start(["pause", "made"], on: daemon, errors: errors)
        #expect(waitUntil(timeout: 30) { Self.paused("made", watcher) })
        #expect(try Scrollctl.run(["remove", "made", "--socket", daemon.socketPath]).status == 0)
        Self.ending(holder)
        #expect(holder.terminationReason == .exit && holder.terminationStatus == 1)
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.hasSuffix("scrollctl: container \"made\" was removed\n"), "\(said)")
    }

    @Test func aHeldPauseEndsWith69WhenTheDaemonGoesAway() throws {
        let daemon = try DaemonProcess(config: Self.configuration)
        let watcher = try LineClient(path: daemon.socketPath)
        _ = watcher.read(type: "welcome")
        let holder = try Self.start(["pause", "list"], on: daemon)
        #expect(waitUntil(timeout: 30) { Self.paused("list", watcher) })
        watcher.close()
        daemon.stop()
        holder.waitUntilExit()
        #expect(holder.terminationReason == .exit && holder.terminationStatus == 69)
    }
}
