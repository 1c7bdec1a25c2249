import Foundation
import Testing

/// Keys in an old spelling (docs/decisions.md, "One spelling per key") still configure what they
/// always did; `scrolld check-config` passes the file and says, at each key's line, which key to
/// write instead.
@Suite("Deprecated key spellings: check-config")
struct DeprecatedKeysTests {
    static let old = """
        [containers.main]
        axes = "both"
        container_size = "400x300"

        [containers.list]
        content_size = [400, 2000]
        content_insets = { top = 10 }
        """

    @Test func checkConfigPrintsTheNewKeyForEachOldSpelling() throws {
        let file = try Scrolld.temporaryFile(Self.old, name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", file])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.lines == ["\(file): ok", "containers: main, list"])
        #expect(check.stderr == """
            \(file):3: warning: containers.main.container_size: deprecated spelling; use containers.main.containerSize
            \(file):6: warning: containers.list.content_size: deprecated spelling; use containers.list.contentSize
            \(file):7: warning: containers.list.content_insets: deprecated spelling; use containers.list.insets

            """, "\(check.stderr)")
    }

    /// The same file in the canonical spellings, and `contentInsets` (docs/design.md §7's name
    /// for `insets`), says nothing.
    @Test func checkConfigIsQuietAboutTheCanonicalSpellings() throws {
        let canonical = """
            [containers.main]
            axes = "both"
            containerSize = "400x300"

            [containers.list]
            contentSize = [400, 2000]
            insets = { top = 10 }

            [containers.side]
            contentInsets = [0, 0, 20, 0]
            """
        let file = try Scrolld.temporaryFile(canonical, name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", file])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.lines == ["\(file): ok", "containers: main, list, side"])
        #expect(check.stderr.isEmpty, "\(check.stderr)")
    }
}
