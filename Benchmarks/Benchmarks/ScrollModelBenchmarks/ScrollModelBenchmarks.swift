import Benchmark
import EngineDriver
import ScrollModel

// The model's budget (issue 7): 10 M input events/s through one container (≤ 100 ns an event)
// and no heap allocation per event once warm. Each benchmark feeds `scaledIterations` events
// through a long-lived engine, so time keeps running forward across iterations as it does live.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .instructions, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    Benchmark("wheel events (hi-res, 1 ms apart)") { benchmark in
        var driver = EngineDriver(.plain)
        driver.wheel(count: 5_000) // warm up: velocity ring, frame grid, buffers
        benchmark.startMeasurement()
        driver.wheel(count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }

    Benchmark("finger events (7 ms apart, a stop every 40)") { benchmark in
        var driver = EngineDriver(.plain)
        driver.finger(count: 5_000)
        benchmark.startMeasurement()
        driver.finger(count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }

    Benchmark("frame ticks (fling and bounce, 120 Hz)") { benchmark in
        var driver = EngineDriver(.plain)
        driver.frames(count: 5_000)
        benchmark.startMeasurement()
        driver.frames(count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }

    Benchmark("wheel events, 10 000 rows and a collapsing header") { benchmark in
        var driver = EngineDriver(.list)
        driver.wheel(count: 5_000)
        benchmark.startMeasurement()
        driver.wheel(count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }

    Benchmark("finger events, 10 000 rows and a collapsing header") { benchmark in
        var driver = EngineDriver(.list)
        driver.finger(count: 5_000)
        benchmark.startMeasurement()
        driver.finger(count: benchmark.scaledIterations.count)
        benchmark.stopMeasurement()
        blackHole(driver.checksum)
    }
}
