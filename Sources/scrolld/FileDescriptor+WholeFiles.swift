import ArgumentParser
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

    /// Writes `bytes` to the file at `path` (made, or emptied), or to standard output for "-",
    /// as a command's output: a file that cannot be made exits 73 (EX_CANTCREAT) and a failed
    /// write 74 (EX_IOERR), each said on standard error as "cannot create \(creating)" and
    /// "cannot write \(writing)". With `quietOnClosedPipe`, standard output closed by its reader
    /// (`… - | head`) ends the command with success: the reader has all it wanted.
    static func writeOutput(
        _ bytes: some Collection<UInt8>, to path: String, creating: String, writing: String, quietOnClosedPipe: Bool = false
    ) throws {
        let fd: FileDescriptor
        if path == "-" {
            fd = .standardOutput
        } else {
            do {
                fd = try FileDescriptor.open(
                    FilePath(path), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead]
                )
            } catch {
                scrolld.standardError("scrolld: cannot create \(creating): \(error)")
                throw ExitCode(73)
            }
        }
        do {
            _ = try fd.writeAll(bytes)
            if path != "-" { try fd.close() }
        } catch Errno.brokenPipe where quietOnClosedPipe && path == "-" {
            throw ExitCode.success
        } catch {
            if path != "-" { try? fd.close() }
            scrolld.standardError("scrolld: cannot write \(writing): \(error)")
            throw ExitCode(74)
        }
    }
}
