/// Number formatting without Foundation.
enum Format {
    /// `x` with exactly `places` decimals, rounded half away from zero; no "-0".
    static func fixed(_ x: Double, _ places: Int) -> String {
        guard x.isFinite else { return x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf") }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(x) * scale).rounded()
        guard scaled < 1e15 else { return String(x) }
        let units = Int(scaled)
        let divisor = Int(scale)
        var text = units == 0 || x > 0 ? "" : "-"
        text += String(units / divisor)
        if places > 0 {
            let fraction = String(units % divisor)
            text += "." + String(repeating: "0", count: places - fraction.count) + fraction
        }
        return text
    }

    /// `text` padded with spaces on the left to `width` characters.
    static func right(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }

    /// `text` padded with spaces on the right to `width` characters.
    static func left(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
