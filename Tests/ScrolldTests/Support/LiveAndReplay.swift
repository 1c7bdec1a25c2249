import Foundation

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
