import Foundation
import Testing

/// docs/images/sticky-push-off.svg is drawn from states scrolld computes
/// (scripts/sticky-push-off-plot.py runs `scrolld replay` on a drag through four sections): the
/// committed picture is what the script makes now, and the states it draws from pin each
/// section's header and push it off as docs/design.md §21 says.
@Suite("The sticky push-off picture")
struct StickyPushOffPlotTests {
    @Test func theCommittedPictureIsWhatTheScriptDraws() throws {
        let script = Scrolld.packageRoot.appendingPathComponent("scripts/sticky-push-off-plot.py").path
        let drawn = try Scrolld.runTool("/usr/bin/env", ["python3", script, Scrolld.binary.path])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let committed = try Data(contentsOf: Scrolld.packageRoot.appendingPathComponent("docs/images/sticky-push-off.svg"))
        #expect(drawn.stdout == committed, "regenerate it: python3 scripts/sticky-push-off-plot.py > docs/images/sticky-push-off.svg")
        // One line per section (rows 0, 5, 12 and 20): each was pinned in turn.
        let text = String(decoding: drawn.stdout, as: UTF8.self)
        #expect(text.components(separatedBy: "<polyline").count == 5)
    }
}
