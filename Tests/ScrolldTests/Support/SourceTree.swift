import Foundation

/// The package's own sources as ArchitectureTests reads them: the targets Package.swift
/// declares, each target's Swift files, and what a file imports and calls once its comments and
/// string literals are set aside (an `import json` in an embedded Python script is not Swift's).
enum SourceTree {
    enum Kind: String {
        case target, executableTarget, systemLibrary, testTarget
    }

    /// Every target Package.swift declares, by name.
    static func targets() throws -> [String: Kind] {
        let manifest = try String(contentsOf: Scrolld.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([^"]+)""#)
        var targets: [String: Kind] = [:]
        for match in manifest.matches(of: declaration) {
            guard let kind = match.output[1].substring.flatMap({ Kind(rawValue: String($0)) }),
                  let name = match.output[2].substring else { continue }
            targets[String(name)] = kind
        }
        return targets
    }

    /// A target's folder: Tests/NAME for a test target, Sources/NAME for the others.
    static func folder(of target: String, kind: Kind) -> URL {
        Scrolld.packageRoot.appendingPathComponent(kind == .testTarget ? "Tests" : "Sources").appendingPathComponent(target)
    }

    /// The files under `folder` whose names end in `suffix`, as paths relative to it.
    static func files(in folder: URL, endingWith suffix: String) -> [String] {
        let all = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return all.filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// One Swift file.
    struct SwiftFile {
        /// Relative to the target's folder.
        var name: String
        /// The text with comments and string literals blanked out (lines kept where they were).
        var code: String
        /// The modules it imports.
        var imports: [String]

        init(name: String, text: String) {
            self.name = name
            code = Self.code(of: text)
            imports = code.split(separator: "\n").compactMap(Self.importedModule)
        }

        /// `import M`, `@testable import M`, `package import M`, `import struct M.T`: M.
        static func importedModule(_ line: Substring) -> String? {
            var words = line.split(whereSeparator: \.isWhitespace)[...]
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words.removeFirst()
            }
            guard words.popFirst() == "import" else { return nil }
            if let kind = words.first, ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"].contains(kind) {
                words.removeFirst()
            }
            return words.first.map { String($0.split(separator: ".")[0]) }
        }

        /// `text` without what the compiler does not read as code: `//` and `/* */` comments,
        /// and the contents of string literals (single-line, multi-line and raw; an
        /// interpolation in one is code again).
        static func code(of text: String) -> String {
            var scanner = Scanner(scalars: Array(text.unicodeScalars))
            scanner.code(untilParenthesis: false)
            return String(scanner.result)
        }

        private struct Scanner {
            let scalars: [Unicode.Scalar]
            var index = 0
            var result = String.UnicodeScalarView()

            init(scalars: [Unicode.Scalar]) {
                self.scalars = scalars
                result.reserveCapacity(scalars.count)
            }

            func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }

            mutating func keep(_ count: Int = 1) {
                for _ in 0..<count where index < scalars.count { result.append(scalars[index]); index += 1 }
            }

            mutating func blank(_ count: Int = 1) {
                for _ in 0..<count where index < scalars.count {
                    result.append(scalars[index] == "\n" ? "\n" : " ")
                    index += 1
                }
            }

            /// Code, up to the end or (in an interpolation) the parenthesis that closes it.
            mutating func code(untilParenthesis: Bool) {
                var depth = 0
                while let scalar = at(0) {
                    if scalar == "/", at(1) == "/" {
                        while at(0) != nil, at(0) != "\n" { blank() }
                    } else if scalar == "/", at(1) == "*" {
                        var nesting = 0
                        repeat {
                            if at(0) == "/", at(1) == "*" { nesting += 1; blank(2) } else if at(0) == "*", at(1) == "/" { nesting -= 1; blank(2) } else { blank() }
                        } while at(0) != nil && nesting > 0
                    } else if scalar == "#" || scalar == "\"" {
                        var hashes = 0
                        while at(hashes) == "#" { hashes += 1 }
                        if at(hashes) == "\"" { string(hashes: hashes) } else { keep() }
                    } else if untilParenthesis, scalar == "(" {
                        depth += 1
                        keep()
                    } else if untilParenthesis, scalar == ")" {
                        if depth == 0 { return }
                        depth -= 1
                        keep()
                    } else {
                        keep()
                    }
                }
            }

            /// A string literal opening here after `hashes` `#`s: its delimiters kept, its
            /// contents blanked, its interpolations read as code.
            mutating func string(hashes: Int) {
                let quotes = at(hashes + 1) == "\"" && at(hashes + 2) == "\"" ? 3 : 1
                keep(hashes + quotes)
                let closing = Array(repeating: Unicode.Scalar("\""), count: quotes) + Array(repeating: Unicode.Scalar("#"), count: hashes)
                while at(0) != nil {
                    if at(0) == "\\", (0..<hashes).allSatisfy({ at(1 + $0) == "#" }) {
                        if at(1 + hashes) == "(" {
                            blank(2 + hashes)
                            code(untilParenthesis: true)
                            blank()
                        } else {
                            blank(2 + hashes)
                        }
                        continue
                    }
                    if closing.indices.allSatisfy({ at($0) == closing[$0] }) {
                        keep(closing.count)
                        return
                    }
                    blank()
                }
            }
        }
    }

    /// The Swift files of `target`.
    static func swiftFiles(of target: String, kind: Kind) throws -> [SwiftFile] {
        if let files = try read.get()[target] { return files }
        return try load(target, kind: kind)
    }

    /// Every target's files, read once for all the checks (they run at once).
    private static let read = Result { () throws -> [String: [SwiftFile]] in
        var all: [String: [SwiftFile]] = [:]
        for (target, kind) in try targets() where kind != .systemLibrary {
            all[target] = try load(target, kind: kind)
        }
        return all
    }

    private static func load(_ target: String, kind: Kind) throws -> [SwiftFile] {
        let folder = folder(of: target, kind: kind)
        return try files(in: folder, endingWith: ".swift").map {
            SwiftFile(name: $0, text: try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8))
        }
    }
}
