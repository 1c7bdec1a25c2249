extension ScrollEngine {
    /// Puts new shaping rules in force (start, reload): every known device's shaping is
    /// resolved again from its name and applies from its next event; its wheel history stays.
    public mutating func setShapingRules(_ rules: InputShapingRules) {
        shapingRules = rules
        isShaping = !rules.isEmpty
        for index in shapers.indices {
            let device = shapers[index].device
            shapers[index].update(rules.shaping(forDevice: devices[device], touchpad: touchpads[device] ?? nil))
        }
    }

    /// The shaping of `device`: its shaper's, else what the rules give a device of its name
    /// (nil: never announced).
    public func shaping(forDevice device: Int) -> InputShaping {
        if let place = shaperPlaces[device] { return shapers[place].shaping }
        return isShaping ? shapingRules.shaping(forDevice: devices[device], touchpad: touchpads[device] ?? nil) : .identity
    }

    /// A device was announced: its shaping from the rules for its name (a device id seen again
    /// starts afresh).
    mutating func deviceAppeared(_ device: Int, name: String) {
        let shaper = DeviceShaper(device: device, shaping: shapingRules.shaping(forDevice: name, touchpad: touchpads[device] ?? nil))
        if let place = shaperPlaces[device] {
            shapers[place] = shaper
        } else {
            shaperPlaces[device] = shapers.count
            shapers.append(shaper)
        }
    }

    /// The device is gone: its shaper leaves, the last one taking its place.
    mutating func removeShaper(of device: Int) {
        guard let place = shaperPlaces.removeValue(forKey: device) else { return }
        let last = shapers.removeLast()
        if place < shapers.count {
            shapers[place] = last
            shaperPlaces[last.device] = place
        }
    }

    /// Past this many devices an event finds its shaper by hashing its id, not in order.
    static let shapersSearchedInOrder = 8

    /// The index of the shaper of `device` when its shaping changes anything; nil otherwise,
    /// so that the common case (no rules, or none for this device) looks no further and
    /// copies no event. A device that was never announced gets a shaper on its first event
    /// (once), from the rules that match every device.
    @inline(__always)
    mutating func activeShaper(for device: Int) -> Int? {
        guard isShaping else { return nil }
        var index = 0
        if shapers.count <= Self.shapersSearchedInOrder {
            while index < shapers.count, shapers[index].device != device { index += 1 }
        } else {
            index = shaperPlaces[device] ?? shapers.count
        }
        if index == shapers.count {
            shaperPlaces[device] = index
            shapers.append(DeviceShaper(device: device, shaping: shapingRules.shaping(forDevice: devices[device], touchpad: touchpads[device] ?? nil)))
        }
        return shapers[index].shaping.isIdentity ? nil : index
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
