import ScrollProtocol

/// sway's settings for scrolling (docs/design.md §23), from its IPC's `GET_INPUTS` reply: an
/// array of inputs, each with `identifier` (`VENDOR:PRODUCT:NAME`, the name mangled as sway
/// does), `name`, `vendor`, `product`, `type` (`touchpad`, `pointer`, …), `scroll_factor`
/// and `libinput.natural_scroll` (`"enabled"`/`"disabled"`).
///
/// Each touchpad and pointer gives a rule for that device by its name. When every input of a
/// type agrees (what `input type:touchpad natural_scroll enabled` leaves), that value is also
/// the class's, so a device sway does not list (a replayed log's) follows it too.
public enum SwayInputs {
    /// The settings the reply says; a reply that is not what sway sends is refused.
    public static func settings(getInputsReply reply: [UInt8]) throws(ProtocolError) -> DesktopSettings {
        guard case .array(let inputs) = try ProtocolValue(parsing: reply) else {
            throw ProtocolError(.invalidValue, "sway's GET_INPUTS reply is not an array")
        }
        var settings = DesktopSettings(desktop: .sway)
        var natural: [DesktopDeviceMatch: Set<Bool>] = [:]
        var factors: [DesktopDeviceMatch: Set<Double>] = [:]
        for input in inputs {
            let kind: DesktopDeviceMatch
            switch input[member: "type"] {
            case .string("touchpad")?: kind = .touchpads
            case .string("pointer")?: kind = .mice
            default: continue
            }
            guard let device = device(input) else { continue }
            if case .string(let value)? = input[member: "libinput"]?[member: "natural_scroll"], value == "enabled" || value == "disabled" {
                settings.naturalScrolling[device] = value == "enabled"
                natural[kind, default: []].insert(value == "enabled")
            }
            if let factor = number(input[member: "scroll_factor"]), factor > 0, factor.isFinite {
                settings.scrollFactor[device] = factor
                factors[kind, default: []].insert(factor)
            }
        }
        for (kind, values) in natural where values.count == 1 { settings.naturalScrolling[kind] = values.first }
        for (kind, values) in factors where values.count == 1 { settings.scrollFactor[kind] = values.first }
        return settings
    }

    /// The device an input is: its `name`, else the name part of its `identifier`.
    static func device(_ input: ProtocolValue) -> DesktopDeviceMatch? {
        let vendor = number(input[member: "vendor"]).flatMap { UInt32(exactly: $0) }
        let product = number(input[member: "product"]).flatMap { UInt32(exactly: $0) }
        if case .string(let name)? = input[member: "name"] {
            return .device(name: name, vendor: vendor, product: product)
        }
        guard case .string(let identifier)? = input[member: "identifier"] else { return nil }
        let parts = identifier.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return .device(name: String(parts[2]), vendor: vendor, product: product)
    }

    /// sway's identifier of a device (`input_device_get_identifier`): `VENDOR:PRODUCT:NAME`,
    /// the name stripped of surrounding blanks and every space or unprintable character an
    /// underscore.
    public static func identifier(vendor: UInt32, product: UInt32, name: String) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0a || $0 == 0x0d }
        var bytes = Array(name.utf8)[...]
        while let first = bytes.first, blank(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, blank(last) { bytes = bytes.dropLast() }
        let mangled = bytes.map { $0 == 0x20 || $0 < 0x20 || $0 >= 0x7f ? UInt8(ascii: "_") : $0 }
        return "\(vendor):\(product):" + String(decoding: mangled, as: UTF8.self)
    }

    private static func number(_ value: ProtocolValue?) -> Double? {
        switch value {
        case .integer(let i)?: return Double(i)
        case .double(let d)?: return d
        default: return nil
        }
    }
}

/// sway's IPC framing (i3-ipc): the magic `i3-ipc`, the payload's length and the message type
/// as 32-bit integers in the host's byte order (little-endian here), then the payload.
public enum SwayIPC {
    public static let magic = Array("i3-ipc".utf8)
    /// The header's length: magic, length, type.
    public static let headerLength = 14
    /// `GET_INPUTS`.
    public static let getInputs: UInt32 = 100
    /// `SUBSCRIBE`.
    public static let subscribe: UInt32 = 2
    /// The type bit of an event.
    public static let eventBit: UInt32 = 0x8000_0000
    /// A payload larger than this is refused (sway's replies for a few dozen inputs are tens
    /// of kilobytes).
    public static let maximumPayload = 16 << 20

    /// A message of `type` with `payload`.
    public static func message(_ type: UInt32, _ payload: String = "") -> [UInt8] {
        let body = Array(payload.utf8)
        return magic + littleEndian(UInt32(body.count)) + littleEndian(type) + body
    }

    /// The payload length and type of a header; nil when it is not one.
    public static func header(_ bytes: [UInt8]) -> (length: Int, type: UInt32)? {
        guard bytes.count == headerLength, Array(bytes[0..<6]) == magic else { return nil }
        let length = Int(uint32(bytes[6..<10]))
        guard length <= maximumPayload else { return nil }
        return (length, uint32(bytes[10..<14]))
    }

    static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
}
