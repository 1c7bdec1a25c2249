#if canImport(Glibc)
import Glibc
#endif

/// The physical floor of live publishing: a server that does nothing but what a publish must —
/// wake at each event's instant, then `write(2)` one state-sized line to every subscriber — on
/// the same schedule as the daemon's replay source, measured by the same subscribers.
///
/// `scrolld-latency floor-serve SOCKET LOG SUBSCRIBERS LINE_BYTES` (started by the harness).
enum FloorServer {
    static func main(_ arguments: [String]) throws {
        guard arguments.count == 4, let count = Int(arguments[2]), let lineBytes = Int(arguments[3]) else {
            throw HarnessError("usage: scrolld-latency floor-serve SOCKET LOG SUBSCRIBERS LINE_BYTES")
        }
        let offsets = try inputOffsets(ofLog: arguments[1])
        let listener = try UnixSocket.listen(arguments[0])
        // The daemon's replay source takes its base right after binding too.
        let base = Clock.microseconds()
        var clients: [Int32] = []
        for _ in 0..<count {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { throw HarnessError.system("accept") }
            try UnixSocket.writeAll(fd, Array(#"{"type":"welcome","protocol":1,"server":"floor","containers":["main"]}"#.utf8) + [10])
            var buffer: [UInt8] = []
            _ = try UnixSocket.readLine(fd, buffer: &buffer)
            try UnixSocket.writeAll(fd, line(seq: 0, t: Clock.microseconds(), id: true, bytes: lineBytes))
            clients.append(fd)
        }
        var seq = 1
        var next = 0
        while next < offsets.count {
            Clock.sleep(untilNanoseconds: (base + offsets[next]) * 1000)
            // Every event due by now, each published on its own, as the daemon does.
            let now = Clock.microseconds()
            while next < offsets.count, base + offsets[next] <= now {
                let bytes = line(seq: seq, t: base + offsets[next], id: false, bytes: lineBytes)
                bytes.withUnsafeBytes { raw in
                    for fd in clients { _ = write(fd, raw.baseAddress, raw.count) }
                }
                seq += 1
                next += 1
            }
        }
        // Stay connected until the harness has finished reading (it stops this process).
        while true { pause() }
    }

    static func line(seq: Int, t: Int64, id: Bool, bytes: Int) -> [UInt8] {
        var text = #"{"type":"state","#
        if id { text += #""id":1,"# }
        text += #""container":"main","seq":\#(seq),"t":\#(t),"phase":"interacting","pad":""#
        let padding = max(0, bytes - text.utf8.count - 3)
        text += String(repeating: "x", count: padding) + "\"}\n"
        return Array(text.utf8)
    }

    /// The input events' offsets in a log, as the replay source computes them.
    static func inputOffsets(ofLog path: String) throws -> [Int64] {
        guard let text = ProcessStats.read(path) else { throw HarnessError("cannot read \(path)") }
        var first: Int64?
        var offsets: [Int64] = []
        for line in text.utf8.split(separator: UInt8(ascii: "\n")) {
            let bytes = Array(line)
            guard let t = bytes.withUnsafeBufferPointer({ StateLine.integer(after: #"{"t":"#, in: $0) }) else { continue }
            let origin = first ?? t
            first = origin
            if bytes.withUnsafeBufferPointer({ StateLine.find(#""type":"device_"#, in: $0) == nil }) { offsets.append(t - origin) }
        }
        return offsets
    }
}
