import SystemPackage

extension FileDescriptor {
    /// Everything from the current offset to the end of the file. Errors are `Errno`s, whose
    /// descriptions ("No such file or directory") are what a user should read.
    func readToEnd() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = try chunk.withUnsafeMutableBytes { try read(into: $0, retryOnInterrupt: true) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// The whole file at `path`.
    static func readFile(atPath path: String) throws -> [UInt8] {
        let fd = try FileDescriptor.open(FilePath(path), .readOnly)
        defer { try? fd.close() }
        return try fd.readToEnd()
    }
}
