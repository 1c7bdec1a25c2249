import Foundation
import ScrollClient
import Testing

// Every ```swift block of ScrollClient's doc comments and of its DocC catalog, compiled here as
// written (a test below checks that each block is one of these, line for line).
// doc comment examples begin

func docCommentExampleOfScrollClient() async throws {
    let scrolld = try await ScrollClient.connect(reconnect: true)
    try await scrolld.configure("list", ContainerSettings(
        containerSize: Size(width: 400, height: 600), rows: .uniform(count: 100, height: 44)))
    for try await state in scrolld.states(of: "list") {
        print(state.phase, state.contentOffset.y)
    }
}

func docCommentExampleOfObserve(_ scrolld: ScrollClient, loadMore: () async throws -> Void) async throws {
    for try await change in scrolld.observe("feed", .nearEnd(distance: 300)) where change.new {
        try await loadMore()
    }
}

func docCommentExampleOfObservedValue(_ scrolld: ScrollClient) async throws {
    for try await change in scrolld.observe("feed", .phase) where change.new == .idle {
        print("at rest")
    }
    for try await change in scrolld.observe("feed", .headerProgress()) {
        print("header", change.new ?? 0) // Double?: nil without a header
    }
    for try await change in scrolld.observe("feed", .nearEnd(distance: 300)) where change.new {
        print("load more") // Bool
    }
}

func docCommentExampleOfContainerSettings(_ scrolld: ScrollClient) async throws {
    try await scrolld.configure("feed", ContainerSettings(
        containerSize: Size(width: 400, height: 600),
        header: .init(minHeight: 60, maxHeight: 200),
        rows: .uniform(count: 100, height: 44)
    ), owned: true)
}

func docCatalogExample() async throws {
    let scrolld = try await ScrollClient.connect(reconnect: true)
    try await scrolld.configure("feed", ContainerSettings(
        containerSize: Size(width: 400, height: 600),
        header: .init(minHeight: 60, maxHeight: 200),
        rows: .uniform(count: 100, height: 44)
    ), owned: true)
    try await scrolld.scroll("feed", to: .row(50, anchor: .center), animation: .smooth)
    for try await state in scrolld.states(of: "feed") {
        print(state.phase, state.contentOffset.y, state.header?.progress ?? 0)
    }
}

// doc comment examples end

@Suite("ScrollClient's doc comments: their examples compile")
struct ScrollClientDocCommentTests {
    /// The ```swift blocks of a source's `///` comments, or of a Markdown file, each as its
    /// lines with the indentation trimmed.
    static func blocks(in text: String, comments: Bool) -> [[String]] {
        var blocks: [[String]] = []
        var current: [String]?
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if comments {
                guard line.hasPrefix("///") else { continue }
                line = String(line.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            }
            if line == "```swift" {
                current = []
            } else if line == "```", let block = current {
                blocks.append(block)
                current = nil
            } else if current != nil {
                current!.append(line)
            }
        }
        return blocks
    }

    @Test func everyExampleIsCompiledHere() throws {
        let root = Scrolld.packageRoot
        let test = try String(contentsOf: root.appendingPathComponent("Tests/ScrolldTests/Clients/ScrollClientDocCommentTests.swift"), encoding: .utf8)
        let compiled = try #require(test.components(separatedBy: "// doc comment examples begin\n").last?.components(separatedBy: "// doc comment examples end").first)
        let lines = compiled.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let sources = root.appendingPathComponent("Sources/ScrollClient")
        var found = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted() where name.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(name), encoding: .utf8)
            for block in Self.blocks(in: text, comments: true) {
                found += 1
                #expect(Self.contains(lines, block), "\(name): an example not compiled by this test:\n\(block.joined(separator: "\n"))")
            }
        }
        let catalog = try String(contentsOf: sources.appendingPathComponent("ScrollClient.docc/ScrollClient.md"), encoding: .utf8)
        for block in Self.blocks(in: catalog, comments: false) {
            found += 1
            #expect(Self.contains(lines, block), "ScrollClient.docc: an example not compiled by this test:\n\(block.joined(separator: "\n"))")
        }
        #expect(found >= 5)
    }

    /// Whether `block` appears in `lines`, one line after the other (the catalog's `import`
    /// is this file's).
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        let block = block.filter { !$0.hasPrefix("import ") && !$0.isEmpty }
        let lines = lines.filter { !$0.isEmpty }
        guard !block.isEmpty, block.count <= lines.count else { return block.isEmpty }
        return (0...(lines.count - block.count)).contains { Array(lines[$0..<($0 + block.count)]) == block }
    }
}
