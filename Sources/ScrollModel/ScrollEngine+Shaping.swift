extension ScrollEngine {
    /// Puts new shaping rules in force (start, reload): every known device's shaping is
    /// resolved again from its name and applies from its next event; its wheel history stays.
    public mutating func setShapingRules(_ rules: InputShapingRules) {
        shapingRules = rules
        for id in shapers.keys {
            shapers[id]!.update(rules.shaping(forDevice: devices[id]))
        }
    }

    /// The shaping of `device`: its shaper's, else what the rules give a device never
    /// announced.
    public func shaping(forDevice device: Int) -> InputShaping {
        shapers[device]?.shaping ?? shapingRules.shaping(forDevice: devices[device])
    }

    /// `event` shaped by its device (DESIGN §18) with the shaping that applies to it; nil when
    /// its device's shaping changes nothing, so that the common case copies no event.
    ///
    /// A device that was never announced gets a shaper on its first event (once), from the
    /// rules without a `match`.
    mutating func shape(_ event: ScrollEvent) -> (event: ScrollEvent, shaping: InputShaping)? {
        if shapers.isEmpty && shapingRules.isEmpty { return nil }
        var index = shapers.index(forKey: event.device)
        if index == nil {
            let shaping = shapingRules.shaping(forDevice: nil)
            guard !shaping.isIdentity else { return nil }
            shapers[event.device] = DeviceShaper(shaping: shaping)
            index = shapers.index(forKey: event.device)
        }
        guard !shapers.values[index!].shaping.isIdentity else { return nil }
        var shaped = event
        shapers.values[index!].shape(&shaped)
        return (shaped, shapers.values[index!].shaping)
    }
}

extension ScrollContainer {
    /// Remembers where the scroll event that reached the container came from (the `source`
    /// observation). The name is looked up only when the device or kind changes.
    @inline(__always)
    mutating func noteSource(of event: ScrollEvent, devices: [Int: String]) {
        guard let kind = InputOrigin.kind(of: event.kind) else { return }
        if source?.device == event.device && source?.kind == kind { return }
        source = InputOrigin(device: event.device, name: devices[event.device], kind: kind)
    }
}
