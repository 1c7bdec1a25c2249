import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `make install` and `make uninstall` into a scratch DESTDIR, with the debug binaries the tests
/// already built: SKIP_BUILD because a second SwiftPM would wait forever for the lock on .build
/// that `swift test` holds, and CONFIGURATION=debug because a release build would take minutes
/// of CI. The release path differs only in which folder the binaries are copied from.
@Suite("make install and uninstall")
struct InstallTests {
    static let root = Scrolld.packageRoot

    static func makeDestdir() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-destdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func install(_ destdir: URL, _ extra: [String] = ["PREFIX=/usr"], target: String = "install") throws -> Make.Result {
        try Make.run([target, "DESTDIR=\(destdir.path)", "CONFIGURATION=debug", "SKIP_BUILD=1", "BIN_DIR=\(Make.binDirectory)"] + extra)
    }

    /// Every file (not directory) under `root`, relative, with its permission bits.
    static func files(under root: URL) -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        for (path, mode) in entries(under: root) where mode & S_IFMT != S_IFDIR {
            result[path] = mode & 0o7777
        }
        return result
    }

    static func directories(under root: URL) -> Set<String> {
        Set(entries(under: root).filter { $0.value & S_IFMT == S_IFDIR }.keys)
    }

    static func entries(under root: URL) -> [String: mode_t] {
        var result: [String: mode_t] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return result }
        while let relative = walker.nextObject() as? String {
            var info = stat()
            guard lstat(root.path + "/" + relative, &info) == 0 else { continue }
            result[relative] = info.st_mode
        }
        return result
    }

    static func sourceNames(_ directory: String, suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(directory).path)
            .filter { $0.hasSuffix(suffix) }.sorted()
    }

    static func text(_ url: URL) throws -> String { try String(contentsOf: url, encoding: .utf8) }

    /// The files an install under PREFIX puts in place, and their modes.
    static func expectedFiles(prefix: String) throws -> [String: mode_t] {
        var expected: [String: mode_t] = [
            "\(prefix)/bin/scrolld": 0o755,
            "\(prefix)/bin/scrollctl": 0o755,
            "\(prefix)/lib/systemd/user/scrolld.service": 0o644,
            "\(prefix)/lib/systemd/user/scrolld.socket": 0o644,
            "\(prefix)/share/man/man1/scrolld.1": 0o644,
            "\(prefix)/share/man/man1/scrollctl.1": 0o644,
            "\(prefix)/share/bash-completion/completions/scrolld": 0o644,
            "\(prefix)/share/bash-completion/completions/scrollctl": 0o644,
            "\(prefix)/share/zsh/site-functions/_scrolld": 0o644,
            "\(prefix)/share/zsh/site-functions/_scrollctl": 0o644,
            "\(prefix)/share/fish/vendor_completions.d/scrolld.fish": 0o644,
            "\(prefix)/share/fish/vendor_completions.d/scrollctl.fish": 0o644,
            "\(prefix)/share/doc/scrolld/README.md": 0o644,
            // /etc whatever the prefix: scrolld's search path ends in /etc/xdg, never PREFIX/etc.
            "etc/xdg/scrolld/scrolld.toml": 0o644,
        ]
        // docs/ beside the README, as in the tree, so the README's links work where installed.
        for doc in try sourceNames("docs", suffix: ".md") { expected["\(prefix)/share/doc/scrolld/docs/\(doc)"] = 0o644 }
        expected["\(prefix)/share/doc/scrolld/docs/images/demo-plot.png"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/drawing-a-state.svg"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/sticky-push-off.svg"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/appbars-demo-refreshing.png"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/appbars-demo-pushed-off.png"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/kiosk-demo.png"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/kiosk-demo-scrolled.png"] = 0o644
        expected["\(prefix)/share/doc/scrolld/docs/images/web-demo.png"] = 0o644
        let examples = try sourceNames("examples", suffix: ".toml") + ["client.py", "client.sh", "demo.scrolllog", "feed.py"]
        for example in examples { expected["\(prefix)/share/doc/scrolld/examples/\(example)"] = 0o644 }
        return expected
    }

    @Test func installPutsEachFileInPlaceAndUninstallRemovesExactlyThose() throws {
        let destdir = try Self.makeDestdir()
        defer { try? FileManager.default.removeItem(at: destdir) }
        // Someone else's file in a shared directory: uninstall must leave it, and its directory.
        let bin = destdir.appendingPathComponent("usr/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(to: bin.appendingPathComponent("other-tool"), atomically: true, encoding: .utf8)

        let install = try Self.install(destdir)
        #expect(install.status == 0, "\(install.output)")
        var expected = try Self.expectedFiles(prefix: "usr")
        expected["usr/bin/other-tool"] = Self.files(under: destdir)["usr/bin/other-tool"]
        let installed = Self.files(under: destdir)
        #expect(Set(installed.keys) == Set(expected.keys))
        for (path, mode) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(installed[path] == mode, "\(path): mode \(String(installed[path] ?? 0, radix: 8)), expected \(String(mode, radix: 8))")
        }

        // The binaries are the built ones, byte for byte, and run from where they were put.
        for tool in ["scrolld", "scrollctl"] {
            let built = try Data(contentsOf: URL(fileURLWithPath: Make.binDirectory + "/" + tool))
            #expect(try Data(contentsOf: destdir.appendingPathComponent("usr/bin/\(tool)")) == built, "\(tool)")
        }
        let version = try Scrollctl.run(["--version"], executable: destdir.appendingPathComponent("usr/bin/scrolld"))
        #expect(version.status == 0)
        #expect(version.output == "0.1.0\n")

        // The installed unit starts the installed binary; every other line is the source's.
        let unit = try Self.text(destdir.appendingPathComponent("usr/lib/systemd/user/scrolld.service"))
        let source = try Self.text(Self.root.appendingPathComponent("systemd/scrolld.service"))
        let execStart = unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        #expect(execStart == ["ExecStart=/usr/bin/scrolld run"])
        #expect(FileManager.default.isExecutableFile(atPath: destdir.path + "/usr/bin/scrolld"))
        let unitLines = unit.split(separator: "\n", omittingEmptySubsequences: false)
        let sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(unitLines.count == sourceLines.count)
        #expect(zip(unitLines, sourceLines).filter { $0 != $1 }.map { "\($1) -> \($0)" } == ["ExecStart=/usr/local/bin/scrolld run -> ExecStart=/usr/bin/scrolld run"])
        #expect(try Self.text(destdir.appendingPathComponent("usr/lib/systemd/user/scrolld.socket"))
                == Self.text(Self.root.appendingPathComponent("systemd/scrolld.socket")))

        // Man pages, docs and the configuration are the tree's.
        for page in ["scrolld.1", "scrollctl.1"] {
            #expect(try Self.text(destdir.appendingPathComponent("usr/share/man/man1/\(page)"))
                    == Self.text(Self.root.appendingPathComponent("man/\(page)")))
        }
        #expect(try Self.text(destdir.appendingPathComponent("etc/xdg/scrolld/scrolld.toml"))
                == Self.text(Self.root.appendingPathComponent("config/scrolld.toml")))

        // The daemon's search path finds the installed configuration under the XDG directory
        // it was installed into (here DESTDIR/etc/xdg standing in for /etc/xdg).
        let emptyHome = try Self.makeDestdir()
        defer { try? FileManager.default.removeItem(at: emptyHome) }
        let found = try Scrollctl.run(
            ["check-config"], executable: destdir.appendingPathComponent("usr/bin/scrolld"),
            environment: ["XDG_CONFIG_HOME": emptyHome.path, "XDG_CONFIG_DIRS": destdir.path + "/etc/xdg"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.output.hasPrefix(destdir.path + "/etc/xdg/scrolld/scrolld.toml: ok\n"))

        // Completions: one per shell and tool, naming every subcommand; bash's parses.
        let subcommands = [
            "scrolld": ["run", "replay", "record", "import-debug-events", "devices", "check-config"],
            "scrollctl": ["watch", "get", "scroll-to", "scroll-by", "configure", "pause", "resume", "devices", "reload", "ping"],
        ]
        for (tool, commands) in subcommands {
            for path in ["usr/share/bash-completion/completions/\(tool)", "usr/share/zsh/site-functions/_\(tool)",
                         "usr/share/fish/vendor_completions.d/\(tool).fish"] {
                let script = try Self.text(destdir.appendingPathComponent(path))
                #expect(script.contains(tool), "\(path)")
                for command in commands { #expect(script.contains(command), "\(path) lacks \(command)") }
            }
            let syntax = try Scrollctl.run(["-n", destdir.path + "/usr/share/bash-completion/completions/\(tool)"],
                                           executable: URL(fileURLWithPath: "/bin/bash"))
            #expect(syntax.status == 0, "\(syntax.stderr)")
        }

        // Every relative link of the installed README and docs (files, images) resolves there.
        let docdir = destdir.appendingPathComponent("usr/share/doc/scrolld")
        let pages = ["README.md"] + (try Self.sourceNames("docs", suffix: ".md")).map { "docs/" + $0 }
        for page in pages {
            let text = try String(contentsOf: docdir.appendingPathComponent(page), encoding: .utf8)
            let folder = docdir.appendingPathComponent(page).deletingLastPathComponent()
            for match in text.matches(of: /\]\(([^)#\s]+)(#[^)]*)?\)/) where !match.1.contains(":") {
                let target = folder.appendingPathComponent(String(match.1)).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(page) links to \(match.1), not installed")
            }
        }

        let uninstall = try Self.install(destdir, target: "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(Self.files(under: destdir) == ["usr/bin/other-tool": 0o644])
        // scrolld's own directories are gone; the shared ones install made stay, empty.
        let left = Self.directories(under: destdir)
        for own in ["usr/share/doc/scrolld", "etc/xdg/scrolld"] { #expect(!left.contains(own), "\(own)") }
        #expect(left.contains("usr/bin"))
        #expect(left.contains("usr/lib/systemd/user"))
    }

    @Test func defaultPrefixIsUsrLocalWithTheConfigurationStillInEtcXdg() throws {
        let destdir = try Self.makeDestdir()
        defer { try? FileManager.default.removeItem(at: destdir) }
        let install = try Self.install(destdir, [])
        #expect(install.status == 0, "\(install.output)")
        #expect(Set(Self.files(under: destdir).keys) == Set(try Self.expectedFiles(prefix: "usr/local").keys))
        let unit = try Self.text(destdir.appendingPathComponent("usr/local/lib/systemd/user/scrolld.service"))
        #expect(unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == ["ExecStart=/usr/local/bin/scrolld run"])
        let uninstall = try Self.install(destdir, [], target: "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(Self.files(under: destdir).isEmpty)
    }

    @Test func anEditedConfigurationSurvivesInstallAndUninstall() throws {
        let destdir = try Self.makeDestdir()
        defer { try? FileManager.default.removeItem(at: destdir) }
        let conf = destdir.appendingPathComponent("etc/xdg/scrolld/scrolld.toml")
        try FileManager.default.createDirectory(at: conf.deletingLastPathComponent(), withIntermediateDirectories: true)
        let edited = "[daemon]\nframe_rate = 60\n"
        try edited.write(to: conf, atomically: true, encoding: .utf8)

        let install = try Self.install(destdir)
        #expect(install.status == 0, "\(install.output)")
        #expect(install.output.contains("keeping \(conf.path): it differs from config/scrolld.toml"))
        #expect(try Self.text(conf) == edited)

        let uninstall = try Self.install(destdir, target: "uninstall")
        #expect(uninstall.status == 0, "\(uninstall.output)")
        #expect(try Self.text(conf) == edited)
        #expect(Self.files(under: destdir).keys.sorted() == ["etc/xdg/scrolld/scrolld.toml"])
    }

    @Test func installWithoutBuiltBinariesSaysWhatToRun() throws {
        let destdir = try Self.makeDestdir()
        defer { try? FileManager.default.removeItem(at: destdir) }
        let empty = try Self.makeDestdir()
        defer { try? FileManager.default.removeItem(at: empty) }
        let install = try Make.run(["install", "DESTDIR=\(destdir.path)", "SKIP_BUILD=1", "BIN_DIR=\(empty.path)"])
        #expect(install.status != 0)
        #expect(install.output.contains("\(empty.path)/scrolld is missing: run 'make release' first"))
        #expect(Self.files(under: destdir).isEmpty)
    }
}
