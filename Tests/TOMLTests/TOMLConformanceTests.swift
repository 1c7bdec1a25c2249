import Foundation
import TOML
import Testing

/// The official toml-test suite (https://github.com/toml-lang/toml-test), its TOML 1.0 cases
/// vendored in `Tests/toml-test` (data, with the suite's MIT licence; docs/toml.md says which
/// commit). `TOML_TEST_SUITE` names another copy's directory holding `tests/`, to try a newer
/// suite.
///
/// Every TOML 1.0 case of `tests/files-toml-1.0.0`: a valid file must parse to exactly the
/// values of its JSON file, compared as toml-test compares them (floats as numbers, date-times
/// as instants); an invalid file must be refused.
@Suite("toml-test, TOML 1.0")
struct TOMLConformanceTests {
    static let suite: String = {
        let root = ProcessInfo.processInfo.environment["TOML_TEST_SUITE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("toml-test").path
        return root + "/tests"
    }()

    static func cases(_ kind: String) throws -> [String] {
        let list = try String(contentsOfFile: suite + "/files-toml-1.0.0", encoding: .utf8)
        let cases = list.split(separator: "\n").map(String.init).filter { $0.hasPrefix(kind + "/") && $0.hasSuffix(".toml") }
        // An empty list would pass whatever the reader does.
        try #require(cases.count > 100, "only \(cases.count) \(kind) cases in \(suite)/files-toml-1.0.0")
        return cases
    }

    @Test func everyValidCaseParsesToItsExpectedValues() throws {
        let cases = try Self.cases("valid")
        var failures: [String] = []
        for name in cases {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.suite + "/" + name))
            let jsonName = String(name.dropLast(5)) + ".json"
            let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.suite + "/" + jsonName)))
            do {
                let table = try TOMLParser.parse(utf8: Array(bytes))
                if let difference = Self.difference(.table(table), expected, at: "") {
                    failures.append("\(name): \(difference)")
                }
            } catch {
                failures.append("\(name): refused: \(error)")
            }
        }
        print("toml-test valid: \(cases.count - failures.count)/\(cases.count) pass")
        #expect(failures.isEmpty, Comment(rawValue: "\(failures.count) valid cases fail:\n" + failures.joined(separator: "\n")))
    }

    @Test func everyInvalidCaseIsRefused() throws {
        let cases = try Self.cases("invalid")
        var accepted: [String] = []
        for name in cases {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.suite + "/" + name))
            do {
                let table = try TOMLParser.parse(utf8: Array(bytes))
                accepted.append("\(name): accepted as \(TOMLValue.table(table))")
            } catch {
                // TOML_TEST_VERBOSE=1 shows every message, to read them.
                if ProcessInfo.processInfo.environment["TOML_TEST_VERBOSE"] != nil { print("\(name): \(error)") }
            }
        }
        print("toml-test invalid: \(cases.count - accepted.count)/\(cases.count) refused")
        #expect(accepted.isEmpty, Comment(rawValue: "\(accepted.count) invalid cases accepted:\n" + accepted.joined(separator: "\n")))
    }

    /// Where `value` differs from toml-test's tagged JSON, or nil.
    static func difference(_ value: TOMLValue, _ json: Any, at key: String) -> String? {
        switch value {
        case .table(let table):
            guard let object = json as? [String: Any], !isTagged(object) else { return "\(key): a table, expected \(json)" }
            guard Set(table.keys) == Set(object.keys), table.count == object.count else {
                return "\(key): keys \(table.keys.sorted()), expected \(object.keys.sorted())"
            }
            for entry in table {
                if let difference = difference(entry.value, object[entry.key]!, at: key + "." + entry.key) { return difference }
            }
            return nil
        case .array(let items):
            guard let array = json as? [Any], array.count == items.count else { return "\(key): \(value), expected \(json)" }
            for (index, item) in items.enumerated() {
                if let difference = difference(item, array[index], at: key + "[\(index)]") { return difference }
            }
            return nil
        default:
            guard let object = json as? [String: String], let type = object["type"], let text = object["value"] else {
                return "\(key): \(value), expected \(json)"
            }
            let same: Bool = switch (value, type) {
            case (.string(let s), "string"): s == text
            case (.integer(let i), "integer"): Int64(text) == i
            case (.float(let d), "float"): sameFloat(d, text)
            case (.boolean(let b), "bool"): String(b) == text
            case (.offsetDateTime(let v), "datetime"): instant(v) == instant(text)
            case (.localDateTime(let v), "datetime-local"): normalized(v.description) == normalized(text)
            case (.localDate(let v), "date-local"): v.description == text
            case (.localTime(let v), "time-local"): normalized(v.description) == normalized(text)
            default: false
            }
            return same ? nil : "\(key): \(value.kindName) \(value), expected \(type) \(text)"
        }
    }

    static func isTagged(_ object: [String: Any]) -> Bool {
        object.count == 2 && object["type"] is String && object["value"] is String
    }

    static func sameFloat(_ value: Double, _ text: String) -> Bool {
        let lower = text.lowercased()
        if lower.hasSuffix("nan") { return value.isNaN }
        if lower.hasSuffix("inf") { return value.isInfinite && (value < 0) == lower.hasPrefix("-") }
        return Double(lower) == value
    }

    /// Upper case separators and no trailing zeros in the fraction of a second.
    static func normalized(_ text: String) -> String {
        var text = text.uppercased().replacingOccurrences(of: " ", with: "T")
        if let dot = text.firstIndex(of: ".") {
            var end = text.index(after: dot)
            while end < text.endIndex, text[end].isNumber { end = text.index(after: end) }
            var fraction = String(text[text.index(after: dot)..<end])
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text = String(text[..<dot]) + (fraction.isEmpty ? "" : "." + fraction) + String(text[end...])
        }
        return text
    }

    /// An offset date-time as seconds since 1970 and nanoseconds, for comparing instants.
    static func instant(_ value: TOMLOffsetDateTime) -> String {
        var components = DateComponents()
        components.year = value.date.year
        components.month = value.date.month
        components.day = value.date.day
        components.hour = value.time.hour
        components.minute = value.time.minute
        components.second = value.time.second
        components.nanosecond = value.time.nanosecond
        components.timeZone = TimeZone(secondsFromGMT: value.offsetMinutes * 60)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let date = calendar.date(from: components)!
        return "\(Int(date.timeIntervalSince1970.rounded(.down))) \(value.time.nanosecond / 1_000_000)"
    }

    static func instant(_ text: String) -> String {
        guard case .offsetDateTime(let value)? = try? TOMLParser.parse("v = " + text)["v"] else { return "unreadable \(text)" }
        return instant(value)
    }
}

/// The conformance comparison, checked without the suite: it must find a wrong value, key, kind
/// or instant, or the suite could pass whatever the reader returns.
@Suite("toml-test comparison")
struct TOMLConformanceComparisonTests {
    /// The comparison itself finds a wrong value, key, kind or instant.
    @Test func theComparisonFindsDifferences() {
        let json: [String: Any] = [
            "a": ["type": "integer", "value": "1"],
            "t": ["type": "datetime", "value": "1979-05-27T07:32:00Z"],
            "f": [["type": "float", "value": "nan"]],
        ]
        func parsed(_ text: String) -> TOMLValue { .table(try! TOMLParser.parse(text)) }
        #expect(TOMLConformanceTests.difference(parsed("a = 1\nt = 1979-05-27T00:32:00-07:00\nf = [nan]"), json, at: "") == nil)
        #expect(TOMLConformanceTests.difference(parsed("a = 2\nt = 1979-05-27T07:32:00Z\nf = [nan]"), json, at: "") != nil)
        #expect(TOMLConformanceTests.difference(parsed("a = 1\nt = 1979-05-27T07:32:00+01:00\nf = [nan]"), json, at: "") != nil)
        #expect(TOMLConformanceTests.difference(parsed("a = 1.0\nt = 1979-05-27T07:32:00Z\nf = [nan]"), json, at: "") != nil)
        #expect(TOMLConformanceTests.difference(parsed("b = 1\nt = 1979-05-27T07:32:00Z\nf = [nan]"), json, at: "") != nil)
        #expect(TOMLConformanceTests.difference(parsed("a = 1\nt = 1979-05-27T07:32:00Z\nf = [1.0]"), json, at: "") != nil)
    }
}
