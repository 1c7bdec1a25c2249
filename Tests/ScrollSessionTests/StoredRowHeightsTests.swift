import ScrollConfig
import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// docs/design.md "Limits": the row heights stored over every container are bounded, explicit
/// heights one each and a run of equal heights one, so a client's heights cannot grow the
/// daemon without end; a refused configure changes nothing.
@Suite("Stored row heights")
struct StoredRowHeightsTests {
    /// `count` explicit heights, alternating so that none joins a run.
    static func rows(explicit count: Int) -> ConfigureSetting {
        ConfigureSetting(key: "rows", value: .object([("heights", .array((0..<count).map { .integer(1 + $0 % 2) }))]))
    }

    static func configure(_ session: inout Session, _ name: String, _ settings: [ConfigureSetting], at time: Timestamp) throws(ProtocolError) {
        _ = try session.apply(.request(.configure(container: name, settings: settings, animation: nil), client: 1, at: time))
    }

    /// The entries stored over every container.
    static func stored(in session: Session) -> Int {
        session.engine.slots.reduce(0) { $0 + ($1.container.configuration.rows?.heights.storedEntries ?? 0) }
    }

    @Test func theBudgetIsOverEveryContainer() throws {
        var session = try Session(configuration: .defaults, at: 0)
        let first = 6_000_000
        try Self.configure(&session, "a", [Self.rows(explicit: first)], at: 1)
        let a = try #require(session.index(of: "a"))
        let stored = try #require(session.engine.slots[a].container.configuration.rows?.heights.storedEntries)
        #expect(stored == first + (first + RowHeights.chunkLimit - 1) / RowHeights.chunkLimit)
        // The rest of the budget fits (the default container's rows count too); one row more
        // does not, and the refusal says why.
        let room = Limits.storedRowHeights - Self.stored(in: session)
        func entries(_ n: Int) -> Int { n + (n + RowHeights.chunkLimit - 1) / RowHeights.chunkLimit }
        var fitting = room * RowHeights.chunkLimit / (RowHeights.chunkLimit + 1)
        while entries(fitting + 1) <= room { fitting += 1 }
        while entries(fitting) > room { fitting -= 1 }
        try Self.configure(&session, "b", [Self.rows(explicit: fitting)], at: 2)
        let b = try #require(session.index(of: "b"))
        let heightsOfB = try #require(session.engine.slots[b].container.configuration.rows?.heights)
        #expect(Self.stored(in: session) == Limits.storedRowHeights - room + heightsOfB.storedEntries)
        #expect(Self.stored(in: session) <= Limits.storedRowHeights)
        #expect(heightsOfB.count == fitting)

        var refused: ProtocolError?
        do throws(ProtocolError) {
            try Self.configure(&session, "c", [Self.rows(explicit: Limits.storedRowHeights - Self.stored(in: session) + 1)], at: 3)
        } catch {
            refused = error
        }
        #expect(refused?.code == .tooLarge)
        #expect(refused?.message.hasPrefix("too many row heights: the daemon stores at most 10000000 over every container") == true, "\(refused?.message ?? "")")
        #expect(session.index(of: "c") == nil)

        // Replacing a container's own rows counts them once, not twice.
        try Self.configure(&session, "a", [Self.rows(explicit: first)], at: 4)
        #expect(Self.stored(in: session) == Limits.storedRowHeights)
        // Fewer heights make room again, and a run costs one entry however long it is.
        try Self.configure(&session, "a", [Self.rows(explicit: first - 1024)], at: 5)
        try Self.configure(&session, "c", [ConfigureSetting(key: "rows", value: .object([("count", .integer(Limits.rows)), ("height", .integer(44))]))], at: 6)
        #expect(Self.stored(in: session) == Limits.storedRowHeights - 1024)
    }
}
