@testable import ScrollPlot
import Testing

@Suite("NiceTicks: steps of 1, 2 or 5 × 10ⁿ and exact labels")
struct NiceTicksTests {
    @Test func secondsOnATimeAxis() {
        let ticks = NiceTicks(lower: 0, upper: 9.4, count: 12)
        #expect(ticks.step == 1)
        #expect(ticks.values == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(ticks.labels == ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
    }

    @Test func stepOfFiveTimesTen() {
        // (312.2 + 37.5) / 5 = 69.94: fraction 6.994 is past √10, so 5 × 10.
        let ticks = NiceTicks(lower: -37.5, upper: 312.2, count: 5)
        #expect(ticks.step == 50)
        #expect(ticks.values == [0, 50, 100, 150, 200, 250, 300])
        #expect(ticks.labels == ["0", "50", "100", "150", "200", "250", "300"])
    }

    @Test func fractionsKeepOneNumberOfDecimals() {
        let ticks = NiceTicks(lower: 0, upper: 1, count: 5)
        #expect(ticks.step == 0.2)
        #expect(ticks.values == [0, 0.2, 0.4, 0.6, 0.8, 1.0])
        #expect(ticks.labels == ["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"])
    }

    @Test func negativeValuesUseARealMinusSign() {
        let ticks = NiceTicks(lower: -1500, upper: 800, count: 4)
        #expect(ticks.step == 500)
        #expect(ticks.values == [-1500, -1000, -500, 0, 500])
        #expect(ticks.labels == ["\u{2212}1500", "\u{2212}1000", "\u{2212}500", "0", "500"])
    }

    @Test func smallValues() {
        let ticks = NiceTicks(lower: 0.0012, upper: 0.0031, count: 4)
        #expect(ticks.mantissa == 5)
        #expect(ticks.exponent == -4)
        #expect(ticks.values == [0.0015, 0.002, 0.0025, 0.003])
        #expect(ticks.labels == ["0.0015", "0.0020", "0.0025", "0.0030"])
    }

    @Test func boundsThatAreInexactInBinaryStillGetTheirTicks() {
        // 0.3 / 0.1 = 2.9999999999999996 and 0.7 / 0.1 = 6.999999999999999.
        let ticks = NiceTicks(lower: 0.3, upper: 0.7, count: 4)
        #expect(ticks.step == 0.1)
        #expect(ticks.values == [0.3, 0.4, 0.5, 0.6, 0.7])
        #expect(ticks.labels == ["0.3", "0.4", "0.5", "0.6", "0.7"])
    }

    @Test func largeValuesAndAPowerOfTenRange() {
        #expect(NiceTicks(lower: 0, upper: 20000, count: 5).labels == ["0", "5000", "10000", "15000", "20000"])
        // 1000 / 10 = 100 exactly: a step of 100, not 10 or 1000.
        #expect(NiceTicks(lower: 0, upper: 1000, count: 10).step == 100)
    }

    @Test func aMinimumCountAsksForMoreTicks() {
        // A quarter of the span past √50 × 100 = 707.1 picks a step of 1000, below it 500.
        let sparse = NiceTicks(lower: -800, upper: 2100, count: 4)
        #expect(sparse.values == [0, 1000, 2000])
        let dense = NiceTicks(lower: -800, upper: 1900, count: 4)
        #expect(dense.values == [-500, 0, 500, 1000, 1500])
        // 2840 / 4 = 710: a step of 1000, and only 0 and 1000 inside.
        let wide = NiceTicks(lower: -850, upper: 1990, count: 4)
        #expect(wide.values == [0, 1000])
        // Asking for 5: 2840 / 5 = 568 → 500.
        let asked = NiceTicks(lower: -850, upper: 1990, count: 4, minimum: 3)
        #expect(asked.values == [-500, 0, 500, 1000, 1500])
        #expect(NiceTicks(lower: -37.5, upper: 312.2, count: 5, minimum: 3) == NiceTicks(lower: -37.5, upper: 312.2, count: 5))
    }

    @Test func boundsInEitherOrder() {
        #expect(NiceTicks(lower: 312.2, upper: -37.5, count: 5) == NiceTicks(lower: -37.5, upper: 312.2, count: 5))
    }

    @Test func degenerateDomainsHaveNoTicks() {
        #expect(NiceTicks(lower: 5, upper: 5, count: 4).values.isEmpty)
        #expect(NiceTicks(lower: .nan, upper: 1, count: 4).values.isEmpty)
        #expect(NiceTicks(lower: 0, upper: .infinity, count: 4).labels.isEmpty)
        // Far from zero relative to the span: indexes would overflow an Int.
        #expect(NiceTicks(lower: 1e18, upper: 1e18 + 1000, count: 4).values.isEmpty)
    }
}

@Suite("PlotDomain: margins, included values and constant series")
struct PlotDomainTests {
    @Test func marginOfTheSpan() {
        #expect(PlotDomain(covering: [0, 100, 40]) == PlotDomain(lower: -6, upper: 106))
    }

    @Test func includedValuesWidenIt() {
        // Data 10…20 with 0 in view: 0…20, span 20, margin 1.2.
        #expect(PlotDomain(covering: [10, 20], including: [0]) == PlotDomain(lower: -1.2, upper: 21.2))
    }

    @Test func constantSeriesGetTenPercentOrOne() {
        #expect(PlotDomain(covering: [5, 5, 5]) == PlotDomain(lower: 4, upper: 6))
        #expect(PlotDomain(covering: [0]) == PlotDomain(lower: -1, upper: 1))
        #expect(PlotDomain(covering: [100, 100]) == PlotDomain(lower: 90, upper: 110))
        #expect(PlotDomain(covering: [-300]) == PlotDomain(lower: -330, upper: -270))
    }

    @Test func nonFiniteValuesAreIgnored() {
        #expect(PlotDomain(covering: [.nan, 2, .infinity, 2]) == PlotDomain(lower: 1, upper: 3))
        #expect(PlotDomain(covering: []) == PlotDomain(lower: -1, upper: 1))
        #expect(PlotDomain(covering: [.nan]) == PlotDomain(lower: -1, upper: 1))
    }
}
