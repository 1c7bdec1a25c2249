/// One point of a series: seconds since the log's first event, and a value.
public struct PlotPoint: Hashable, Sendable {
    public var t: Double
    public var v: Double
}
