import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §19 over a real socket: containers that live as long as their app, `remove`, what
/// a closed connection leaves behind, `instance`, and a configure that changes nothing. A fling
/// that runs on through a configure is LifetimeTests' (ScrollDaemonTests), on the daemon's clock.
@Suite("lifetimes and living content against a real daemon")
struct LifetimeSocketTests {
    @Test func anOwnedContainerGoesWithItsConnectionAndItsSubscribersAreTold() throws {
        let daemon = try DaemonProcess()
        let owner = try LineClient(path: daemon.socketPath)
        _ = owner.read(type: "welcome")
        let other = try LineClient(path: daemon.socketPath)
        _ = other.read(type: "welcome")
        #expect(owner.request(["op": "configure", "container": "sidebar", "containerSize": ["width": 200, "height": 600],
                               "contentSize": ["width": 200, "height": 3000], "owned": true], id: 1)?["type"] as? String == "ok")
        #expect(other.request(["op": "subscribe", "container": "sidebar"], id: 1)?["type"] as? String == "state")
        #expect(other.request(["op": "observe", "container": "sidebar", "of": "phase"], id: 2)?["type"] as? String == "observation")
        // A newcomer sees it while its owner lives.
        let newcomer = try LineClient(path: daemon.socketPath)
        #expect((newcomer.read(type: "welcome")?["containers"] as? [String])?.contains("sidebar") == true)

        owner.close()
        let removed = try #require(other.read(type: "removed"))
        #expect(removed as NSDictionary == ["type": "removed", "container": "sidebar"] as NSDictionary)
        let gone = other.request(["op": "get", "container": "sidebar"], id: 3)
        #expect(gone?["code"] as? String == "unknown_container")
        // The subscription ended with it: a container of the same name made later is news to no one.
        #expect(newcomer.request(["op": "configure", "container": "sidebar", "containerSize": ["width": 200, "height": 600]], id: 1)?["type"] as? String == "ok")
        let (pong, before) = other.linesBeforeReply(to: ["op": "ping"], id: 4)
        #expect(pong?["type"] as? String == "pong")
        #expect(before.isEmpty, "\(before)")
        let late = try LineClient(path: daemon.socketPath)
        #expect((late.read(type: "welcome")?["containers"] as? [String]) == ["main", "sidebar"])
    }

    @Test func removeEndsAContainerARequestMadeAndRefusesTheFilesOwn() throws {
        let daemon = try DaemonProcess(config: "[containers.side]\ncontainerSize = \"200x600\"\n")
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        #expect(client.request(["op": "configure", "container": "list", "containerSize": ["width": 400, "height": 300]], id: 1)?["type"] as? String == "ok")
        #expect(client.request(["op": "subscribe", "container": "list"], id: 2)?["type"] as? String == "state")
        let other = try LineClient(path: daemon.socketPath)
        _ = other.read(type: "welcome")
        #expect(other.request(["op": "remove", "container": "list"], id: 1)?["type"] as? String == "ok")
        #expect(client.read(type: "removed")?["container"] as? String == "list")
        for name in ["main", "side"] {
            let refused = other.request(["op": "remove", "container": name], id: 2)
            #expect(refused?["code"] as? String == "invalid_value")
            #expect((refused?["message"] as? String)?.contains("comes from the configuration (its file or the built-in main)") == true)
        }
        #expect(other.request(["op": "remove", "container": "list"], id: 3)?["code"] as? String == "unknown_container")
    }

    @Test func aClosedConnectionsPauseIsUndone() throws {
        let daemon = try DaemonProcess()
        let watcher = try LineClient(path: daemon.socketPath)
        _ = watcher.read(type: "welcome")
        #expect(watcher.request(["op": "subscribe", "container": "main"], id: 1)?["paused"] == nil)
        // A client pauses main and dies without resuming (its connection just closes).
        let crashed = try LineClient(path: daemon.socketPath)
        _ = crashed.read(type: "welcome")
        #expect(crashed.request(["op": "pause", "container": "main"], id: 1)?["type"] as? String == "ok")
        #expect(watcher.read(type: "state")?["paused"] as? Bool == true)
        crashed.close()
        let resumed = try #require(watcher.read(type: "state"))
        #expect(resumed["paused"] == nil)
        #expect(watcher.request(["op": "get", "container": "main"], id: 2)?["paused"] == nil)
        // A pause whose connection stays is kept.
        let keeper = try LineClient(path: daemon.socketPath)
        _ = keeper.read(type: "welcome")
        #expect(keeper.request(["op": "pause", "container": "main"], id: 1)?["type"] as? String == "ok")
        #expect(watcher.request(["op": "get", "container": "main"], id: 3)?["paused"] as? Bool == true)
    }

    @Test func eachStartOfTheDaemonHasItsOwnInstance() throws {
        func instance(_ daemon: DaemonProcess) throws -> String {
            let client = try LineClient(path: daemon.socketPath)
            return try #require(client.read(type: "welcome")?["instance"] as? String)
        }
        let first = try DaemonProcess()
        let a = try instance(first)
        #expect(try instance(first) == a)  // the same daemon: the same instance for every client
        #expect(a.count == 32 && a.allSatisfy(\.isHexDigit))
        #expect(first.stop() == 0)
        let second = try DaemonProcess()
        #expect(try instance(second) != a)
    }

    @Test func aConfigureThatChangesNothingPublishesNothing() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.read(type: "welcome")
        #expect(client.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        let same: [String: Any] = ["op": "configure", "container": "main", "containerSize": ["width": 800, "height": 600],
                                   "contentSize": ["width": 800, "height": 20000]]
        let (reply, before) = client.linesBeforeReply(to: same, id: 2)
        #expect(reply?["type"] as? String == "ok")
        let (_, after) = client.linesBeforeReply(to: ["op": "ping"], id: 3)
        #expect((before + after).isEmpty, "\(before + after)")
    }
}
