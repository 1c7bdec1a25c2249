import Foundation
import Testing

/// docs/clients.md's `Package.swift` for an app that uses ScrollClient, checked by SwiftPM as
/// written: a package made of it, beside a `scrolld` that is this checkout, must load with its
/// dependency resolved and its `.product(name:package:)` found (`swift package
/// show-dependencies` loads the whole graph and fails naming a package or product it cannot
/// find). The Swift example itself is compiled with the tests (ScrollClientDocTests).
@Suite("docs/clients.md: the package lines")
struct ScrollClientPackageDocTests {
    /// The ```swift block of docs/clients.md that is a manifest.
    static func manifest() throws -> String {
        let document = try String(contentsOf: Scrolld.packageRoot.appendingPathComponent("docs/clients.md"), encoding: .utf8)
        let blocks = document.components(separatedBy: "```swift\n").dropFirst().compactMap { $0.components(separatedBy: "```\n").first }
        return try #require(blocks.first { $0.hasPrefix("// swift-tools-version:") }, "docs/clients.md shows no Package.swift")
    }

    @Test func theDocumentsPackageLinesResolveAgainstThisCheckout() throws {
        let manifest = try Self.manifest()
        #expect(manifest.contains(#".package(path: "../scrolld")"#))
        #expect(manifest.contains(#".product(name: "ScrollClient", package: "scrolld")"#))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("scrollclient-package-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let app = root.appendingPathComponent("FeedApp")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("Sources/FeedApp"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("scrolld"), withDestinationURL: Scrolld.packageRoot)
        try manifest.write(to: app.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import ScrollClient\n".write(to: app.appendingPathComponent("Sources/FeedApp/main.swift"), atomically: true, encoding: .utf8)
        let result = try Scrolld.runTool("/usr/bin/env", ["swift", "package", "--package-path", app.path, "show-dependencies"])
        let output = String(decoding: result.stdout, as: UTF8.self) + result.stderr
        #expect(result.status == 0, "\(output)")
        #expect(!output.contains("error:"), "\(output)")
        #expect(output.contains("scrolld"), "\(output)")
    }
}
