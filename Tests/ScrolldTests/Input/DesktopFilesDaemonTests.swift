import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// KDE's files as anyone in the session may write them (docs/design.md §23), on a live daemon:
/// rewritten as fast as a program can, holding names made to forge log lines, or too large to
/// read. The daemon stays responsive, and its log stays short printable lines that say what
/// was and was not followed.
@Suite(.serialized) struct DesktopFilesDaemonTests {
    static let followed = "following desktop:kde: "

    static func kdeDaemon(_ home: URL, config: String = "", arguments: [String] = []) throws -> DaemonProcess {
        try DaemonProcess(config: config, arguments: arguments, environment: ["XDG_CONFIG_HOME": home.path, "XDG_CURRENT_DESKTOP": "KDE"])
    }

    static func lines(_ text: String, containing part: String) -> [Substring] {
        text.split(separator: "\n").filter { $0.contains(part) }
    }

    /// kdeglobals rewritten 2000 times in a burst, each flipping reduced motion, with ~1000
    /// containers for each change to resolve: the daemon keeps serving, ends at the last files'
    /// values, and the recording has one `desktop` command per change applied, as the log has
    /// one line. How many are merged depends on how fast the files are written against how
    /// fast the loop works, so that is `DesktopSinkTests`' to show, on an embedded loop.
    @Test func aBurstOfRewritesIsMergedAndEndsAtTheLastValues() throws {
        let writes = 2000
        let home = try DesktopSettingsDaemonTests.kdeHome(
            kcminputrc: "[Libinput][Defaults][Pointer]\nNaturalScroll=false\n", kdeglobals: "[KDE]\nAnimationDurationFactor=1\n"
        )
        let config = (0..<998).map { "[containers.c\($0)]\ncontainerSize = \"400x300\"\n" }.joined()
        let recording = try Scrolld.temporaryFile("", name: "burst.scrolllog")
        let daemon = try Self.kdeDaemon(home, config: config, arguments: ["--record", recording])
        defer { daemon.stop() }
        #expect(daemon.waitForLog(Self.followed + "mice: natural scrolling off (desktop:kde); reduced motion off"), "\(daemon.stderr)")

        let kdeglobals = home.appendingPathComponent("kdeglobals")
        for write in 1...writes {
            // Animations off (0) last.
            try DesktopSettingsDaemonTests.write("[KDE]\nAnimationDurationFactor=\((writes - write) % 2)\n", to: kdeglobals)
        }
        // Written after the last kdeglobals: settings that hold it hold that one's value too.
        try DesktopSettingsDaemonTests.write("[Libinput][Defaults][Pointer]\nNaturalScroll=true\n", to: home.appendingPathComponent("kcminputrc"))
        let last = "mice: natural scrolling on (desktop:kde); reduced motion on (desktop:kde)"
        #expect(waitUntil(timeout: 120) { Self.lines(daemon.stderr, containing: Self.followed).last?.hasSuffix(last) == true }, "\(daemon.stderr.suffix(2000))")
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        _ = client.read(type: "welcome")
        #expect(client.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        #expect(daemon.stop() == 0)

        let applied = Self.lines(daemon.stderr, containing: Self.followed)
        let commands = Self.lines(try String(contentsOfFile: recording, encoding: .utf8), containing: #""type":"desktop""#)
        #expect(!applied.isEmpty && applied.count <= writes, "\(applied.count) changes applied for \(writes) writes")
        #expect(commands.count == applied.count)
        let final = try #require(commands.last)
        #expect(final.contains(#""devices":"mice","natural_scrolling":true"#), "\(final)")
        #expect(final.contains(#""reduced_motion":{"value":true,"source":"desktop:kde"}"#), "\(final)")
    }

    /// A device group whose name KConfig unescapes to a line break and a terminal escape is
    /// logged with TOML's escapes: no forged line, no escape byte.
    @Test func aDeviceNameCannotForgeALogLine() throws {
        let home = try DesktopSettingsDaemonTests.kdeHome(kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n")
        let daemon = try Self.kdeDaemon(home)
        defer { daemon.stop() }
        #expect(daemon.waitForLog(Self.followed + "touchpads: natural scrolling on"), "\(daemon.stderr)")
        let forged = #"[Libinput][1][2][evil\nscrolld: critical: FORGED LINE \x1b[31mred]"# + "\nNaturalScroll=true\n"
        try DesktopSettingsDaemonTests.write(forged, to: home.appendingPathComponent("kcminputrc"))
        #expect(daemon.waitForLog(Self.followed + #""evil\nscrolld: critical: FORGED LINE \u001B[31mred": natural scrolling on (desktop:kde)"#), "\(daemon.stderr)")
        let log = daemon.stderr
        #expect(!log.split(separator: "\n").contains { $0.hasPrefix("scrolld: critical: FORGED") }, "\(log)")
        #expect(!log.unicodeScalars.contains("\u{1B}"), "\(log)")
    }

    /// 256 device groups with names of 15 000 bytes (a file just under the limit): the line
    /// quotes a few names cut at 100 characters and counts the rules, rather than being 4 MB.
    @Test func manyLongNamesMakeOneShortLine() throws {
        let home = try DesktopSettingsDaemonTests.kdeHome(kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n")
        let daemon = try Self.kdeDaemon(home)
        defer { daemon.stop() }
        #expect(daemon.waitForLog(Self.followed + "touchpads: natural scrolling on"), "\(daemon.stderr)")
        let groups = (0..<256).map { "[Libinput][1][2][\(String(format: "%03d", $0))\(String(repeating: "n", count: 15_000))]\nNaturalScroll=false\n" }
        try DesktopSettingsDaemonTests.write(groups.joined(), to: home.appendingPathComponent("kcminputrc"))
        #expect(daemon.waitForLog("more rules (256 in all)"), "\(daemon.stderr.prefix(2000))")
        let line = try #require(Self.lines(daemon.stderr, containing: Self.followed).last)
        #expect(line.utf8.count < 4000, "\(line.prefix(2000))")
        #expect(line.contains(#""000nnnn"#) && line.contains(#"…" (15003 bytes): natural scrolling off (desktop:kde)"#), "\(line.prefix(2000))")
    }

    /// A kdeglobals over 4 MiB is not read, and the log says so with the file and the limit,
    /// once while it stays so (kcminputrc rewritten twice meanwhile), and again after it was
    /// read again in between; removed, it is said to be gone.
    @Test func aFileOverTheLimitIsNamedInTheLogOncePerChange() throws {
        let home = try DesktopSettingsDaemonTests.kdeHome(
            kcminputrc: "[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n", kdeglobals: "[KDE]\nAnimationDurationFactor=0\n"
        )
        let daemon = try Self.kdeDaemon(home)
        defer { daemon.stop() }
        #expect(daemon.waitForLog(Self.followed + "touchpads: natural scrolling on (desktop:kde); reduced motion on"), "\(daemon.stderr)")
        let kdeglobals = home.appendingPathComponent("kdeglobals")
        let kcminputrc = home.appendingPathComponent("kcminputrc")
        let oversized = "[KDE]\nAnimationDurationFactor=0\n" + String(repeating: "#", count: 5_000_000) + "\n"
        let warning = "\(kdeglobals.path) is over 4 MiB: not read; the desktop's settings from it are not followed"

        try DesktopSettingsDaemonTests.write(oversized, to: kdeglobals)
        #expect(daemon.waitForLog(warning), "\(daemon.stderr)")
        try DesktopSettingsDaemonTests.write("[Libinput][Defaults][Touchpad]\nNaturalScroll=false\n", to: kcminputrc)
        #expect(daemon.waitForLog(Self.followed + "touchpads: natural scrolling off (desktop:kde)\n"), "\(daemon.stderr)")
        try DesktopSettingsDaemonTests.write("[Libinput][Defaults][Touchpad]\nNaturalScroll=true\n", to: kcminputrc)
        #expect(waitUntil(timeout: 30) { Self.lines(daemon.stderr, containing: Self.followed).last?.hasSuffix("touchpads: natural scrolling on (desktop:kde)") == true }, "\(daemon.stderr)")
        #expect(Self.lines(daemon.stderr, containing: warning).count == 1, "\(daemon.stderr)")

        try DesktopSettingsDaemonTests.write("[KDE]\nAnimationDurationFactor=0\n", to: kdeglobals)
        #expect(daemon.waitForLog("\(kdeglobals.path) is read again"), "\(daemon.stderr)")
        try DesktopSettingsDaemonTests.write(oversized, to: kdeglobals)
        #expect(waitUntil(timeout: 30) { Self.lines(daemon.stderr, containing: warning).count == 2 }, "\(daemon.stderr)")

        // Removed while unread: it is gone, not read again.
        try FileManager.default.removeItem(at: kdeglobals)
        #expect(daemon.waitForLog("\(kdeglobals.path) is gone"), "\(daemon.stderr)")
        #expect(Self.lines(daemon.stderr, containing: "\(kdeglobals.path) is read again").count == 1, "\(daemon.stderr)")
    }
}
