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
        var resolved: [(name: String, settings: ContainerConfiguration)] = []
        do {
            for slot in engine.slots {
                resolved.append((slot.container.name, try new.resolve(container: slot.container.name)))
            }
        } catch {
            throw ProtocolError(.invalidValue, error.description)
        }
        putInForce(new, resolved: resolved, at: time, announcing: true, into: &published)
        recorder?.recordDesktop(desktop, at: engine.now)
    }
}
