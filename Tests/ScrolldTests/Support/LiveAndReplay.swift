import Foundation
import Testing

/// A live subscriber's states and a replay's, as ``RecordReplayTests/key(_:)`` texts, the replay's
/// cut to the `seq`s the subscriber saw (it subscribed after the log began, and may have left
/// before the end): equal when the replay reproduced what the subscriber received.
func liveAndReplayKeys(live: [[String: Any]], replay: [[String: Any]]) -> (live: [String], replay: [String]) {
    let seqs = live.compactMap { ($0["seq"] as? NSNumber)?.intValue }
    let window = replay.filter { state in
        let seq = (state["seq"] as? NSNumber)?.intValue ?? -1
        return seq >= (seqs.first ?? 0) && seq <= (seqs.last ?? -1)
    }
    return (live.map(RecordReplayTests.key), window.map(RecordReplayTests.key))
}

/// Replays `recording` with the real binary (`--container`, when named) and expects it to end
/// well and to reproduce what a live subscriber received (`live`, without the reply to its
/// `subscribe`). Returns the replay, for what a test checks beyond.
@discardableResult
func expectReplayReproduces(
    _ live: [[String: Any]], recording: String, container: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
) throws -> Scrolld.Result {
    let replay = try Scrolld.run(["replay", recording] + (container.map { ["--container", $0] } ?? []))
    #expect(replay.status == 0, "\(replay.stderr)", sourceLocation: sourceLocation)
    let keys = liveAndReplayKeys(live: live, replay: replay.states)
    #expect(keys.replay == keys.live, "\(container ?? "main"): live and replay differ", sourceLocation: sourceLocation)
    return replay
}
