/// The ranges every number a client or a configuration file can give scrolld is validated
/// into, and the bounds on every structure a client can grow (docs/design.md, "Limits").
///
/// The rule behind them: any combination of accepted values keeps the model's arithmetic
/// finite and every motion finite in time. Lengths, velocities and scales are bounded in
/// magnitude, so sums, products and quotients of a few of them stay far from overflow; what is
/// divided by, exponentiated or converted to microseconds has a range of its own; and a spring
/// or a deceleration always settles within minutes, never "in years".
public enum Limits {
    /// The largest magnitude of any plain number (px, px/s, a scale, an option): 10⁹. Rows can
    /// still add up to more (10⁷ rows), which stays finite and exact to well under a pixel.
    public static let magnitude = 1e9

    /// Whether `value` is a number scrolld accepts at all: finite and at most ``magnitude``.
    @inlinable
    public static func accepts(_ value: Double) -> Bool {
        value.isFinite && abs(value) <= magnitude
    }

    // MARK: Springs

    /// Seconds: SwiftUI's perceptual `duration` of a spring (`animation.spring.duration`,
    /// `physics.wheel_duration`). Below it the stiffness `(2π/T)²` leaves the range below;
    /// above it a motion takes minutes.
    public static let springDuration: ClosedRange<Double> = 0.001...10
    /// A spring's `bounce`: ±0.9 keeps the damping ratio within [0.1, 10]. Closer to ±1 the
    /// slowest part of the motion decays at a vanishing rate (a bounce of −0.99999999 takes
    /// years to settle).
    public static let springBounce: ClosedRange<Double> = -0.9...0.9
    /// 1/s²: a spring's stiffness (`animation.spring.stiffness`, `physics.bounce_stiffness`).
    public static let springStiffness: ClosedRange<Double> = 0.1...1e7
    /// A spring given by stiffness and damping: its damping ratio `c / (2√k)`.
    public static let springDampingRatio: ClosedRange<Double> = 0.05...20

    // MARK: Time

    /// Hz: a subscription's `rate` (one state every ~17 minutes at the least).
    public static let subscriptionRate: ClosedRange<Double> = 0.001...1000
    /// Seconds: `physics.velocity_window`, the time a release velocity is measured over.
    public static let velocityWindow: ClosedRange<Double> = 0.001...1
    /// Seconds: `physics.wheel_idle`, the wheel silence that ends a wheel gesture.
    public static let wheelIdle: ClosedRange<Double> = 0...10
    /// `physics.deceleration_rate`, per millisecond: nearer 1 a fling would glide for hours.
    public static let decelerationRate: ClosedRange<Double> = 0.5...0.9999
    /// 1/s: `physics.friction` (GTK's deceleration).
    public static let friction: ClosedRange<Double> = 0.1...1000
    /// px and px/s: the small thresholds a motion ends below (`settle_distance`,
    /// `settle_velocity`, `deceleration_end_distance`, `stop_velocity`).
    public static let threshold: ClosedRange<Double> = 0.001...magnitude

    // MARK: Touch

    /// px: `physics.touch_slop`.
    public static let touchSlop: ClosedRange<Double> = 0...10_000
    /// px: a container's `snap_proximity` (docs/design.md §22).
    public static let snapProximity: ClosedRange<Double> = 0...magnitude
    /// px: a container's `indicator_min_length`.
    public static let indicatorMinLength: ClosedRange<Double> = 0...1_000_000
    /// Milliseconds: a container's `indicator_linger_ms` (at most a minute: the hide is a timer).
    public static let indicatorLinger: ClosedRange<Double> = 0...60_000
    /// A `touch_frame`'s `x` and `y`, in the touchscreen's normalized coordinates: a frame may
    /// lie partly off the glass, never far from it.
    public static let touchFrameOrigin: ClosedRange<Double> = -1...2
    /// A `touch_frame`'s `width` and `height`, normalized: the scale `containerSize / width`
    /// stays below 10⁹ × 10⁴ px per unit, and a whole screen is 1.
    public static let touchFrameLength: ClosedRange<Double> = 1e-4...1

    // MARK: Observations

    /// An observation's `step`: the smallest keeps `v / step` finite for any offset.
    public static let observationStep: ClosedRange<Double> = 1e-6...magnitude

    // MARK: Structures a client can grow

    /// Containers in one daemon, configured or created by requests together.
    public static let containers = 1000
    /// Desktop rules in force at once (docs/design.md §23): a class rule per desktop and
    /// class, and one per device a desktop names (KDE's `kcminputrc` groups, sway's inputs);
    /// more are dropped, the last first.
    public static let desktopRules = 256
    /// The range of a desktop's scroll factor (KDE and sway take any positive number).
    public static let desktopScrollFactor: ClosedRange<Double> = 0.01...100
    /// Subscriptions and observations one connection may have waiting for their containers
    /// (`"wait": true`, docs/design.md §20).
    public static let waiting = 1000
    /// Subscriptions and observations waiting for their containers over every connection:
    /// each holds its container's name until a container has it.
    public static let allWaiting = 100_000
    /// Subscriptions over every connection that a `subscribe` may add to: each costs its
    /// connection a write of every state its container publishes, and about 180 bytes. Waiting
    /// subscriptions whose container comes may pass it by at most ``allWaiting``.
    public static let allSubscriptions = 100_000
    /// Observations one connection may have (docs/design.md §13), waiting ones included: each
    /// is evaluated on every state of its container.
    public static let observations = 1000
    /// Observations of one container over every connection, waiting ones included: each is
    /// evaluated on every state the container publishes.
    public static let containerObservations = 10_000
    /// Observations over every connection and container, waiting ones included: together they
    /// are the work of every published state's delivery.
    public static let allObservations = 20_000
    /// Row heights stored over every container (``RowHeights/storedEntries``: one per explicit
    /// height, one per run of equal heights), about 16 bytes each: a client's explicit heights
    /// are the one thing it can make the daemon hold in proportion to what it sends.
    public static let storedRowHeights = 10_000_000
    /// Bytes of a configuration file: room for a list of 10⁷ explicit row heights; a larger
    /// file is refused before it is read.
    public static let configurationFileBytes = 64 << 20
    /// A container's `seq` as a restore or a recording may set it: +1 per state goes on from
    /// there, and every value stays an integer a JSON number holds exactly.
    public static let sequence: ClosedRange<Int> = 0...(1 << 53)
    /// Connection numbers (docs/design.md §17) as a restart takes them back: a connection's, and
    /// the next one to give. They count up by one a connection from 1; within 2⁵³ each stays an
    /// integer a JSON number holds exactly, and counting on never overflows.
    public static let connectionNumbers: ClosedRange<Int> = 1...(1 << 53)
    /// px and px/s: the largest magnitude of an offset or velocity a state can hold, which a
    /// restart's store must keep to for a container's last publication. Offsets lie within the
    /// content (at most 10⁷ rows of 10⁹ px: 10¹⁶) with insets, a header and overscroll of
    /// at most 10⁹ each; the fastest velocity known is a drag's at a touch frame's extreme
    /// scale, 2.5·10¹¹ px/s.
    public static let stateMagnitude = 1e17
    /// Bytes (UTF-8) of a container's name: every state and observation carries it, and a
    /// connection's `welcome` lists every one.
    public static let containerNameBytes = 255

    /// Why `name` is too long to name a container (``containerNameBytes``), or nil: the one
    /// message a request, a file and a restore give.
    public static func nameTooLong(_ name: String) -> String? {
        let bytes = name.utf8.count
        return bytes > containerNameBytes ? "a container name is at most \(containerNameBytes) bytes of UTF-8, got \(bytes)" : nil
    }
    /// Bytes of an observation's `id` as JSON text: the daemon keeps it for as long as the
    /// observation lasts and writes it into each of its messages.
    public static let observationIDBytes = 255
    /// Containers in one `parent` chain, the container itself included.
    public static let chainDepth = 32
    /// Rows in one container.
    public static let rows = 10_000_000
    /// Sticky rows (`rows.sticky`, docs/design.md §21) in one container: section headers, of
    /// which a list has far fewer than rows. A state finds the pinned one by binary search, so
    /// the bound is on the configuration's size, not on any per-event cost.
    public static let stickyRows = 10_000
}

extension Limits {
    /// A bound as the error messages and docs spell it: `10`, `0.001`, `1e9`, `1e-6`.
    public static func format(_ value: Double) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e6 || (magnitude > 0 && magnitude < 1e-4) {
            let exponent = Int((Math.log(magnitude) / Math.log(10)).rounded())
            if Math.pow(10, Double(exponent)) == magnitude { return (value < 0 ? "-" : "") + "1e\(exponent)" }
        }
        if value == value.rounded(), magnitude < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
