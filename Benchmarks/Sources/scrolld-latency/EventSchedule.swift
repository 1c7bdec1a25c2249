#if canImport(Glibc)
import Glibc
#endif

/// A generated event log (Benchmarks/generate-log.py: 1000 Hz wheel bursts and 7 ms finger
/// drags with pauses) with a quiet lead-in, so every subscriber is connected before the first
/// event, and what the harness needs to know about it.
struct EventSchedule {
    struct Wheel {
        var offset: Int64
        var v120: Int32
    }

    /// The log scrolld replays.
    let path: String
    /// µs after the log's first event line, of every input event (what the replay source
    /// re-stamps onto `base + offset`), in order.
    let inputOffsets: [Int64]
    /// The wheel events, for the uinput injector.
    let wheels: [Wheel]

    var duration: Int64 { inputOffsets.last ?? 0 }

    /// Runs the generator for `events` events and writes the log to `path` with every input
    /// event moved `leadIn` µs later.
    static func generate(generator: String, events: Int, seed: Int = 7, leadIn: Int64, to path: String) throws -> EventSchedule {
        let raw = path + ".raw"
        let status = try ChildProcess.run(["/usr/bin/env", "python3", generator, "\(events)", "\(seed)"], logPath: path + ".generator.log", stdoutPath: raw)
        guard status == 0 else { throw HarnessError("\(generator) failed (status \(status)); see \(path).generator.log") }
        defer { unlink(raw) }
        guard let text = ProcessStats.read(raw) else { throw HarnessError("cannot read \(raw)") }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + events * 2)
        var offsets: [Int64] = []
        offsets.reserveCapacity(events)
        var wheels: [Wheel] = []
        var first: Int64?
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            let bytes = Array(line)
            guard let t = bytes.withUnsafeBufferPointer({ StateLine.integer(after: #"{"t":"#, in: $0) }) else {
                out += bytes + [UInt8(ascii: "\n")]  // the header
                continue
            }
            let isInput = bytes.withUnsafeBufferPointer { StateLine.find(#""type":"device_"#, in: $0) == nil }
            let origin = first ?? t
            first = origin
            let shifted = isInput ? t + leadIn : t
            let digits = String(t).utf8.count
            out += Array(#"{"t":"#.utf8) + Array(String(shifted).utf8) + bytes[(5 + digits)...] + [UInt8(ascii: "\n")]
            guard isInput else { continue }
            offsets.append(shifted - origin)
            if bytes.withUnsafeBufferPointer({ StateLine.find(#""type":"wheel""#, in: $0) != nil }) {
                let v = bytes.withUnsafeBufferPointer { StateLine.signedInteger(after: #""v120":{"y":"#, in: $0) } ?? 0
                wheels.append(Wheel(offset: shifted - origin, v120: Int32(v)))
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw HarnessError.system("cannot write \(path)") }
        defer { close(fd) }
        try UnixSocket.writeAll(fd, out)
        return EventSchedule(path: path, inputOffsets: offsets, wheels: wheels)
    }
}
