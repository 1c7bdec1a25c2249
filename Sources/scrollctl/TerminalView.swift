import ScrollModel
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

/// The live view of `scrollctl watch` on a terminal: a block of fixed height redrawn in place.
struct TerminalView {
    let container: String
    let server: String?
    private(set) var last: StateLine?
    /// When the states of the last second arrived, oldest first.
    private var arrivals: [ContinuousClock.Instant] = []
    private var drawn = 0

    init(container: String, server: String?) {
        self.container = container
        self.server = server
    }

    mutating func record(_ line: StateLine, at now: ContinuousClock.Instant) {
        last = line
        arrivals.append(now)
        trim(now)
    }

    private mutating func trim(_ now: ContinuousClock.Instant) {
        let horizon = now.advanced(by: .seconds(-1))
        if let keep = arrivals.firstIndex(where: { $0 > horizon }) {
            arrivals.removeFirst(keep)
        } else {
            arrivals.removeAll()
        }
    }

    // MARK: Terminal

    private static let hideCursor = "\u{1B}[?25l"
    private static let showCursor = "\u{1B}[?25h"
    private static let clearToEnd = "\u{1B}[K"

    /// Hides the cursor, and makes sure a signal that ends the program shows it again.
    func begin() {
        Output.write(Self.hideCursor)
        let restore: @convention(c) (Int32) -> Void = { signal in
            // Only async-signal-safe calls here: write(2) of constant bytes, then _exit.
            let show: StaticString = "\u{1B}[?25h"
            _ = write(STDOUT_FILENO, show.utf8Start, show.utf8CodeUnitCount)
            _exit(128 + signal)
        }
        // Handled, so unblocked too: a parent may have spawned us with them blocked.
        var handled = sigset_t()
        sigemptyset(&handled)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            _ = Glibc.signal(signal, restore)
            sigaddset(&handled, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Leaves the last block on screen, the cursor under it and visible again.
    func end() {
        Output.write(Self.showCursor)
    }

    mutating func draw(now: ContinuousClock.Instant) {
        trim(now)
        let width = Self.terminalWidth()
        var frame = drawn > 0 ? "\r\u{1B}[\(drawn)A" : ""
        let lines = render(width: width)
        for line in lines {
            frame += Self.truncated(line, to: width - 1) + Self.clearToEnd + "\n"
        }
        drawn = lines.count
        Output.write(frame)
    }

    static func terminalWidth() -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = getenv("COLUMNS").flatMap({ Int(String(cString: $0)) }), columns > 0 { return columns }
        return 80
    }

    private static func truncated(_ line: String, to width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(width, 0)))
    }

    // MARK: The block

    /// The block, always the same number of lines so that redraws overwrite it exactly.
    func render(width: Int) -> [String] {
        let label = { (name: String) in Format.left(name, 10) }
        let rate = "\(arrivals.count) states/s"
        var title = Output.shown(container)
        if let server { title += "  ·  \(server)" }
        guard let line = last else {
            return [title, label("offset"), label("position"), label("velocity"), label("phase"),
                    label("header"), label("rows"), label("seq") + "–  ·  \(rate)"]
        }
        let state = line.state
        let geometry = state.geometry
        let offset = geometry.contentOffset
        let number = { (x: Double) in Format.right(Format.fixed(x, 1), 10) }

        // The bar follows y, unless only x can move (a horizontal container).
        var axis = Axis.vertical
        if geometry.restingRange(.vertical).upperBound <= geometry.restingRange(.vertical).lowerBound,
           geometry.restingRange(.horizontal).upperBound > geometry.restingRange(.horizontal).lowerBound {
            axis = .horizontal
        }
        let range = geometry.restingRange(axis)
        let value = axis == .vertical ? offset.y : offset.x
        let barWidth = min(max(width - 44, 10), 60)
        let position = label("position") + (axis == .vertical ? "y " : "x ") + Self.bar(value, in: range, width: barWidth)
            + "  " + Format.right(Format.fixed(Self.fraction(value, in: range) * 100, 1), 5) + "%"
            + "  of \(Format.fixed(range.lowerBound, 0))…\(Format.fixed(range.upperBound, 0))"

        var header = "–"
        if let h = state.header {
            header = "height \(Format.fixed(h.height, 1))  ·  progress \(Format.fixed(h.progress * 100, 0))%"
        }
        var rows = "–"
        if let visible = state.visibleRows {
            switch (visible.first, visible.last) {
            case let (first?, last?): rows = first == last ? "row \(first) visible" : "\(first) … \(last) visible"
            default: rows = "none visible"
            }
        }
        return [
            title,
            label("offset") + "x " + number(offset.x) + "   y " + number(offset.y),
            position,
            label("velocity") + "x " + number(state.velocity.x) + "   y " + number(state.velocity.y) + "  px/s",
            label("phase") + state.phase.rawValue,
            label("header") + header,
            label("rows") + rows,
            label("seq") + "\(line.seq)  ·  \(rate)",
        ]
    }

    /// Where `value` lies in `range`, 0…1 (0 when the range is a single point).
    static func fraction(_ value: Double, in range: ClosedRange<Double>) -> Double {
        let span = range.upperBound - range.lowerBound
        guard span > 0 else { return 0 }
        return min(max((value - range.lowerBound) / span, 0), 1)
    }

    /// `[█████·····]`, with `<` or `>` for the bracket on the side the offset has overscrolled.
    static func bar(_ value: Double, in range: ClosedRange<Double>, width: Int) -> String {
        let filled = Int((fraction(value, in: range) * Double(width)).rounded())
        let open = value < range.lowerBound ? "<" : "["
        let close = value > range.upperBound ? ">" : "]"
        return open + String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled) + close
    }
}
