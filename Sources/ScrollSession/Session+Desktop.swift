import ScrollConfig
import ScrollModel
import ScrollProtocol

extension Session {
    /// The desktop's settings change (docs/design.md §23): each device's shaping is resolved
    /// again and applies from its next event; every container takes the reduced motion that is
    /// now in force, and one whose settings changed publishes its state. Recorded as a
    /// `desktop` line, so a replay applies the same at the same instant.
    mutating func follow(_ desktop: DesktopInput, at time: Timestamp, into published: inout Publications) throws(ProtocolError) {
        var new = configuration
        new.desktop = desktop
        var resolved: [(Int, ContainerConfiguration)] = []
        do {
            for index in engine.slots.indices {
                resolved.append((index, try new.resolve(container: engine.slots[index].container.name)))
            }
        } catch {
            throw ProtocolError(.invalidValue, error.description)
        }
        advance(to: Swift.max(time, engine.now), into: &published)
        let time = engine.now
        configuration = new
        engine.setShapingRules(new.shapingRules)
        for (index, container) in resolved {
            var changed = false
            _ = engine.update(container: index, at: time) { changed = $0.configure(container, at: time) }
            if changed { published.states.append(engine.publish(container: index)) }
        }
        recorder?.recordDesktop(desktop, at: time)
    }
}
