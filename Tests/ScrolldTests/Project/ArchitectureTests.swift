import Foundation
import Testing

/// docs/architecture.md's rules, kept true for every target Package.swift declares: the
/// libraries, the executables, the C modules and the test targets.
@Suite struct ArchitectureTests {
    /// The modules each Swift target may import. The C library (Glibc) only where the system
    /// is reached: the edges, the client library, the readers of files and sockets.
    static let allowed: [String: Set<String>] = [
        "ScrollModel": ["RealModule"],
        "TOML": [],
        "ScrollDesktop": ["ScrollModel", "ScrollProtocol"],
        // inotify, sway's socket, a thread blocked in poll(2).
        "ScrollDesktopWatchers": ["ScrollDesktop", "ScrollPOSIX", "Glibc"],
        // The desktop watchers (docs/design.md §23): GLib's GIO, or sd-bus, on a thread of their own.
        "ScrollDesktopGNOME": ["CGIO", "ScrollDesktop", "ScrollPOSIX", "Synchronization"],
        "ScrollDesktopPortal": ["CSystemd", "ScrollDesktop", "ScrollPOSIX", "Synchronization", "Glibc"],
        // memchr for lines.
        "ScrollJSON": ["Glibc"],
        "ScrollLog": ["ScrollModel", "ScrollJSON"],
        "ScrollTranscript": ["ScrollModel", "ScrollJSON", "ScrollLog"],
        // Reads its file.
        "ScrollConfig": ["ScrollModel", "TOML", "Glibc"],
        // A Unix socket's address, the default socket's path (the uid in it).
        "ScrollProtocol": ["ScrollModel", "ScrollJSON", "Glibc"],
        "ScrollSession": ["ScrollModel", "ScrollConfig", "ScrollProtocol", "ScrollLog", "ScrollJSON"],
        "ScrollDaemon": ["NIOCore", "NIOHTTP1", "NIOWebSocket", "Logging", "ScrollSession", "ScrollModel", "ScrollConfig", "ScrollProtocol", "ScrollLog", "ScrollJSON", "ScrollInput", "ScrollDesktop", "Synchronization"],
        "ScrollDaemonPOSIX": ["ScrollDaemon", "CScrolldShim", "NIOCore", "SystemPackage", "Glibc"],
        "ScrollInput": ["CLibinput", "ScrollModel", "TOML", "Glibc"],
        "ScrollPlot": ["ScrollModel", "RealModule"],
        "ScrollPOSIX": ["Glibc"],
        "ScrollClient": ["ScrollProtocol", "ScrollModel", "NIOCore", "NIOPosix", "Synchronization", "Glibc"],
        "ScrollCommandLine": ["ScrollProtocol", "ArgumentParser"],
        "scrollctl": ["ScrollClient", "ScrollProtocol", "ScrollModel", "ScrollCommandLine", "ScrollPOSIX", "TOML", "ArgumentParser", "Glibc"],
        // Everything but the client library, and FoundationEssentials rather than Foundation
        // (its shared libraries were most of the daemon's resident memory).
        "scrolld": [
            "ScrollModel", "ScrollJSON", "ScrollLog", "ScrollTranscript", "ScrollConfig", "ScrollProtocol", "ScrollSession",
            "ScrollDaemon", "ScrollDaemonPOSIX", "ScrollInput", "ScrollPlot", "ScrollPOSIX", "ScrollCommandLine",
            "ScrollDesktop", "ScrollDesktopWatchers", "ScrollDesktopGNOME", "ScrollDesktopPortal",
            "CScrolldShim", "CSystemd", "CLibinput", "Glibc", "FoundationEssentials", "Synchronization", "SystemPackage",
            "NIOCore", "NIOPosix", "NIOConcurrencyHelpers", "Logging", "ArgumentParser",
        ],
        // Real GSettings and a real portal peer on a private session bus, run as processes.
        "ScrollDesktopWatcherTests": ["ScrollDesktop", "ScrollDesktopGNOME", "ScrollDesktopPortal", "ScrollDesktopWatchers", "Testing", "Foundation"],
        "ScrollModelTests": ["ScrollModel", "PropertyBased", "Testing", "Foundation", "Glibc"],
        "ScrollJSONTests": ["ScrollJSON", "Testing"],
        "ScrollLogTests": ["ScrollLog", "ScrollJSON", "ScrollModel", "Testing", "Foundation"],
        "ScrollTranscriptTests": ["ScrollTranscript", "ScrollLog", "ScrollModel", "Testing"],
        "ScrollProtocolTests": ["ScrollProtocol", "ScrollModel", "ScrollJSON", "ScrollLog", "Testing"],
        "ScrollInputTests": ["ScrollInput", "ScrollModel", "Testing"],
        "TOMLTests": ["TOML", "Testing", "Foundation"],
        "ScrollConfigTests": ["ScrollConfig", "ScrollModel", "Testing", "Foundation"],
        "ScrollPlotTests": ["ScrollPlot", "ScrollModel", "Testing", "Foundation", "FoundationXML"],
        "ScrollDesktopTests": ["ScrollDesktop", "ScrollModel", "Testing"],
        // The process-level tests reach the daemon from outside only: its binaries, sockets
        // and files, and the client library.
        // Observation: an app's @Observable model beside the client library.
        "ScrolldTests": ["ScrollClient", "ScrollProtocol", "ScrollModel", "ScrollLog", "Testing", "Foundation", "FoundationXML", "Glibc", "Synchronization", "Observation"],
        // Live = replay on an EmbeddedEventLoop: the session, the daemon's logic, and a file
        // for its configuration.
        "ScrollSessionTests": [
            "ScrollSession", "ScrollDaemon", "ScrollConfig", "ScrollModel", "ScrollProtocol", "ScrollLog", "ScrollDesktop",
            "NIOCore", "NIOEmbedded", "Logging", "Testing", "Foundation", "Glibc",
        ],
        "ScrollDaemonTests": [
            "ScrollDaemon", "ScrollDaemonPOSIX", "ScrollSession", "ScrollConfig", "ScrollModel", "ScrollProtocol", "ScrollLog",
            "ScrollDesktop", "NIOCore", "NIOEmbedded", "NIOPosix", "NIOWebSocket", "Logging", "Testing", "Foundation", "Glibc", "Synchronization",
        ],
    ]

    /// The C modules: the headers each shim.h may include and the libraries its module map
    /// links (system libraries), or the one header of a compiled shim and what it may include.
    static let systemLibraries: [String: (includes: Set<String>, links: Set<String>)] = [
        "CLibinput": (["libinput.h", "libudev.h"], ["input", "udev"]),
        "CSystemd": (["systemd/sd-bus.h", "systemd/sd-daemon.h"], ["systemd"]),
        "CGIO": (["gio/gio.h"], ["gio-2.0", "gobject-2.0", "glib-2.0"]),
    ]
    static let compiledShims: [String: (header: String, includes: Set<String>)] = [
        "CScrolldShim": ("include/CScrolldShim.h", ["stdint.h"]),
    ]

    /// The targets that make no system call: no C library, no POSIX layer, no way to declare a
    /// C function by hand. The daemon's logic gets what it needs of the system injected from
    /// the edges (ScrollDaemonPOSIX, scrolld).
    static let withoutSystemCalls = ["ScrollModel", "TOML", "ScrollDesktop", "ScrollLog", "ScrollTranscript", "ScrollPlot", "ScrollSession", "ScrollDaemon"]
    static let systemModules: Set<String> = [
        "Glibc", "Musl", "Darwin", "WASILibc", "Foundation", "FoundationEssentials", "SystemPackage", "System", "NIOPosix",
        "CScrolldShim", "CSystemd", "CLibinput", "CGIO", "ScrollPOSIX", "ScrollDaemonPOSIX",
    ]

    @Test func everyTargetOfThePackageIsChecked() throws {
        let targets = try SourceTree.targets()
        #expect(targets.count > 25)
        let checked = Set(Self.allowed.keys).union(Self.systemLibraries.keys).union(Self.compiledShims.keys)
        #expect(Set(targets.keys) == checked, "declared, not checked: \(Set(targets.keys).subtracting(checked).sorted()); checked, not declared: \(checked.subtracting(targets.keys).sorted())")
        for (name, kind) in targets {
            #expect((kind == .systemLibrary || kind == .target && Self.compiledShims[name] != nil) == (Self.allowed[name] == nil), "\(name) is a \(kind)")
        }
        // And nothing in Sources escapes: every folder there is a target.
        let folders = try FileManager.default.contentsOfDirectory(atPath: Scrolld.packageRoot.appendingPathComponent("Sources").path)
        #expect(Set(folders).subtracting(targets.keys).isEmpty, "folders in Sources that are no target: \(Set(folders).subtracting(targets.keys).sorted())")
    }

    @Test func everySwiftTargetImportsOnlyWhatTheArchitectureAllows() throws {
        var checked = 0
        for (target, kind) in try SourceTree.targets() {
            guard let allowed = Self.allowed[target] else { continue }
            let files = try SourceTree.swiftFiles(of: target, kind: kind)
            #expect(!files.isEmpty, "\(target) has no sources")
            for file in files {
                for module in file.imports {
                    #expect(allowed.contains(module), "\(target)/\(file.name) imports \(module)")
                }
                checked += 1
            }
        }
        #expect(checked > 300)
    }

    @Test func theDaemonsLogicAndTheModelMakeNoSystemCall() throws {
        let targets = try SourceTree.targets()
        let handDeclared = try Regex(#"@_silgen_name|@_extern\b|\bdlsym\b|\bdlopen\b"#)
        for target in Self.withoutSystemCalls {
            let kind = try #require(targets[target])
            for file in try SourceTree.swiftFiles(of: target, kind: kind) {
                for module in file.imports where Self.systemModules.contains(module) {
                    Issue.record("\(target)/\(file.name) imports \(module)")
                }
                let declaresByHand = file.code.contains(handDeclared)
                #expect(!declaresByHand, "\(target)/\(file.name) declares a C function by hand")
            }
        }
    }

    /// No reflection: a library that reads another's private fields through `Mirror` breaks
    /// silently with that library's next release.
    @Test func noSourceReflectsOnAnotherTypesInsides() throws {
        let reflection = try Regex(#"\bMirror\b|\bCustomReflectable\b"#)
        for (target, kind) in try SourceTree.targets() where kind != .testTarget && Self.allowed[target] != nil {
            for file in try SourceTree.swiftFiles(of: target, kind: kind) {
                let reflects = file.code.contains(reflection)
                #expect(!reflects, "\(target)/\(file.name) uses Mirror")
            }
        }
    }

    /// The daemon's logic keeps time by its event loop's clock alone, so a test's virtual time
    /// is the only time it sees.
    @Test func theDaemonsLogicReadsNoClockButTheLoops() throws {
        for file in try SourceTree.swiftFiles(of: "ScrollDaemon", kind: .target) {
            let readsAnotherClock = file.code.contains("MonotonicClock")
            #expect(!readsAnotherClock, "\(file.name) reads a clock other than the loop's")
        }
    }

    /// One pipeline for every connection: the daemon's socket, systemd's, restored ones and
    /// every test's (what the tests exercise is what runs).
    @Test func aConnectionsPipelineIsBuiltInClientPipelineAlone() throws {
        let assembly = try Regex(#"\bLineFrameDecoder\s*\(|\bClientHandler\s*\("#)
        for (target, kind) in try SourceTree.targets() where Self.allowed[target] != nil {
            for file in try SourceTree.swiftFiles(of: target, kind: kind) where file.code.contains(assembly) {
                #expect(target == "ScrollDaemon" && file.name == "ClientPipeline.swift", "\(target)/\(file.name) builds a connection's pipeline")
            }
        }
    }

    /// A system library's shim.h only includes the library's headers, and its module map links
    /// the library and nothing else.
    @Test func aSystemLibraryShimIncludesAndLinksOnlyItsLibrary() throws {
        for (target, expected) in Self.systemLibraries {
            let folder = Scrolld.packageRoot.appendingPathComponent("Sources").appendingPathComponent(target)
            let map = try String(contentsOf: folder.appendingPathComponent("module.modulemap"), encoding: .utf8)
            #expect(try CHeader.quoted(after: "header", in: map) == ["shim.h"], "\(target)'s module map")
            #expect(try CHeader.quoted(after: "link", in: map) == expected.links, "\(target) links")
            let header = try String(contentsOf: folder.appendingPathComponent("shim.h"), encoding: .utf8)
            let lines = CHeader.lines(of: header)
            #expect(Set(lines.compactMap(CHeader.included)) == expected.includes, "\(target)/shim.h includes")
            for line in lines where CHeader.included(line) == nil && !CHeader.isGuard(line) {
                Issue.record("\(target)/shim.h declares something of its own: \(line)")
            }
        }
    }

    /// A compiled shim exports exactly the functions its header declares, each with a `///`
    /// comment saying what it is, and its header includes only what the table allows.
    @Test func aCompiledShimExportsOnlyWhatItsHeaderDocuments() throws {
        for (target, shim) in Self.compiledShims {
            let folder = Scrolld.packageRoot.appendingPathComponent("Sources").appendingPathComponent(target)
            let header = try String(contentsOf: folder.appendingPathComponent(shim.header), encoding: .utf8)
            let lines = CHeader.lines(of: header)
            #expect(Set(lines.compactMap(CHeader.included)) == shim.includes, "\(target)'s header includes")
            // Its definitions would clash with the Glibc module's (the shim's .c defines it).
            #expect(!lines.contains { $0.contains("_GNU_SOURCE") }, "\(target)'s header defines _GNU_SOURCE")
            let declarations = CHeader.declarations(in: header)
            for declaration in declarations where !declaration.documented {
                Issue.record("\(target): \(declaration.name) has no /// comment in its header")
            }
            let declared = Set(declarations.filter(\.isFunction).map(\.name))
            #expect(!declared.isEmpty)
            // What the compiled objects really export (every global symbol they define).
            let objects = SourceTree.files(in: Self.buildFolder.appendingPathComponent("\(target).build"), endingWith: ".o")
            try #require(!objects.isEmpty, "no object of \(target) in \(Self.buildFolder.path)")
            var exported: Set<String> = []
            for object in objects {
                let nm = try Scrolld.runTool("/usr/bin/env", ["nm", "--defined-only", "--extern-only", "--format=just-symbols", Self.buildFolder.appendingPathComponent("\(target).build/\(object)").path])
                try #require(nm.status == 0, "nm: \(nm.stderr)")
                exported.formUnion(nm.lines)
            }
            #expect(exported == declared, "exported, not declared: \(exported.subtracting(declared).sorted()); declared, not exported: \(declared.subtracting(exported).sorted())")
        }
    }

    /// Tests/ScrolldTests: suites by subject, and the code they share in Support/ (no test
    /// there, and no file elsewhere without one).
    @Test func theProcessTestsHarnessIsInSupportAndOnlyThere() throws {
        let files = try SourceTree.swiftFiles(of: "ScrolldTests", kind: .testTarget)
        let test = try Regex(#"@Test\b"#)
        for file in files {
            let isSupport = file.name.hasPrefix("Support/")
            #expect(file.code.contains(test) != isSupport, "\(file.name): \(isSupport ? "a test in Support/" : "no test outside Support/")")
            #expect(file.name.contains("/"), "\(file.name) is in no folder")
        }
    }

    /// Where SwiftPM put this test run's build: the test bundle's folder.
    static let buildFolder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
}

/// Just enough of a C header for the shim checks: its lines without comments, its includes,
/// its declarations and whether a `///` comment comes right before each.
enum CHeader {
    /// The header's non-blank lines with comments removed.
    static func lines(of text: String) -> [String] {
        let comment = try! Regex(#"/\*[\s\S]*?\*/|//[^\n]*"#)
        return text.replacing(comment, with: "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// `#include <X>` or `#include "X"`: X.
    static func included(_ line: String) -> String? {
        guard let match = try? Regex(#"^#\s*include\s*[<"]([^>"]+)[>"]"#).firstMatch(in: line) else { return nil }
        return match.output[1].substring.map(String.init)
    }

    /// The quoted words after `keyword` in a module map: `link "input"` → input.
    static func quoted(after keyword: String, in text: String) throws -> Set<String> {
        let pattern: String = #"\b"# + keyword + #"\s+"([^"]+)""#
        let matches = text.matches(of: try Regex(pattern))
        return Set(matches.compactMap { match -> String? in match.output[1].substring.map(String.init) })
    }

    /// An include guard's lines.
    static func isGuard(_ line: String) -> Bool {
        line.hasPrefix("#ifndef ") || line.hasPrefix("#define ") && line.split(separator: " ").count == 2 || line == "#endif"
    }

    struct Declaration {
        var name: String
        var isFunction: Bool
        var documented: Bool
    }

    /// The functions and types a header declares, at file scope.
    static func declarations(in text: String) -> [Declaration] {
        let functionDeclaration = try! Regex(#"^[A-Za-z_][\w\s\*]*?\b(\w+)\s*\([^)]*\)\s*;"#)
        let typedefEnd = try! Regex(#"^\}\s*(\w+)\s*;"#)
        var result: [Declaration] = []
        var documented = false
        var depth = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("///") { documented = true; continue }
            if line.hasPrefix("//") || line.hasPrefix("#") || line.isEmpty {
                if !line.hasPrefix("//") { documented = false }
                continue
            }
            if depth == 0, let function = try? functionDeclaration.firstMatch(in: line), let name = function.output[1].substring {
                result.append(Declaration(name: String(name), isFunction: true, documented: documented))
            } else if depth == 0, line.hasPrefix("typedef") {
                result.append(Declaration(name: "typedef", isFunction: false, documented: documented))
            } else if depth == 1, let closing = try? typedefEnd.firstMatch(in: line), let name = closing.output[1].substring, result.last?.name == "typedef" {
                result[result.count - 1].name = String(name)
            }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if depth == 0 { documented = false }
        }
        return result
    }
}
