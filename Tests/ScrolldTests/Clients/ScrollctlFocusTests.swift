import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `scrollctl focus CONTAINER|--none` against a real daemon (docs/design.md §14, §19): the focus
/// lasts as long as the scrollctl that set it runs; `--none` clears it whoever set it.
@Suite(.serialized) struct ScrollctlFocusTests {
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

    @Test func focusHoldsUntilInterruptedAndNoneClearsIt() throws {
        let daemon = try DaemonProcess(config: Self.configuration)
        defer { daemon.stop() }
        let watcher = try LineClient(path: daemon.socketPath)
        defer { watcher.close() }
        _ = watcher.read(type: "welcome")

        let holder = Process()
        holder.executableURL = Scrollctl.binary
        holder.arguments = ["focus", "a", "--socket", daemon.socketPath]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        #expect(waitUntil(timeout: 30) { Self.focus(watcher) as? String == "a" })
        #expect(holder.isRunning)
        // SIGTERM is how it is meant to end (status 0), even started with SIGTERM blocked, as a
        // child of the test runner is.
        kill(holder.processIdentifier, SIGTERM)
        holder.waitUntilExit()
        #expect(holder.terminationReason == .exit && holder.terminationStatus == 0)
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
}
