import Foundation

/// Runs the package's Makefile as a user would, from the package root.
enum Make {
    struct Result {
        var status: Int32
        /// stdout and stderr interleaved, as on a terminal.
        var output: String
    }

    /// The Makefile's variables: none may leak in from the environment of whoever runs the
    /// tests (`make test PREFIX=…` exports MAKEFLAGS, and `PREFIX ?=` reads the environment).
    static let variables = [
        "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "PREFIX", "DESTDIR", "BINDIR", "USERUNITDIR",
        "MANDIR", "DOCDIR", "BASHCOMPDIR", "ZSHCOMPDIR", "FISHCOMPDIR", "SYSCONFDIR", "CONFDIR",
        "CONFIGURATION", "RELEASE_FLAGS", "BIN_DIR", "SKIP_BUILD", "MAN_BIN_DIR", "GENERATE_MANUAL_SCRATCH",
    ]

    /// The directory of the binaries under test (SwiftPM's debug products).
    static var binDirectory: String { Scrolld.binary.deletingLastPathComponent().path }

    static func run(_ arguments: [String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["make", "--no-print-directory"] + arguments
        process.currentDirectoryURL = Scrolld.packageRoot
        var environment = ProcessInfo.processInfo.environment
        for name in variables { environment.removeValue(forKey: name) }
        process.environment = environment
        // One file for both streams keeps their order and needs no reader thread.
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("make-\(UUID().uuidString)")
        try Data().write(to: outURL)
        defer { try? FileManager.default.removeItem(at: outURL) }
        let out = try FileHandle(forWritingTo: outURL)
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try out.close()
        process.waitUntilExit()
        let output = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        return Result(status: process.terminationStatus, output: output)
    }
}
