import Foundation
import ScrollClient
import ScrollModel
import ScrollProtocol
import Testing

/// docs/design.md §22 through the Swift client against a real daemon: the gesture keys, the
/// state's scroll indicators and `flashIndicators`.
@Suite("ScrollClient: gestures and scroll indicators")
struct ScrollClientGestureTests {
    /// 400 × 300 over 1200: T = 300, l = 300 · 300 / 1200 = 75, hi = 900.
    static let canvas = ContainerSettings(
        containerSize: Size(width: 400, height: 300), contentSize: Size(width: 400, height: 1200),
        gestures: .init(indicatorLingerMilliseconds: 300)
    )

    @Test func indicatorsInStatesAndTheirHide() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        #expect(client.welcome.features.contains("gestures"))
        try await client.configure("canvas", Self.canvas)
        var states = client.states(of: "canvas").makeAsyncIterator()
        let first = try #require(try await states.next())
        #expect(first.indicators == ScrollIndicators(y: ScrollIndicator(offset: 0, length: 75, visible: false)))
        try await client.scroll("canvas", to: ScrollPosition(y: 450), animation: .none)
        let moved = try #require(try await states.next())
        // o = (300 − 75) × 450 / 900, shown since the offset changed.
        #expect(moved.indicators?.y == ScrollIndicator(offset: 112.5, length: 75, visible: true))
        let hidden = try #require(try await states.next())
        #expect(hidden.time == moved.time + 300_000)
        #expect(hidden.indicators?.y == ScrollIndicator(offset: 112.5, length: 75, visible: false))

        // Under a deadline that only catches a hang: a flash that published nothing would leave
        // the stream waiting.
        let flash = try await withinHangDeadline("the flash's two states") { () -> [ContainerState] in
            var states = client.states(of: "canvas").makeAsyncIterator()
            _ = try await states.next()
            try await client.flashIndicators("canvas")
            var seen: [ContainerState] = []
            while seen.count < 2, let state = try await states.next() { seen.append(state) }
            return seen
        }
        let shown = try #require(flash)
        try #require(shown.count == 2)
        #expect(shown[0].indicators?.y?.visible == true)
        #expect(shown[1].indicators?.y?.visible == false)
        #expect(shown[1].time == shown[0].time + 300_000)
    }

    @Test func theGestureKeysReachTheDaemon() async throws {
        let daemon = try DaemonProcess()
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        try await client.configure("cards", ContainerSettings(
            containerSize: Size(width: 300, height: 200), contentSize: Size(width: 3000, height: 200), axes: .horizontal,
            scrollTarget: .paging,
            gestures: .init(directionalLock: true, bounce: .basedOnSize, snapType: .proximity, snapProximity: 40, snapStop: true, indicatorMinLength: 50)
        ))
        // l = max(50, 300 · 300 / 3000).
        #expect(try await client.get("cards").indicators == ScrollIndicators(x: ScrollIndicator(offset: 0, length: 50, visible: false)))
        await #expect(throws: ScrollClientError.self) {
            try await client.configure("cards", ContainerSettings(gestures: .init(snapProximity: -1)))
        }
        await #expect(throws: ScrollClientError.daemon(code: .unknownContainer, message: "unknown container \"nope\"")) {
            try await client.flashIndicators("nope")
        }
    }
}
