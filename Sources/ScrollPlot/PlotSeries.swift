import ScrollModel

/// Everything a plot of one replayed container shows, already reduced to a bounded size:
/// the series (offsets, velocities, header height) as the step functions a client saw — each
/// state holds until the next one — the phase spans, and the input and frame instants. Times
/// are seconds after the log's first event.
public struct PlotSeries: Sendable {
    /// What the chart's title block says about the run.
    public struct Description: Sendable {
        /// The log's name (its file name, or "standard input").
        public var logName: String
        public var container: String
        public var configuration: ContainerConfiguration
        /// Frames per second of the engine.
        public var frameRate: Double
        /// How states were taken: nil for every published state (frames), else the `--every`
        /// interval in milliseconds.
        public var sampleInterval: Double?
        /// Extra overrides to print (`--set` assignments), as given.
        public var overrides: [String]

        public init(
            logName: String,
            container: String,
            configuration: ContainerConfiguration,
            frameRate: Double,
            sampleInterval: Double? = nil,
            overrides: [String] = []
        ) {
            self.logName = logName
            self.container = container
            self.configuration = configuration
            self.frameRate = frameRate
            self.sampleInterval = sampleInterval
            self.overrides = overrides
        }
    }

    /// A stretch of time in one phase.
    public struct PhaseSpan: Hashable, Sendable {
        public var start: Double
        public var end: Double
        public var phase: ScrollPhase
    }

    /// Where input came from, one lane of ticks each.
    public enum InputSource: String, CaseIterable, Hashable, Sendable {
        case wheel
        case finger
        case continuous
        /// Hold gestures (fingers resting on the touchpad), begin and end.
        case hold
        /// A finger on a touchscreen: down, motion, up or cancel (the lift is its stop).
        case touch
    }

    /// The instants of one source's events, and of its scroll stops (a present 0 delta, the
    /// moment a release is measured).
    public struct InputTicks: Sendable {
        public var source: InputSource
        public var events: [Double]
        public var stops: [Double] = []
        public var count: Int
    }

    public var description: Description
    /// Seconds from the first event to the last state or event.
    public var duration: Double = 0
    public var offsetX: [PlotPoint] = []
    public var offsetY: [PlotPoint] = []
    public var velocityX: [PlotPoint] = []
    public var velocityY: [PlotPoint] = []
    /// Empty when no header is configured.
    public var headerHeight: [PlotPoint] = []
    public var phases: [PhaseSpan] = []
    /// Only the sources that sent input, in `InputSource` order.
    public var inputs: [InputTicks] = []
    /// Frame instants; empty when states were sampled at fixed times.
    public var frames: [Double] = []
    public var frameCount = 0
    public var stateCount = 0
    public var eventCount = 0
    /// The resting range of each axis at the first state (docs/design.md §5), for the edge lines.
    public var restingRangeX: ClosedRange<Double> = 0...0
    public var restingRangeY: ClosedRange<Double> = 0...0

    /// Whether there is anything to draw: no input event reached the container.
    public var isEmpty: Bool { stateCount == 0 && eventCount == 0 }
}
