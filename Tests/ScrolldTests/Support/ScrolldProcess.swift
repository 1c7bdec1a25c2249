import Foundation
import Testing

/// Runs the real `scrolld` binary that `swift build` produced, as a user would.
enum Scrolld {
    /// The nearest folder above this file that holds Package.swift: the same wherever in the
    /// test target the file sits.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            let parent = folder.deletingLastPathComponent()
            precondition(parent.path != folder.path, "no Package.swift above \(#filePath)")
            folder = parent
        }
        return folder
    }()

    /// Beside the test bundle (SwiftPM puts every product in one folder), else `.build/debug`;
    /// `SCROLLD_TEST_BINARY` names another build (e.g. the release one, to measure it).
    static let binary: URL = {
        if let path = ProcessInfo.processInfo.environment["SCROLLD_TEST_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("scrolld")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return packageRoot.appendingPathComponent(".build/debug/scrolld")
    }()

    static func example(_ name: String) -> String {
        packageRoot.appendingPathComponent("examples").appendingPathComponent(name).path
    }

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: String
        var lines: [String] { String(decoding: stdout, as: UTF8.self).split(separator: "\n").map(String.init) }
        /// Every stdout line decoded as a JSON object.
        var states: [[String: Any]] {
            lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
        }
    }

    static func run(_ arguments: [String], stdin: Data? = nil) throws -> Result {
        try runTool(binary.path, arguments, stdin: stdin)
    }

    /// Runs any program the same way.
    static func runTool(_ path: String, _ arguments: [String], stdin: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // stderr goes to a file: it is small, and reading two pipes at once needs threads.
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-stderr-\(UUID().uuidString)")
        try Data().write(to: errURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        try err.close()
        if let stdin {
            try input.fileHandleForWriting.write(contentsOf: stdin)
            try input.fileHandleForWriting.close()
        }
        let stdoutData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderrData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(status: process.terminationStatus, stdout: stdoutData, stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// Writes `text` to a fresh temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String = "log.scrolllog") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A log of `count` wheel clicks of `v120`, 1 ms apart from t = 1 s (a 1000 Hz mouse).
    static func wheelClickLog(count: Int, v120: String) throws -> String {
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<count { lines.append(#"{"t":\#(1_000_000 + i * 1000),"dev":1,"type":"wheel","v120":{"y":\#(v120)}}"#) }
        return try temporaryFile(lines.joined(separator: "\n") + "\n")
    }
}

extension Dictionary where Key == String, Value == Any {
    func number(_ path: String...) -> Double? {
        var current: Any? = self
        for key in path { current = (current as? [String: Any])?[key] }
        return (current as? NSNumber)?.doubleValue
    }

    func string(_ key: String) -> String? { self[key] as? String }
    var t: Int64? { (self["t"] as? NSNumber)?.int64Value }
    var y: Double { number("contentOffset", "y") ?? .nan }
    var vy: Double { number("velocity", "y") ?? .nan }
    var phase: String { string("phase") ?? "?" }
    /// The vertical scroll indicator's `visible` (docs/design.md §22); nil without one.
    var indicatorVisible: Bool? {
        ((self["indicators"] as? [String: Any])?["y"] as? [String: Any])?["visible"] as? Bool
    }
}

func expectClose(_ a: Double, _ b: Double, tolerance: Double = 1e-9, _ comment: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation) {
    let scale = Swift.max(1, Swift.abs(b))
    #expect(Swift.abs(a - b) <= tolerance * scale, "\(a) is not \(b) \(comment())", sourceLocation: sourceLocation)
}
