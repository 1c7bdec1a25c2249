import ScrollModel
@testable import ScrollPlot
import Testing

func state(_ time: Timestamp, _ phase: ScrollPhase, y: Double, vy: Double = 0, header: Double? = nil) -> ScrollState {
    ScrollState(
        time: time, phase: phase,
        geometry: ScrollGeometry(
            contentOffset: Point(x: 0, y: y), contentSize: Size(width: 800, height: 2000),
            containerSize: Size(width: 800, height: 600), contentInsets: EdgeInsets()
        ),
        velocity: Point(x: 0, y: vy),
        header: header.map { HeaderState(height: $0, progress: 0) }
    )
}

let description = PlotSeries.Description(
    logName: "test.scrolllog", container: "main", configuration: ContainerConfiguration(), frameRate: 120
)

@Suite("PlotRecorder: states as step functions, phases as spans, input as ticks")
struct PlotRecorderTests {
    @Test func eachStateHoldsUntilTheNext() {
        var recorder = PlotRecorder()
        recorder.begin(at: 1_000_000, state: state(0, .idle, y: 0))
        recorder.record(state(1_500_000, .interacting, y: 10, vy: 400), isFrame: false)
        recorder.record(state(1_508_333, .interacting, y: 20, vy: 300), isFrame: true)
        recorder.record(state(2_000_000, .idle, y: 20), isFrame: true)
        let series = recorder.series(description)
        #expect(series.offsetY == points([(0, 0), (0.5, 0), (0.5, 10), (0.508333, 10), (0.508333, 20), (1, 20)]))
        #expect(series.velocityY == points([
            (0, 0), (0.5, 0), (0.5, 400), (0.508333, 400), (0.508333, 300), (1, 300), (1, 0), (1, 0),
        ]))
        // x never changed: the start and the end.
        #expect(series.offsetX == points([(0, 0), (1, 0)]))
        #expect(series.phases == [
            PlotSeries.PhaseSpan(start: 0, end: 0.5, phase: .idle),
            PlotSeries.PhaseSpan(start: 0.5, end: 1, phase: .interacting),
            // The phase at the end holds on: kept even though it lasted no time yet.
            PlotSeries.PhaseSpan(start: 1, end: 1, phase: .idle),
        ])
        #expect(series.frames == [0.508333, 1])
        #expect(series.frameCount == 2)
        #expect(series.stateCount == 3)
        #expect(series.duration == 1)
        #expect(series.restingRangeY == 0...1400)
        #expect(series.headerHeight.isEmpty)
    }

    @Test func aPhaseThatLastsNoTimeIsDroppedAndItsNeighboursJoin() {
        var recorder = PlotRecorder()
        recorder.begin(at: 0, state: state(0, .idle, y: 0))
        recorder.record(state(100_000, .interacting, y: 5), isFrame: false)
        recorder.record(state(200_000, .decelerating, y: 9), isFrame: false)
        recorder.record(state(200_000, .interacting, y: 9), isFrame: false)
        recorder.record(state(300_000, .idle, y: 9), isFrame: false)
        #expect(recorder.series(description).phases == [
            PlotSeries.PhaseSpan(start: 0, end: 0.1, phase: .idle),
            PlotSeries.PhaseSpan(start: 0.1, end: 0.3, phase: .interacting),
            PlotSeries.PhaseSpan(start: 0.3, end: 0.3, phase: .idle),
        ])
    }

    @Test func inputTicksPerSourceWithScrollStops() {
        var recorder = PlotRecorder()
        recorder.begin(at: 1_000_000, state: state(0, .idle, y: 0))
        recorder.recordInput(ScrollEvent(time: 1_000_000, device: 1, kind: .deviceAdded(name: "pad", capabilities: .finger)))
        recorder.recordInput(ScrollEvent(time: 1_100_000, device: 1, kind: .holdBegin(fingers: 2)))
        recorder.recordInput(ScrollEvent(time: 1_200_000, device: 1, kind: .finger(AxisValues(y: -4))))
        recorder.recordInput(ScrollEvent(time: 1_300_000, device: 1, kind: .finger(AxisValues(x: 0, y: 0))))
        recorder.recordInput(ScrollEvent(time: 1_400_000, device: 2, kind: .wheel(v120: AxisValues(y: 120), degrees: nil)))
        let series = recorder.series(description)
        #expect(series.inputs.map(\.source) == [.wheel, .finger, .hold])
        #expect(series.inputs.map(\.events) == [[0.4], [0.2, 0.3], [0.1]])
        #expect(series.inputs.map(\.stops) == [[], [0.3], []])
        #expect(series.eventCount == 4)
        #expect(series.duration == 0.4)
        // No state after the initial one: it holds to the end.
        #expect(series.offsetY == points([(0, 0), (0.4, 0)]))
    }

    @Test func headerHeightIsRecordedWhenPresent() {
        var recorder = PlotRecorder()
        recorder.begin(at: 0, state: state(0, .idle, y: 0, header: 150))
        recorder.record(state(10_000, .interacting, y: 30, header: 120), isFrame: false)
        #expect(recorder.series(description).headerHeight == points([(0, 150), (0.01, 150), (0.01, 120), (0.01, 120)]))
    }

    @Test func nothingRecordedIsEmpty() {
        #expect(PlotRecorder().series(description).isEmpty)
    }
}
