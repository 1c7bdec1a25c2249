@testable import ScrollPlot
import Testing

func points(_ pairs: [(Double, Double)]) -> [PlotPoint] {
    pairs.map { PlotPoint(t: $0.0, v: $0.1) }
}

@Suite("Decimation: first, lowest, highest and last point per pixel column")
struct DecimationTests {
    @Test func fewerPointsThanColumnsAreKept() {
        let series = points([(0, 1), (1, 2), (2, 3)])
        #expect(Decimation.decimate(series, columns: 100, domain: 0...3) == series)
    }

    @Test func eachColumnKeepsItsFirstExtremesAndLastInOrder() {
        let series = points([(0, 0), (1, 5), (2, -3), (3, 2), (4, 1), (5, 9), (6, 4), (7, 4)])
        // Column 0 holds t 0…3, column 1 t 4…7. Column 1's first point is also its lowest,
        // and of its two 4s neither is an extreme: only the last is kept.
        #expect(Decimation.decimate(series, columns: 2, domain: 0...8) == points([
            (0, 0), (1, 5), (2, -3), (3, 2),
            (4, 1), (5, 9), (7, 4),
        ]))
    }

    @Test func aOnePointPeakSurvivesAnyReduction() {
        var series = (0..<100_000).map { PlotPoint(t: Double($0) / 1000, v: Double($0 % 7)) }
        series[61_234].v = 5000
        series[77_777].v = -4000
        let reduced = Decimation.decimate(series, columns: 800, domain: 0...100)
        #expect(reduced.count <= 4 * 800)
        #expect(reduced.contains(PlotPoint(t: 61.234, v: 5000)))
        #expect(reduced.contains(PlotPoint(t: 77.777, v: -4000)))
        #expect(reduced.first == series.first)
        #expect(reduced.last == series.last)
        #expect(zip(reduced, reduced.dropFirst()).allSatisfy { $0.t <= $1.t })
    }

    @Test func aStepInsideOneColumnReducesToItsExtremesInSeriesOrder() {
        // A step from 0 to 10 at t = 1 and back at t = 2: the points share times, and the
        // series order (not the value) decides which comes first.
        let series = points([(0, 0), (1, 0), (1, 10), (2, 10), (2, 0), (3, 0)])
        #expect(Decimation.decimate(series, columns: 1, domain: 0...3) == points([(0, 0), (1, 10), (3, 0)]))
    }

    @Test func pointsOutsideTheDomainFallIntoTheEdgeColumnsAndNonFiniteOnesAreDropped() {
        let series = points([(-5, 1), (0.5, .nan), (1, 2), (99, 3)])
        #expect(Decimation.decimate(series, columns: 2, domain: 0...2) == points([(-5, 1), (1, 2), (99, 3)]))
    }

    @Test func anEmptyDomainPutsEverythingInOneColumn() {
        let series = points([(1, 4), (1, 2), (1, 8), (1, 3)])
        #expect(Decimation.decimate(series, columns: 500, domain: 1...1) == series)
    }
}

@Suite("StreamingEnvelope and TickSet: bounded memory while recording")
struct StreamingReductionTests {
    @Test func shortSeriesAreKeptExactly() {
        var envelope = StreamingEnvelope(capacity: 16)
        for (time, value) in [(0, 1.0), (3, -2.0), (3, 4.0), (10, 4.0)] { envelope.append(time: Int64(time), value: value) }
        #expect(envelope.width == 1)
        #expect(envelope.points == points([(0, 1), (0.000003, -2), (0.000003, 4), (0.00001, 4)]))
    }

    @Test func bucketsMergePairwiseWhenFull() {
        var envelope = StreamingEnvelope(capacity: 2)
        for (time, value) in [(0, 0.0), (1, 3.0), (2, 1.0), (3, 2.0), (4, 5.0)] { envelope.append(time: Int64(time), value: value) }
        // t = 2 overflows (width 2: {0, 1}, {2}); t = 4 overflows again (width 4: {0…3}, {4}).
        // Bucket {0…3} keeps first (0, 0) — also its lowest —, highest (1, 3) and last (3, 2).
        #expect(envelope.width == 4)
        #expect(envelope.points == points([(0, 0), (0.000001, 3), (0.000003, 2), (0.000004, 5)]))
    }

    @Test func aMillionPointsKeepTheirPeaksInBoundedSpace() {
        var envelope = StreamingEnvelope(capacity: 1024)
        for index in 0..<1_000_000 {
            let value = index == 654_321 ? 1e6 : Double(index % 10)
            envelope.append(time: Int64(index) * 8333, value: value)
        }
        let kept = envelope.points
        #expect(kept.count <= 4 * 1024)
        #expect(kept.contains { $0.v == 1e6 && $0.t == Double(654_321 * 8333) / 1_000_000 })
        #expect(kept.first == PlotPoint(t: 0, v: 0))
        #expect(kept.last == PlotPoint(t: Double(999_999 * 8333) / 1_000_000, v: 9))
    }

    @Test func ticksKeepTheEarliestInstantPerBucket() {
        var ticks = TickSet(capacity: 2)
        for time in [0, 1, 2, 3, 5] { ticks.insert(Int64(time)) }
        // Width 2 after t = 2 ({0}, {2}; 3 joins 2); width 4 after t = 5 ({0, 2}, {5}).
        #expect(ticks.width == 4)
        #expect(ticks.seconds == [0, 0.000005])
        #expect(ticks.count == 5)
    }

    @Test func nonFiniteValuesAreNotRecorded() {
        var envelope = StreamingEnvelope()
        envelope.append(time: 0, value: .nan)
        envelope.append(time: 1, value: .infinity)
        #expect(envelope.isEmpty)
    }
}
