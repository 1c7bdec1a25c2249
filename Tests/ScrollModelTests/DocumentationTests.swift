import Foundation
import ScrollModel
import Testing

/// Keeps ScrollModel's public API documented: every public declaration in
/// `Sources/ScrollModel` — including the cases of public enums and the requirements of public
/// protocols, which are public without saying so — must have a `///` comment directly above it
/// (attributes such as `@inlinable` may sit in between).
///
/// The check reads the sources as text, which is enough for this module's style (one
/// declaration per line, braces not hidden in strings); it is not a Swift parser.
@Suite struct DocumentationTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/ScrollModel")

    @Test func everyPublicDeclarationHasADocComment() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasSuffix(".swift") }
            .sorted()
        #expect(files.count > 20, "found only \(files) in \(Self.sources.path)")
        var declarations = 0
        var undocumented: [String] = []
        for file in files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
            for declaration in PublicDeclarationScanner.scan(text) {
                declarations += 1
                if !declaration.isDocumented {
                    undocumented.append("\(file):\(declaration.line): \(declaration.text)")
                }
            }
        }
        #expect(declarations > 200, "the scanner found only \(declarations) public declarations")
        if !undocumented.isEmpty {
            Issue.record(
                "\(undocumented.count) of \(declarations) public declarations have no /// comment:\n\(undocumented.joined(separator: "\n"))"
            )
        }
    }

    static let article = sources.appendingPathComponent("ScrollModel.docc/DrivingTheEngine.md")

    /// The example of DrivingTheEngine.md, verbatim between the markers (the next test keeps
    /// the two copies equal), then the values its comments claim.
    @Test func drivingTheEngineExample() {
        // article example begins
        var engine = ScrollEngine(frameRate: 120)
        let main = engine.add(ScrollContainer(name: "main"))
        var published: [ScrollEngine.Update] = []

        // One detent down at t = 0 µs: a spring toward 600^(2/3) = 71.138 px, phase .interacting.
        let detent = ScrollEvent(time: 0, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil))
        engine.handle(detent) { published.append($0) }

        // Look ahead on a copy: 50 ms in, the offset is 33.121 px. The engine itself is unchanged.
        var preview = engine
        let at50ms = preview.sample(container: main, at: 50_000)

        // Run frames and the wheel timer until nothing is due; a daemon would sleep in between.
        while let deadline = engine.nextDeadline {
            engine.advance(to: deadline) { published.append($0) }
        }
        let rested = engine[main].state  // .idle, contentOffset.y exactly 71.138…

        // scrollTo y = 1000 along the smooth spring, one second later.
        let now = engine.now + 1_000_000
        engine.advance(to: now) { published.append($0) }
        let started = engine.update(container: main, at: now) {
            $0.scroll(to: AxisValues(y: 1000), animation: .smooth, at: now)
        }  // .animating
        while let deadline = engine.nextDeadline {
            engine.advance(to: deadline) { published.append($0) }
        }
        let arrived = engine[main].state  // .idle, contentOffset.y == 1000
        // article example ends

        let step = ScrollPhysics().wheelStep(forLength: 600)
        expectClose(step, 71.138)
        #expect(published.first?.cause == .input)
        #expect(published.first?.state.phase == .interacting)
        expectClose(at50ms.contentOffset.y, 33.121)
        #expect(at50ms.time == 50_000)
        #expect(preview.now == 50_000)
        #expect(rested.phase == .idle)
        #expect(rested.contentOffset.y == step)
        #expect(started.phase == .animating)
        #expect(arrived.phase == .idle)
        #expect(arrived.contentOffset.y == 1000)
        // Frames ran at 120 Hz from the detent: the first frame update is at round(10⁶/120) µs.
        #expect(published.first(where: { $0.cause == .frame })?.state.time == 8333)
        #expect(published.last?.state.contentOffset.y == 1000)
    }

    @Test func articleExampleMatchesTheTest() throws {
        let article = try String(contentsOf: Self.article, encoding: .utf8)
        let blocks = article.components(separatedBy: "```swift\n").dropFirst()
        let shown = try #require(blocks.first?.components(separatedBy: "```").first)
        let test = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let marked = try #require(
            test.components(separatedBy: "// article example begins\n").dropFirst().first?
                .components(separatedBy: "        // article example ends").first
        )
        let dedented = marked.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : String($0) }
            .joined(separator: "\n")
        #expect(dedented == shown, "DrivingTheEngine.md's example differs from the code this test runs")
    }

    @Test func scannerFindsImplicitlyPublicMembersAndSkipsBodies() {
        let source = """
            /// Documented.
            public enum E {
                case a
                /// Documented.
                case b, c
                /// Documented.
                @inlinable public var x: Int {
                    switch self { case .a: return 1
                    default: return 2 }
                }
                enum Inner { case hidden }
            }
            public protocol P {
                associatedtype V
                /// Documented.
                static var v: V { get }
            }
            struct Internal { public var notReally: Int { 0 } }
            // A plain comment is not documentation.
            @usableFromInline public let y = "{"
            """
        let found = PublicDeclarationScanner.scan(source)
        #expect(found.map(\.text) == [
            "public enum E {", "case a", "case b, c", "@inlinable public var x: Int {",
            "public protocol P {", "associatedtype V", "static var v: V { get }",
            "struct Internal { public var notReally: Int { 0 } }", "@usableFromInline public let y = \"{\"",
        ])
        #expect(found.filter { !$0.isDocumented }.map(\.line) == [3, 13, 14, 18, 20])
    }
}

/// Finds public declarations line by line, with enough brace tracking to know which lines are
/// directly inside a public enum (its cases are public) or a public protocol (its requirements
/// are), and which lines are inside bodies (a `case` there belongs to a `switch`).
enum PublicDeclarationScanner {
    struct Declaration {
        var line: Int
        var text: String
        var isDocumented: Bool
    }

    enum Scope {
        case publicEnum, publicProtocol, other
    }

    static let memberKeywords = ["associatedtype", "var", "let", "func", "init", "subscript", "static", "typealias", "mutating"]

    static func scan(_ text: String) -> [Declaration] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var found: [Declaration] = []
        // One entry per open brace: the scope that brace opened.
        var scopes: [Scope] = []
        for (index, raw) in lines.enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            let code = codePart(of: trimmed)
            let words = code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init)
            let enclosing = scopes.last
            let firstWord = words.first(where: { !$0.isEmpty }) ?? ""
            let isPublic =
                words.contains("public") || words.contains("open")
                || (enclosing == .publicEnum && code.hasPrefix("case ") && !code.hasSuffix(":"))
                || (enclosing == .publicProtocol && memberKeywords.contains(firstWord))
            if isPublic {
                found.append(Declaration(line: index + 1, text: trimmed, isDocumented: documented(before: index, in: lines)))
            }
            // What a brace opened on this line is: only the first one counts as the type's body.
            let opened: Scope
            if words.contains("public") && words.contains("enum") {
                opened = .publicEnum
            } else if words.contains("public") && words.contains("protocol") {
                opened = .publicProtocol
            } else {
                opened = .other
            }
            var first = true
            for character in code {
                if character == "{" {
                    scopes.append(first ? opened : .other)
                    first = false
                } else if character == "}" {
                    _ = scopes.popLast()
                }
            }
        }
        return found
    }

    /// A line without its `//` comment and with string literals emptied, so neither can hold a
    /// brace or a keyword that counts.
    static func codePart(of line: String) -> String {
        var result = ""
        var inString = false
        var previous: Character = " "
        for character in line {
            if inString {
                if character == "\"" && previous != "\\" { inString = false; result.append(character) }
            } else if character == "\"" {
                inString = true
                result.append(character)
            } else if character == "/" && previous == "/" {
                result.removeLast()
                break
            } else {
                result.append(character)
            }
            previous = character
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// Whether the nearest line above `index` that is not an attribute starts with `///`.
    static func documented(before index: Int, in lines: [String]) -> Bool {
        var i = index - 1
        while i >= 0 {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            if isAttributeLine(line) {
                i -= 1
                continue
            }
            return line.hasPrefix("///")
        }
        return false
    }

    /// A line holding only attributes (`@inlinable`, `@inline(__always)`, …), which may sit
    /// between a declaration and its comment.
    static func isAttributeLine(_ line: String) -> Bool {
        line.wholeMatch(of: /(@\w+(\([^)]*\))?\s*)+/) != nil
    }
}
