import ScrollConfig

/// Parses `text` expecting failure and returns the error (nil when it parsed).
func failure(_ text: String, file: String = "scrolld.toml") -> ConfigurationError? {
    do {
        _ = try Configuration.parse(text, file: file)
        return nil
    } catch {
        return error
    }
}
