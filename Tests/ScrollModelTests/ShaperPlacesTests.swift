@testable import ScrollModel
import Testing

/// The engine finds each device's shaper through its place (``ScrollEngine/shaperPlaces``) as
/// devices come and go, past a few devices as below: every present device has one shaper, at
/// the place noted, shaped by the rules for its latest name, and a wheel history of its own.
@Suite("Shapers as devices come and go")
struct ShaperPlacesTests {
    static let names = ["Logitech USB Mouse", "SynPS/2 Synaptics TouchPad", "Griffin PowerMate", "Other"]

    @Test(arguments: 0..<100)
    func everyPresentDeviceHasItsShaperAtItsPlace(seed: Int) {
        var random = RoutingPropertyTests.Seeded(state: UInt64(seed) &* 40_503 &+ 17)
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "main", configuration: ContainerConfiguration(physics: InputShapingTests.physics()), at: 0))
        engine.setShapingRules(InputShapingTests.rules)
        var named: [Int: String] = [:]
        var time: Timestamp = 1_000_000
        // Up to 24 devices: both the search in order and the search by place.
        for _ in 0..<400 {
            time += 5_000
            let device = Int.random(in: 1...24, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let name = Self.names.randomElement(using: &random)!
                named[device] = name
                engine.handle(ScrollEvent(time: time, device: device, kind: .deviceAdded(name: name, capabilities: [.wheel])), { _ in })
            case 1:
                named[device] = nil
                engine.handle(ScrollEvent(time: time, device: device, kind: .deviceRemoved), { _ in })
            default:
                // Only a device that is there scrolls.
                guard named[device] != nil else { continue }
                engine.handle(ScrollEvent(time: time, device: device, kind: .wheel(v120: AxisValues(y: 120), degrees: nil)), { _ in })
            }
            // A removed device leaves no shaper behind, and no two shapers are one device's.
            #expect(engine.shapers.allSatisfy { named[$0.device] != nil }, "seed \(seed)")
            #expect(Set(engine.shapers.map(\.device)).count == engine.shapers.count, "seed \(seed)")
            #expect(engine.shaperPlaces.count == engine.shapers.count, "seed \(seed)")
            for (place, shaper) in engine.shapers.enumerated() {
                #expect(engine.shaperPlaces[shaper.device] == place, "seed \(seed), device \(shaper.device)")
            }
            for (device, name) in named {
                #expect(engine.shaping(forDevice: device) == InputShapingTests.rules.shaping(forDevice: name), "seed \(seed), device \(device)")
            }
        }
    }
}
