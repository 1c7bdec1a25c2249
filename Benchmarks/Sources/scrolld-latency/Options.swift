import Foundation

/// `--name value` options and flags, read by hand (the harness has no other dependency than
/// HdrHistogram).
struct Options {
    private var values: [String: String] = [:]
    private(set) var positional: [String] = []

    init(_ arguments: some Sequence<String>) throws {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            if argument.hasPrefix("--") {
                guard let value = iterator.next() else { throw HarnessError("\(argument) needs a value") }
                values[String(argument.dropFirst(2))] = value
            } else {
                positional.append(argument)
            }
        }
    }

    func string(_ name: String, default value: String? = nil) throws -> String {
        guard let v = values[name] ?? value else { throw HarnessError("--\(name) is required") }
        return v
    }

    func int(_ name: String, default value: Int) throws -> Int {
        guard let text = values[name] else { return value }
        guard let v = Int(text.replacingOccurrences(of: "_", with: "")) else { throw HarnessError("--\(name) expects an integer, got \(text)") }
        return v
    }

    func double(_ name: String, default value: Double) throws -> Double {
        guard let text = values[name] else { return value }
        guard let v = Double(text) else { throw HarnessError("--\(name) expects a number, got \(text)") }
        return v
    }

    func ints(_ name: String, default value: [Int]) throws -> [Int] {
        guard let text = values[name] else { return value }
        return try text.split(separator: ",").map {
            guard let v = Int($0) else { throw HarnessError("--\(name) expects integers separated by commas, got \(text)") }
            return v
        }
    }
}
