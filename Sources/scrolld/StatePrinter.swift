import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession

/// Numbers and encodes one container's states onto an output stream.
struct StatePrinter: ReplaySink {
    let container: String
    var output: OutputStream
    var encoder = StateEncoder()
    /// Sampled states are numbered in the order they are printed.
    var samples = 0

    init(container: String, output: OutputStream) {
        self.container = container
        self.output = output
    }

    mutating func publish(_ state: ScrollState, seq: Int?, cause: ScrollEngine.Cause?, paused: Bool) {
        let number: Int
        if let seq {
            number = seq
        } else {
            samples += 1
            number = samples
        }
        encoder.encode(state, container: container, seq: number, paused: paused, into: &output.buffer)
        output.buffer.append(UInt8(ascii: "\n"))
        output.flushIfFull()
    }

    mutating func warning(_ message: String) {
        standardError("scrolld: replay: \(message)")
    }

    mutating func flush() { output.flush() }
}
