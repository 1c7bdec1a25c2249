import ArgumentParser
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Why a file is not read whole (``FileDescriptor/readRegularFile(atPath:limit:)``).
enum WholeFileRefusal: Error, Equatable, CustomStringConvertible {
    case notRegular
    case tooLarge(limit: Int)

    var description: String {
        switch self {
        case .notRegular: "not a regular file"
        case .tooLarge(let limit): "larger than \(limit >> 20) MiB"
        }
    }
}

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

    /// The whole regular file at `path`, of at most `limit` bytes. Opened without blocking and
    /// checked on the open descriptor: a FIFO would wait for a writer and perhaps never end,
    /// `/dev/zero` never ends, and each grew the daemon's memory without bound.
    static func readRegularFile(atPath path: String, limit: Int) throws -> [UInt8] {
        let fd = try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking, .closeOnExec])
        defer { try? fd.close() }
        var status = Glibc.stat()
        guard fstat(fd.rawValue, &status) == 0 else { throw Errno(rawValue: errno) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Errno.isDirectory
        default: throw WholeFileRefusal.notRegular
        }
        let tooLarge = WholeFileRefusal.tooLarge(limit: limit)
        guard status.st_size <= limit else { throw tooLarge }
        // One byte more than the limit at most: a file that grows while it is read still ends.
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while bytes.count <= limit {
            let wanted = Swift.min(chunk.count, limit + 1 - bytes.count)
            let count = try chunk.withUnsafeMutableBytes { try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[..<wanted]), retryOnInterrupt: true) }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<count])
        }
        throw tooLarge
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
