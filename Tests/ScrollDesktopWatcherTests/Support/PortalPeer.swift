import Foundation

/// `portal-settings-peer.py` on a private session bus: the portal's Settings interface served
/// by python3-dbus, told to change a setting through its stdin.
final class PortalPeer {
    private let process = Process()
    private let input = Pipe()
    private var output: LineReader

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("portal-settings-peer.py")

    /// `reducedMotion` nil: the peer has no such key. `version` 1: `Read` alone.
    init(on bus: PrivateSessionBus, reducedMotion: UInt32?, version: Int = 2) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script.path, "--address", bus.address, "--version", "\(version)"]
            + (reducedMotion.map { ["--reduced-motion", "\($0)"] } ?? [])
        process.environment = bus.environment
        let pipe = Pipe()
        process.standardInput = input
        process.standardOutput = pipe
        output = LineReader(pipe.fileHandleForReading)
        try process.run()
        guard output.next() == "ready" else { throw PrivateSessionBus.Unavailable(description: "the portal peer did not start") }
    }

    /// Ends the peer by SIGTERM (its stdin's end may be held by another test's process too).
    deinit {
        process.terminate()
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
    }

    /// Sets a uint32 setting; the peer has emitted SettingChanged when this returns.
    func set(_ namespace: String, _ key: String, _ value: UInt32) throws {
        try input.fileHandleForWriting.write(contentsOf: Data("set \(namespace) \(key) \(value)\n".utf8))
        guard output.next() == "set" else { throw PrivateSessionBus.Unavailable(description: "the portal peer ended") }
    }

    func setReducedMotion(_ value: UInt32) throws {
        try set("org.freedesktop.appearance", "reduced-motion", value)
    }
}
