/// One point of a series: seconds since the log's first event, and a value.
public struct PlotPoint: Hashable, Sendable {
    public var t: Double
    public var v: Double

    @inlinable
    public init(t: Double, v: Double) {
        self.t = t
        self.v = v
    }
}
