import ScrollDaemon
import ArgumentParser
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
        return DeviceSettings(
            naturalScrolling: settings.naturalScrolling, scrollMethod: method, scrollButton: settings.scrollButton,
            scrollButtonLock: settings.scrollButtonLock
        )
    }
}

extension ConfigurationFileSource {
    /// The configuration from `--config FILE` or the search path, for the commands that open
    /// devices themselves (`record`, `devices`), so they see input exactly as the daemon would.
    static func loadForDevices(config: String?, environment: [String: String]) throws -> Configuration {
        do {
            return try ConfigurationFileSource(explicitPath: config, environment: environment).load().configuration
        } catch {
            standardError("scrolld: \(error)")
            throw ExitCode(78)  // EX_CONFIG
        }
    }
}
