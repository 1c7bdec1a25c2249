import Foundation
@testable import ScrollClient
import ScrollModel
import ScrollProtocol
import Testing

/// docs/design.md §21 through the Swift client against a real daemon: the settings, the state's
/// `stickyRow` and `refreshing`, `beginRefresh`/`endRefresh` and the two observations.
@Suite("ScrollClient app bars against a real scrolld")
struct ScrollClientAppBarTests {
    /// 30 rows of 50 px, sections at rows 0, 5 and 12 (tops 0, 250, 600), pull to refresh 80/60.
    static let feed = ContainerSettings(
        containerSize: Size(width: 400, height: 300),
        rows: .describe(.init(count: 30, height: 50, sticky: [0, 5, 12])),
        refresh: .pull(threshold: 80, height: 60)
    )

    @Test func stickyRowsAndAQuickReturnHeader() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        #expect(client.welcome.features.contains("appbars"))
        try await client.configure("feed", Self.feed)
        var sticky = client.observe("feed", .stickyRow).makeAsyncIterator()
        #expect(try await sticky.next()?.new == 0)
        try await client.scroll("feed", to: ScrollPosition(y: 230), animation: .none)
        // Pushed off by row 5: drawn at r₅ − h₀ = 200.
        #expect(try await client.get("feed").stickyRow == StickyRow(row: 0, top: 200))
        try await client.scroll("feed", to: ScrollPosition(y: 600), animation: .none)
        let change = try #require(try await sticky.next())
        #expect(change.old == 0 && change.new == 12)

        try await client.configure("bar", ContainerSettings(
            containerSize: Size(width: 400, height: 300), contentSize: Size(width: 400, height: 5000),
            header: .init(minHeight: 20, maxHeight: 100, snap: false, mode: .enterAlways)
        ))
        try await client.scroll("bar", to: ScrollPosition(y: 2000), animation: .none)
        try await client.scroll("bar", by: AxisValues(y: -30), animation: .none)
        #expect(try await client.get("bar").header == HeaderState(height: 50, progress: 0.625))
    }

    @Test func beginAndEndRefresh() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("feed", Self.feed)
        var refreshing = client.observe("feed", .refreshing).makeAsyncIterator()
        #expect(try await refreshing.next()?.new == false)
        #expect(try await client.get("feed").refreshing == false)
        try await client.beginRefresh("feed")
        #expect(try await refreshing.next()?.new == true)
        try await client.scroll("feed", to: ScrollPosition(y: -100), animation: .none)
        #expect(try await client.get("feed").contentOffset.y == -60)
        try await client.endRefresh("feed")
        #expect(try await refreshing.next()?.new == false)
        try await client.configure("plain", ContainerSettings())
        await #expect(throws: ScrollClientError.self) { try await client.beginRefresh("plain") }
        try await client.configure("feed", ContainerSettings(refresh: ContainerSettings.Refresh.none))
        #expect(try await client.get("feed").refreshing == nil)
    }
}

/// A reconnecting client creates its containers again (docs/design.md §20): sticky indices that
/// name rows of later runs follow the inserts, so the first `configure` is never refused.
@Suite("ScrollClient's description of app bars")
struct ScrollClientAppBarDescriptionTests {
    @Test func stickyRowsFollowTheInsertsAndRefreshIsKept() {
        var description = ContainerDescription()
        description.apply(ContainerSettings(rows: .describe(.init(count: 10, height: 44, sticky: [0, 12])), refresh: .pull(threshold: 80, height: 60)))
        description.apply(ContainerSettings(rows: .insert(at: 10, count: 5, height: 60)))
        description.apply(ContainerSettings(header: .init(maxHeight: 100, mode: .enterAlways)))
        let requests = description.configures(owned: false)
        #expect(requests.count == 3)
        let first = Dictionary(requests[0], uniquingKeysWith: { $1 })
        #expect(first["rows"] == .object([("count", .integer(10)), ("height", .double(44))]))
        #expect(first["refresh"] == .object([("threshold", .double(80)), ("height", .double(60))]))
        #expect(first["header"] == .object([("maxHeight", .double(100)), ("mode", .string("enterAlways"))]))
        #expect(requests[2].map(\.0) == ["rows"])
        #expect(requests[2].first?.1 == .object([("sticky", .array([.integer(0), .integer(12)]))]))
    }
}
