import TOML

/// The value of `v` in `v = TEXT`, or nil if that does not parse.
func value(_ text: String) -> TOMLValue? {
    (try? TOMLParser.parse("v = " + text))?["v"]
}

/// The error parsing `text`, or nil if it parses.
func failure(_ text: String) -> TOMLError? {
    do {
        _ = try TOMLParser.parse(text)
        return nil
    } catch {
        return error
    }
}

/// "LINE:COLUMN: MESSAGE" of the error parsing `text`, for exact comparisons.
func located(_ text: String) -> String? {
    failure(text).map { "\($0.line):\($0.column): \($0.message)" }
}
