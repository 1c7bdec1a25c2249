/// A small SVG writer: elements with escaped attributes and text, numbers printed with a fixed
/// precision. Enough for charts written by hand, without an XML library.
public struct SVGDocument: Sendable {
    public var width: Double
    /// Usually known only once everything is laid out; set it before `rendered`.
    public var height: Double
    private var body = ""
    private var open: [String] = []

    /// The document's title (its accessible name; viewers show it as a tooltip).
    public var title: String?

    public init(width: Double, height: Double, title: String? = nil) {
        self.width = width
        self.height = height
        self.title = title
    }

    /// Opens an element that later elements go into, until `close()`.
    public mutating func open(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue> = [:]) {
        startTag(name, attributes)
        body += ">\n"
        open.append(name)
    }

    public mutating func close() {
        guard let name = open.popLast() else { return }
        indent()
        body += "</\(name)>\n"
    }

    /// An element with no children, or with `text` as its content.
    public mutating func element(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue> = [:], text: String? = nil) {
        startTag(name, attributes)
        if let text {
            body += ">" + Self.escape(text) + "</\(name)>\n"
        } else {
            body += "/>\n"
        }
    }

    /// A `text` element made of runs, each with its own attributes (`tspan`s).
    public mutating func text(_ attributes: KeyValuePairs<String, any SVGAttributeValue>, runs: [(String, KeyValuePairs<String, any SVGAttributeValue>)]) {
        startTag("text", attributes)
        body += ">"
        for (run, runAttributes) in runs {
            body += "<tspan"
            for (key, value) in runAttributes { body += " \(key)=\"\(Self.escape(value.svgText))\"" }
            body += ">" + Self.escape(run) + "</tspan>"
        }
        body += "</text>\n"
    }

    /// A comment; `--` cannot appear in one, so dashes are spaced.
    public mutating func comment(_ text: String) {
        indent()
        var safe = ""
        for character in Self.escape(text) {
            if character == "-", safe.last == "-" { safe += " " }
            safe.append(character)
        }
        body += "<!-- \(safe) -->\n"
    }

    /// The whole document, with every element still open closed.
    public var rendered: String {
        var document = self
        while !document.open.isEmpty { document.close() }
        let w = Self.number(width)
        let h = Self.number(height)
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \
            width="\(w)" height="\(h)" viewBox="0 0 \(w) \(h)">

            """ + (title.map { "  <title>\(Self.escape($0))</title>\n" } ?? "") + document.body + "</svg>\n"
    }

    private mutating func startTag(_ name: String, _ attributes: KeyValuePairs<String, any SVGAttributeValue>) {
        indent()
        body += "<" + name
        for (key, value) in attributes {
            body += " \(key)=\"\(Self.escape(value.svgText))\""
        }
    }

    private mutating func indent() {
        body += String(repeating: "  ", count: open.count + 1)
    }

    /// Text made safe for XML content and attribute values: markup characters become
    /// entities, and characters XML 1.0 forbids (most C0 controls) become U+FFFD.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `value` with at most `decimals` decimals and no trailing zeros (`12.5`, `-3`, `0`);
    /// non-finite values print as 0 so the document stays valid.
    public static func number(_ value: Double, decimals: Int = 1) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else { return String(Int64(value.rounded())) }
        let units = Int64(scaled)
        if units == 0 { return "0" }
        var digits = String(units.magnitude)
        var decimalsLeft = max(0, decimals)
        // Trailing zeros of the fraction carry nothing.
        while decimalsLeft > 0, digits.hasSuffix("0") {
            digits.removeLast()
            decimalsLeft -= 1
        }
        if decimalsLeft > 0 {
            if digits.count <= decimalsLeft {
                digits = String(repeating: "0", count: decimalsLeft - digits.count + 1) + digits
            }
            digits.insert(".", at: digits.index(digits.endIndex, offsetBy: -decimalsLeft))
        }
        return (units < 0 ? "-" : "") + digits
    }
}

/// A value an SVG attribute can take: text (escaped when written) or a number.
public protocol SVGAttributeValue {
    var svgText: String { get }
}

extension String: SVGAttributeValue {
    public var svgText: String { self }
}

extension Double: SVGAttributeValue {
    public var svgText: String { SVGDocument.number(self) }
}

extension Int: SVGAttributeValue {
    public var svgText: String { String(self) }
}
