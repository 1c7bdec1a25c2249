import ScrollModel
import ScrollPlot
import ScrollSession

/// Collects a replay for `scrolld replay --plot` instead of printing it.
struct PlotSink: ReplaySink {
    var recorder = PlotRecorder()

    mutating func begin(at origin: Timestamp, state: ScrollState?) {
        if let state { recorder.begin(at: origin, state: state) }
    }

    mutating func publish(_ state: ScrollState, seq: Int?, cause: ScrollEngine.Cause?, paused: Bool) {
        recorder.record(state, isFrame: cause == .frame)
    }

    mutating func input(_ event: ScrollEvent) {
        recorder.recordInput(event)
    }

    mutating func warning(_ message: String) {
        standardError("scrolld: replay: \(message)")
    }

    mutating func flush() {}
}
