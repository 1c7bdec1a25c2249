import ScrollInput

extension LibinputContext.Backend {
    /// docs/design.md §9: explicit device nodes use the path backend; otherwise the udev seat — the
    /// one given, else `$XDG_SEAT`, else `seat0`.
    static func resolve(devices: [String], seat: String?, environment: [String: String]) -> Self {
        guard devices.isEmpty else { return .paths(devices) }
        return .seat(seat ?? environment["XDG_SEAT"].flatMap { $0.isEmpty ? nil : $0 } ?? "seat0")
    }

    /// How logs and recordings name the source: `seat seat0`, or the device nodes.
    var label: String {
        switch self {
        case .seat(let seat): return "seat \(seat)"
        case .paths(let paths): return paths.joined(separator: " ")
        }
    }
}

extension LibinputContext.Backend {
    /// The logind seat whose sessions input follows (docs/design.md §15): the udev seat read, or
    /// for explicit nodes the user's (`$XDG_SEAT`, else `seat0`): they are at a seat all the same.
    func followedSeat(environment: [String: String]) -> String {
        switch self {
        case .seat(let seat): return seat
        case .paths: return environment["XDG_SEAT"].flatMap { $0.isEmpty ? nil : $0 } ?? "seat0"
        }
    }
}
