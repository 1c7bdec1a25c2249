import Foundation
import ScrollDesktop

/// A sink that keeps every delivery, and lets a test wait for one it expects.
final class RecordingSink: DesktopSettingsSink, @unchecked Sendable {
    private let condition = NSCondition()
    private var deliveries: [DesktopSettings] = []

    func desktopSettingsChanged(_ settings: DesktopSettings) {
        condition.lock()
        deliveries.append(settings)
        condition.broadcast()
        condition.unlock()
    }

    var received: [DesktopSettings] {
        condition.lock()
        defer { condition.unlock() }
        return deliveries
    }

    /// Waits until the last delivery satisfies `expected`; that delivery, or nil after the
    /// deadline (which only catches a hang: a delivery comes in milliseconds).
    func waitForLast(within seconds: Double = 120, _ expected: (DesktopSettings) -> Bool) -> DesktopSettings? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let last = deliveries.last, expected(last) { return last }
            if !condition.wait(until: deadline) { return nil }
        }
    }
}
