import Testing

/// docs/architecture.md's sizes, kept true for every Swift target in Sources: a file a reader
/// reads through, a function a reader holds in mind at once.
@Suite struct SourceSizeTests {
    static let fileLimit = 400
    static let functionLimit = 60

    @Test func noSourceFileIsLongerThan400Lines() throws {
        var checked = 0
        for (target, kind) in try SourceTree.targets() where kind == .target || kind == .executableTarget {
            for file in try SourceTree.swiftFiles(of: target, kind: kind) {
                let lines = file.code.split(separator: "\n", omittingEmptySubsequences: false).count
                #expect(lines <= Self.fileLimit, "\(target)/\(file.name) has \(lines) lines")
                checked += 1
            }
        }
        #expect(checked > 300)
    }

    @Test func noFunctionInSourcesIsLongerThan60Lines() throws {
        var checked = 0
        for (target, kind) in try SourceTree.targets() where kind == .target || kind == .executableTarget {
            for file in try SourceTree.swiftFiles(of: target, kind: kind) {
                for body in FunctionBodies.spans(in: file.code) {
                    #expect(body.lines <= Self.functionLimit, "\(target)/\(file.name):\(body.firstLine) \(body.name) has \(body.lines) lines")
                    checked += 1
                }
            }
        }
        #expect(checked > 1500)
    }

    /// The scanner finds what it must: bodies over several lines, signatures over several lines,
    /// nested functions, and no body for a protocol's requirement.
    @Test func theScannerMeasuresFunctionsAsWritten() {
        let code = """
            protocol P {
                func required(_ a: Int) -> Int
            }
            struct S {
                init(
                    a: Int
                ) {
                    func nested() {
                    }
                }
                func one() { }
                mutating func generic<T>(_ t: T) throws(E) -> [T] where T: Hashable {
                    let x = [1, 2].map { $0 }
                    return []
                }
            }
            """
        let spans = FunctionBodies.spans(in: code).map { "\($0.name)@\($0.firstLine):\($0.lines)" }
        #expect(spans == ["init@5:6", "nested@8:2", "one@11:1", "generic@12:4"])
    }
}

/// Where each function, initialiser and subscript in code (comments and strings blanked) starts
/// and how many lines it spans, from its declaration to the brace that closes its body.
enum FunctionBodies {
    struct Span: Equatable {
        var name: String
        var firstLine: Int
        var lines: Int
    }

    static func spans(in code: String) -> [Span] {
        let scalars = Array(code.unicodeScalars)
        let declaration = try! Regex(#"\b(?:func\s+([^\s(<]+)|(init)[?!]?(?=\s*[(<])|(subscript)(?=\s*[(<])|(deinit)(?=\s*\{))"#)
        var spans: [Span] = []
        var lineStarts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { lineStarts.append(index + 1) }
        func line(of index: Int) -> Int {
            var low = 0, high = lineStarts.count
            while low + 1 < high {
                let middle = (low + high) / 2
                if lineStarts[middle] <= index { low = middle } else { high = middle }
            }
            return low + 1
        }
        let text = String(String.UnicodeScalarView(scalars))
        for match in text.matches(of: declaration) {
            let name = [1, 2, 3, 4].lazy.compactMap { match.output[$0].substring }.first.map(String.init) ?? "?"
            let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: match.range.lowerBound)
            let end = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: match.range.upperBound)
            // `self.init(…)`, `Type.init(…)`: a call, not a declaration.
            guard start == 0 || scalars[start - 1] != "." else { continue }
            guard let open = bodyStart(in: scalars, after: end), let close = matchingBrace(in: scalars, at: open) else { continue }
            spans.append(Span(name: name, firstLine: line(of: start), lines: line(of: close) - line(of: start) + 1))
        }
        return spans
    }

    /// The body's `{` after a signature, or nil when the signature ends without one (a
    /// protocol's requirement): a line ending outside parentheses ends it unless the next line
    /// goes on with the signature.
    private static func bodyStart(in scalars: [Unicode.Scalar], after index: Int) -> Int? {
        var depth = 0
        var index = index
        while index < scalars.count {
            switch scalars[index] {
            case "(", "[", "<": depth += 1
            case ")", "]": depth -= 1
            case ">" where index > 0 && scalars[index - 1] != "-": depth -= 1
            case "{" where depth <= 0: return index
            case "}" where depth <= 0: return nil
            case "\n" where depth <= 0:
                var next = index + 1
                while next < scalars.count, scalars[next] == " " || scalars[next] == "\n" { next += 1 }
                let rest = String(String.UnicodeScalarView(scalars[next..<min(scalars.count, next + 8)]))
                guard ["->", "throws", "where", "async", "rethrows", "{"].contains(where: rest.hasPrefix) else { return nil }
            default: break
            }
            index += 1
        }
        return nil
    }

    private static func matchingBrace(in scalars: [Unicode.Scalar], at open: Int) -> Int? {
        var depth = 0
        for index in open..<scalars.count {
            if scalars[index] == "{" { depth += 1 } else if scalars[index] == "}" {
                depth -= 1
                if depth == 0 { return index }
            }
        }
        return nil
    }
}
