import Foundation
import Testing

// The Swift example of docs/clients.md, as written there (a test below checks the two are the
// same text), and run against a real daemon.
// docs/clients.md example begins
import ScrollClient
import ScrollModel
import ScrollProtocol

/// A list of 100 rows of 44 px under a header that collapses from 200 to 60 px: scroll row 50
/// to the centre and hear which rows are visible, only when that changes.
func centreRowFifty(socket: String) async throws -> [String] {
    let scrolld = try await ScrollClient.connect(socket: socket)
    defer { scrolld.close() }
    // `owned`: the container goes when this connection does.
    try await scrolld.configure("feed", [
        ConfigureSetting(key: "containerSize", value: .object([("width", .integer(400)), ("height", .integer(600))])),
        ConfigureSetting(key: "header", value: .object([("min_height", .integer(60)), ("max_height", .integer(200))])),
        ConfigureSetting(key: "rows", value: .object([("count", .integer(100)), ("height", .integer(44))])),
    ], owned: true)
    var printed: [String] = []
    var rows = scrolld.observe("feed", .visibleRows).makeAsyncIterator()
    printed.append("visible rows: \(try await rows.next()!.new)")
    try await scrolld.scroll("feed", to: .row(50, anchor: .center), animation: .none)
    printed.append("visible rows: \(try await rows.next()!.new)")
    let state = try await scrolld.get("feed").state
    printed.append("offset \(state.contentOffset.y), header \(state.header!.height) px")
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
            #"visible rows: {"first":0,"last":8}"#,
            #"visible rows: {"first":43,"last":56}"#,
            "offset 2092.0, header 60.0 px",
        ])
        #expect(document.contains(printed.joined(separator: "\n")))
    }
}
