import Benchmark
import EngineDriver
import ScrollModel

// The model's budget (docs/performance.md): 10 M input events/s through one container (≤ 100 ns
// an event) and no heap allocation per event once warm. Each benchmark feeds `scaledIterations`
// events through a long-lived engine, so time keeps running forward across iterations as it does
// live.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    workload("wheel events (hi-res, 1 ms apart)", .plain) { $0.wheel(count: $1) }
    workload("finger events (7 ms apart, a stop every 40)", .plain) { $0.finger(count: $1) }
    workload("frame ticks (fling and bounce, 120 Hz)", .plain) { $0.frames(count: $1) }
    workload("wheel events, 10 000 rows and a collapsing header", .list) { $0.wheel(count: $1) }
    workload("finger events, 10 000 rows and a collapsing header", .list) { $0.finger(count: $1) }
    workload("wheel events routed up a 3-level chain (focus, nesting)", .nested) { $0.wheel(count: $1) }
    workload("finger events routed up a 3-level chain (focus, nesting)", .nested) { $0.finger(count: $1) }
    // docs/design.md §18: the same input shaped per device (speed, acceleration, no momentum; a
    // detent knob stepping rows), for the cost of shaping per event.
    workload("wheel events, shaped (speed 1.5, acceleration 2)", .plain, shaping: .shaped) { $0.wheel(count: $1) }
    workload("finger events, shaped (speed_y 0.8, no momentum)", .plain, shaping: .shaped) { $0.finger(count: $1) }
    workload("wheel events, detent knob on 10 000 rows", .list, shaping: .detent) { $0.wheel(count: $1) }
    // docs/design.md §13: the same wheel input with eight observations evaluated on every state
    // (the difference to the case without is their cost), and §12's row edits on 100 000 rows.
    workload("wheel events, 10 000 rows, a header and 8 observations", .list, observing: ObservationSet.eight) { $0.wheel(count: $1) }
    Benchmark("row edits (insert, remove) in a 100 000-row list") { benchmark in
        var driver = RowEditDriver(rows: 100_000)
        driver.edit(count: 100)
        benchmark.startMeasurement()
        driver.edit(count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }
}


/// One benchmark: 5 000 events of warm-up (velocity ring, frame grid, buffers), then
/// `scaledIterations` events measured, on one long-lived engine.
func workload(
    _ name: String, _ layout: EngineDriver.Layout, shaping: EngineDriver.Shaping = .none,
    observing observations: [ScrollObservation] = [],
    _ feed: @escaping @Sendable (inout EngineDriver, Int) -> Void
) {
    Benchmark(name) { benchmark in
        var driver = EngineDriver(layout, shaping: shaping, observing: observations)
        feed(&driver, 5_000)
        benchmark.startMeasurement()
        feed(&driver, benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }
}
