import ScrollJSON
import ScrollModel

/// Writes event log lines (docs/design.md §3): no spaces, keys in the order of the contract (`t`,
/// `dev`, `type`, then the type's fields in table order), absent axes omitted. Numbers are
/// written so that they parse back to the same values (see `JSONNumberFormatter`, which also
/// documents the clamping of NaN and infinities), so reading what was written gives the same
/// events.
public struct EventLogWriter: Sendable {
    public init() {}

    /// Appends the header line, newline included.
    public func appendHeaderLine(_ header: EventLogHeader, to buffer: inout [UInt8]) {
        appendHeader(header, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// Appends one event's line, newline included.
    public func appendLine(_ event: ScrollEvent, to buffer: inout [UInt8]) {
        append(event, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
    }

    /// The header line's text, without a newline.
    public func headerLine(_ header: EventLogHeader) -> String {
        var buffer: [UInt8] = []
        appendHeader(header, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// An event's line text, without a newline.
    public func line(_ event: ScrollEvent) -> String {
        var buffer: [UInt8] = []
        append(event, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private func appendHeader(_ header: EventLogHeader, to buffer: inout [UInt8]) {
        raw("{\"format\":", &buffer)
        JSONStringFormatter.append(header.format, to: &buffer)
        raw(",\"version\":", &buffer)
        JSONNumberFormatter.append(header.version, to: &buffer)
        if let created = header.created {
            raw(",\"created\":", &buffer)
            JSONStringFormatter.append(created, to: &buffer)
        }
        if let source = header.source {
            raw(",\"source\":", &buffer)
            JSONStringFormatter.append(source, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    private func append(_ event: ScrollEvent, to buffer: inout [UInt8]) {
        raw("{\"t\":", &buffer)
        JSONNumberFormatter.append(event.time, to: &buffer)
        raw(",\"dev\":", &buffer)
        JSONNumberFormatter.append(event.device, to: &buffer)
        switch event.kind {
        case .deviceAdded(let name, let capabilities):
            raw(",\"type\":\"device_added\",\"name\":", &buffer)
            JSONStringFormatter.append(name, to: &buffer)
            raw(",\"caps\":[", &buffer)
            var first = true
            for (capability, capabilityName) in DeviceCapabilities.names where capabilities.contains(capability) {
                if !first { buffer.append(UInt8(ascii: ",")) }
                first = false
                JSONStringFormatter.append(capabilityName, to: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .deviceRemoved:
            raw(",\"type\":\"device_removed\"", &buffer)
        case .wheel(let v120, let degrees):
            raw(",\"type\":\"wheel\",\"v120\":", &buffer)
            appendAxes(v120, to: &buffer)
            if let degrees {
                raw(",\"deg\":", &buffer)
                appendAxes(degrees, to: &buffer)
            }
        case .finger(let delta):
            raw(",\"type\":\"finger\",\"delta\":", &buffer)
            appendAxes(delta, to: &buffer)
        case .continuous(let delta):
            raw(",\"type\":\"continuous\",\"delta\":", &buffer)
            appendAxes(delta, to: &buffer)
        case .holdBegin(let fingers):
            raw(",\"type\":\"hold_begin\",\"fingers\":", &buffer)
            JSONNumberFormatter.append(fingers, to: &buffer)
        case .holdEnd(let fingers, let cancelled):
            raw(",\"type\":\"hold_end\",\"fingers\":", &buffer)
            JSONNumberFormatter.append(fingers, to: &buffer)
            raw(cancelled ? ",\"cancelled\":true" : ",\"cancelled\":false", &buffer)
        case .touchDown(let slot, let point):
            raw(",\"type\":\"touch_down\",\"slot\":", &buffer)
            appendTouch(slot, point, to: &buffer)
        case .touchMotion(let slot, let point):
            raw(",\"type\":\"touch_motion\",\"slot\":", &buffer)
            appendTouch(slot, point, to: &buffer)
        case .touchUp(let slot):
            raw(",\"type\":\"touch_up\",\"slot\":", &buffer)
            JSONNumberFormatter.append(slot, to: &buffer)
        case .touchCancel(let slot):
            raw(",\"type\":\"touch_cancel\",\"slot\":", &buffer)
            JSONNumberFormatter.append(slot, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `N,"x":X,"y":Y` of a touch line (docs/design.md §25).
    private func appendTouch(_ slot: Int, _ point: Point, to buffer: inout [UInt8]) {
        JSONNumberFormatter.append(slot, to: &buffer)
        raw(",\"x\":", &buffer)
        JSONNumberFormatter.append(point.x, to: &buffer)
        raw(",\"y\":", &buffer)
        JSONNumberFormatter.append(point.y, to: &buffer)
    }

    private func appendAxes(_ axes: AxisValues, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "{"))
        if let x = axes.x {
            raw("\"x\":", &buffer)
            JSONNumberFormatter.append(x, to: &buffer)
        }
        if let y = axes.y {
            raw(axes.x == nil ? "\"y\":" : ",\"y\":", &buffer)
            JSONNumberFormatter.append(y, to: &buffer)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    @inline(__always)
    private func raw(_ text: StaticString, _ buffer: inout [UInt8]) {
        JSONStringFormatter.appendRaw(text, to: &buffer)
    }
}
