import Foundation
import Testing

/// `systemd-analyze` on the shipped units (docs/systemd.md): they verify, and their exposure score
/// is the one docs/systemd.md records. That they work under a real systemd is RealKernelTests'
/// `systemdUnitsInTheGuest`.
@Suite("systemd units: verify and exposure score")
struct SystemdUnitTests {
    static let units = Scrolld.packageRoot.appendingPathComponent("systemd")
    static let analyze = URL(fileURLWithPath: "/usr/bin/systemd-analyze")

    /// The units in a fresh folder, with ExecStart pointing at this build: verify insists that the
    /// binary exists, and the source names where `make install` puts it.
    static func installedCopy() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-units-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let service = try String(contentsOf: units.appendingPathComponent("scrolld.service"), encoding: .utf8)
        let execStart = "ExecStart=/usr/local/bin/scrolld run"
        try #require(service.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") } == [Substring(execStart)],
                     "systemd/scrolld.service must say \(execStart) (make install substitutes the bin dir)")
        try service.replacingOccurrences(of: execStart, with: "ExecStart=\(Scrolld.binary.path) run")
            .write(to: folder.appendingPathComponent("scrolld.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: units.appendingPathComponent("scrolld.socket"), to: folder.appendingPathComponent("scrolld.socket"))
        return folder
    }

    /// `systemd-analyze --user ARGUMENTS`; a user manager's specifiers need $XDG_RUNTIME_DIR.
    static func analyze(_ arguments: [String], in folder: URL) throws -> Scrolld.Result {
        try #require(FileManager.default.isExecutableFile(atPath: analyze.path),
                     "\(analyze.path) missing: install the systemd package (make deps)")
        let runtime = folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try Scrollctl.run(["--user", "--no-pager"] + arguments, executable: analyze,
                                      environment: ["XDG_RUNTIME_DIR": runtime.path], limit: 60)
    }

    @Test("systemd-analyze verify accepts scrolld.socket and scrolld.service without a word")
    func unitsVerify() throws {
        let folder = try Self.installedCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        // --man=no: the man pages are checked by their own test, and need not be installed here.
        let result = try Self.analyze(["--man=no", "verify",
                                       folder.appendingPathComponent("scrolld.socket").path,
                                       folder.appendingPathComponent("scrolld.service").path], in: folder)
        let output = String(decoding: result.stdout, as: UTF8.self) + result.stderr
        #expect(result.status == 0, "systemd-analyze verify failed: \(output)")
        #expect(output.isEmpty, "systemd-analyze verify has remarks: \(output)")
    }

    @Test("the offline exposure score is the one docs/systemd.md records")
    func exposureScoreIsDocumented() throws {
        let folder = try Self.installedCopy()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.analyze(["security", "--offline=yes", folder.appendingPathComponent("scrolld.service").path], in: folder)
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "systemd-analyze security failed: \(result.stderr)")
        let measured = try #require(
            output.firstMatch(of: /Overall exposure level for scrolld\.service: ([0-9]+\.[0-9])/)?.1,
            "no exposure level in: \(output)")
        let command = "`systemd-analyze --user security --offline=yes systemd/scrolld.service`"
        let docs = try String(contentsOf: Scrolld.packageRoot.appendingPathComponent("docs/systemd.md"), encoding: .utf8)
        let row = try #require(docs.split(separator: "\n").first { $0.hasPrefix("|") && $0.contains(command) },
                               "docs/systemd.md has no table row for \(command)")
        let documented = try #require(row.firstMatch(of: /\|\s*([0-9]+\.[0-9])\s/)?.1, "no score in: \(row)")
        #expect(measured == documented, "systemd-analyze says \(measured), docs/systemd.md says \(documented):\n\(output)")
    }
}
