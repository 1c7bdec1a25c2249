import Foundation
import Testing

/// docs/architecture.md's table, kept true: every source file imports only what its target may.
@Suite struct ArchitectureTests {
    /// The modules each target may import (the C library's module, Glibc, is every target's).
    static let allowed: [String: Set<String>] = [
        "ScrollModel": ["RealModule"],
        "TOML": [],
        "ScrollJSON": [],
        "ScrollLog": ["ScrollModel", "ScrollJSON"],
        "ScrollTranscript": ["ScrollModel", "ScrollJSON", "ScrollLog"],
        "ScrollConfig": ["ScrollModel", "TOML"],
        "ScrollProtocol": ["ScrollModel", "ScrollJSON"],
        "ScrollSession": ["ScrollModel", "ScrollConfig", "ScrollProtocol", "ScrollLog", "ScrollJSON"],
        "ScrollDaemon": ["NIOCore", "Logging", "Synchronization", "ScrollSession", "ScrollModel", "ScrollConfig", "ScrollProtocol", "ScrollLog", "ScrollJSON", "ScrollInput"],
        "ScrollInput": ["CLibinput", "ScrollModel"],
        "ScrollPlot": ["ScrollModel", "RealModule"],
        "ScrollPOSIX": [],
        "ScrollClient": ["ScrollProtocol", "ScrollModel", "NIOCore", "NIOPosix", "Synchronization"],
        "scrollctl": ["ScrollClient", "ScrollProtocol", "ScrollModel", "ArgumentParser"],
    ]

    @Test func everyTargetImportsOnlyWhatTheArchitectureAllows() throws {
        let sources = Scrolld.packageRoot.appendingPathComponent("Sources")
        var checked = 0
        for (target, allowed) in Self.allowed {
            let folder = sources.appendingPathComponent(target)
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
            #expect(!files.isEmpty, "\(target) has no sources")
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                    let module = String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces)
                    #expect(module == "Glibc" || allowed.contains(module), "\(target)/\(file) imports \(module)")
                }
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    /// The pure core never reaches the network, the loop or the file system's edges.
    @Test func theDaemonsLogicUsesNoPOSIXLayerOfNIO() throws {
        let folder = Scrolld.packageRoot.appendingPathComponent("Sources/ScrollDaemon")
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("import NIOPosix"), "\(file)")
            #expect(!text.contains("MonotonicClock"), "\(file) reads a clock other than the loop's")
        }
    }
}
