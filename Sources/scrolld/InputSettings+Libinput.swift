import ScrollConfig
import ScrollInput

extension InputSettings {
    /// The configuration's `[input]` settings for a device, in ScrollInput's terms.
    func libinputSettings(forDevice name: String) -> DeviceSettings {
        let settings = settings(forDevice: name)
        let method: DeviceSettings.ScrollMethod? = settings.scrollMethod.map {
            switch $0 {
            case .twoFinger: return .twoFinger
            case .edge: return .edge
            case .button: return .button
            case .none: return .none
            }
        }
        return DeviceSettings(naturalScrolling: settings.naturalScrolling, scrollMethod: method, scrollButton: settings.scrollButton)
    }
}
