import ScrollLog
import ScrollModel

/// Drives one container through the engine from a log's events and prints its states, exactly
/// as a live subscriber would have seen them (DESIGN §6).
struct Replayer {
    enum Mode {
        /// A state after every input event and at every frame or timer while in motion.
        case everyState
        /// A state every `interval` µs from the first event until everything is idle.
        case every(Timestamp)
        /// One state per listed offset (µs after the first event), in time order.
        case at([Timestamp])
    }

    /// How far past the last event the engine may run to come to rest: a motion longer than
    /// this (only absurd physics constants make one) is cut short with a warning.
    static let settleLimit: Timestamp = 600_000_000

    var engine: ScrollEngine
    let index: Int
    let name: String
    let mode: Mode
    var printer: StatePrinter
    var origin: Timestamp?
    var nextSample = 0
    var lastEventTime: Timestamp = .min

    init(container name: String, configuration: ContainerConfiguration, frameRate: Double, mode: Mode, output: OutputStream) {
        engine = ScrollEngine(frameRate: frameRate)
        index = engine.add(ScrollContainer(name: name, configuration: configuration))
        self.name = name
        self.mode = mode
        printer = StatePrinter(container: name, output: output)
    }

    mutating func feed(_ event: ScrollEvent) {
        // Time never runs backwards: a log whose clock jumps back is applied at the last time.
        var event = event
        if event.time < lastEventTime { event.time = lastEventTime }
        lastEventTime = event.time
        if origin == nil { origin = event.time }
        switch mode {
        case .everyState:
            Self.handle(event, container: index, engine: &engine, printer: &printer)
        case .every, .at:
            emitSamples(before: event.time)
            engine.handle(event) { _ in }
        }
    }

    mutating func finish() {
        guard let origin else { return printer.output.flush() }
        let limit = lastEventTime + Self.settleLimit
        switch mode {
        case .everyState:
            while let next = engine.nextDeadline, next <= limit {
                Self.advance(to: next, container: index, engine: &engine, printer: &printer)
            }
            if engine.nextDeadline != nil { standardError("scrolld: replay: still moving \(Self.settleLimit / 1_000_000) s after the last event; stopped there") }
        case .every(let interval):
            while true {
                let time = origin + Timestamp(nextSample) * interval
                sample(at: time)
                nextSample += 1
                if time >= lastEventTime && engine.isIdle { break }
                if time > limit {
                    standardError("scrolld: replay: still moving \(Self.settleLimit / 1_000_000) s after the last event; stopped there")
                    break
                }
            }
        case .at(let offsets):
            while nextSample < offsets.count {
                sample(at: origin + offsets[nextSample])
                nextSample += 1
            }
        }
        printer.output.flush()
    }

    /// Prints the samples due strictly before `time` (events at a sample's time are applied
    /// before it is taken).
    mutating func emitSamples(before time: Timestamp) {
        guard let origin else { return }
        switch mode {
        case .everyState:
            return
        case .every(let interval):
            while origin + Timestamp(nextSample) * interval < time {
                sample(at: origin + Timestamp(nextSample) * interval)
                nextSample += 1
            }
        case .at(let offsets):
            while nextSample < offsets.count, origin + offsets[nextSample] < time {
                sample(at: origin + offsets[nextSample])
                nextSample += 1
            }
        }
    }

    mutating func sample(at time: Timestamp) {
        printer.print(engine.sample(container: index, at: time))
    }

    // Engine and printer are passed as two inout arguments so that publishing from inside the
    // engine's callback needs no copy of either.
    static func handle(_ event: ScrollEvent, container: Int, engine: inout ScrollEngine, printer: inout StatePrinter) {
        engine.handle(event) { update in
            if update.container == container { printer.print(update.state) }
        }
    }

    static func advance(to time: Timestamp, container: Int, engine: inout ScrollEngine, printer: inout StatePrinter) {
        engine.advance(to: time) { update in
            if update.container == container { printer.print(update.state) }
        }
    }
}

/// Numbers and encodes one container's states onto an output stream.
struct StatePrinter {
    let container: String
    var output: OutputStream
    var encoder = StateEncoder()
    var seq = 0

    init(container: String, output: OutputStream) {
        self.container = container
        self.output = output
    }

    mutating func print(_ state: ScrollState) {
        seq += 1
        encoder.encode(state, container: container, seq: seq, into: &output.buffer)
        output.buffer.append(UInt8(ascii: "\n"))
        output.flushIfFull()
    }
}
