import Foundation
import Testing

// The Swift example of docs/clients.md, as written there (a test below checks the two are the
// same text), and run against a real daemon.
// docs/clients.md example begins
import ScrollClient

/// A list of 100 rows of 44 px under a header that collapses from 200 to 60 px: scroll row 50
/// to the centre and hear which rows are visible, only when that changes.
func centreRowFifty(socket: String) async throws(ScrollClientError) -> [String] {
    let scrolld = try await ScrollClient.connect(socket: socket)
    defer { scrolld.close() }
    // `owned`: the container goes when this connection does.
    try await scrolld.configure("feed", ContainerSettings(
        containerSize: Size(width: 400, height: 600),
        header: .init(minHeight: 60, maxHeight: 200),
        rows: .uniform(count: 100, height: 44)
    ), owned: true)
    var printed: [String] = []
    var rows = scrolld.observe("feed", .visibleRows).makeAsyncIterator()
    var phases = scrolld.observe("feed", .phase).makeAsyncIterator()
    if let rows = try await rows.next()?.new {
        printed.append("visible rows: \(rows.first!)…\(rows.last!)")
    }
    try await scrolld.scroll("feed", to: .row(50, anchor: .center), animation: .none)
    if let rows = try await rows.next()?.new {
        printed.append("visible rows: \(rows.first!)…\(rows.last!)")
    }
    let state = try await scrolld.get("feed")
    printed.append("offset \(state.contentOffset.y), header \(state.header!.height) px, \(try await phases.next()!.new)")
    do {
        try await scrolld.scroll("feed", to: ScrollPosition(y: .nan))
    } catch .daemon(let code, let message) {
        printed.append("\(code.rawValue): \(message)")
    }
    return printed
}
// docs/clients.md example ends

@Suite("docs/clients.md: the Swift example")
struct ScrollClientDocTests {
    @Test func theExampleIsTheDocumentsAndItPrintsWhatTheDocumentSays() async throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let example = try #require(source.components(separatedBy: "// docs/clients.md example begins\n").last?.components(separatedBy: "// docs/clients.md example ends").first)
        let document = try String(contentsOf: Scrolld.packageRoot.appendingPathComponent("docs/clients.md"), encoding: .utf8)
        #expect(document.contains("```swift\n" + example + "```\n"))

        let daemon = try DaemonProcess()
        let printed = try await centreRowFifty(socket: daemon.socketPath)
        #expect(printed == [
            "visible rows: 0…8",
            "visible rows: 43…56",
            "offset 2092.0, header 60.0 px, idle",
            #"invalid_value: invalid "y": expected a finite number, got nan"#,
        ])
        #expect(document.contains(printed.joined(separator: "\n")))
    }
}
