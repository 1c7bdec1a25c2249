import ScrollDaemon
import ArgumentParser
import FoundationEssentials
import ScrollConfig
import ScrollInput
import ScrollLog
import ScrollModel
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record the real devices' scroll events to an event log.",
        discussion: """
            Writes event log v1 (docs/event-log.md), one line per event, each written as it \
            happens: a recording cut short (SIGKILL, power loss) loses at most its last line. \
            Stops on SIGINT or SIGTERM, or after --duration.
            """
    )

    @Argument(help: ArgumentHelp("The log to write; - writes standard output.", valueName: "OUT"))
    var output: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop after this many seconds.", valueName: "S"))
    var duration: Double?

    @OptionGroup var devices: DeviceOptions

    func validate() throws {
        if let duration, !(duration > 0 && duration < Limits.magnitude) { throw ValidationError("--duration expects seconds more than 0 and less than 1e9, got \(duration)") }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let backend = try devices.backend(environment: environment)
        let out = try openOutput()
        let context = try makeContext(backend, environment: environment)
        // SIGINT and SIGTERM end the recording cleanly: they arrive as input on this pipe.
        let stopSignals = try SignalSelfPipe.install([SIGINT, SIGTERM])
        let count = try record(context, backend: backend, stopSignals: stopSignals, to: out)
        if output != "-" { try? out.close() }
        standardError("scrolld: recorded \(count) events to \(output)")
    }

    private func openOutput() throws -> FileDescriptor {
        do {
            return output == "-" ? .standardOutput : try FileDescriptor.open(
                FilePath(output), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead]
            )
        } catch {
            standardError("scrolld: cannot write \(output): \(error)")
            throw ExitCode(73)  // EX_CANTCREAT
        }
    }

    private func makeContext(_ backend: LibinputContext.Backend, environment: [String: String]) throws -> LibinputContext {
        let loaded = try devices.configuration(environment: environment)
        let input = loaded.input
        do {
            return try LibinputContext(
                backend, ignoring: loaded.daemon.ignore, touchscreens: input.touchscreens, settings: { input.libinputSettings(forDevice: $0) }, onDiagnostic: { standardError("scrolld: \($0)") }
            )
        } catch {
            standardError("scrolld: \(error)")
            throw ExitCode(1)
        }
    }

    /// Writes the header, then every event until the duration is over or a stop signal comes;
    /// returns how many events were written.
    private func record(_ context: LibinputContext, backend: LibinputContext.Backend, stopSignals: Int32, to out: FileDescriptor) throws -> Int {
        let writer = EventLogWriter()
        var line: [UInt8] = []
        writer.appendHeaderLine(EventLogHeader(created: RFC3339.now(), source: "scrolld record, \(backend.label)"), to: &line)
        try write(&line, to: out)

        let end = duration.map { MonotonicClock.now() + Timestamp($0 * 1_000_000) }
        var count = 0
        var polled = [pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: stopSignals, events: Int16(POLLIN), revents: 0)]
        var started = false
        while true {
            // Events queued at start-up (devices already present) come out first.
            while let event = context.nextEvent() {
                writer.appendLine(event, to: &line)
                try write(&line, to: out)
                count += 1
            }
            if !started {
                started = true
                // Said at once, as `run` says it: an empty log with no reason is no bug report.
                if context.devices.isEmpty {
                    let why = context.permissionProblem ?? "none with wheel, touchpad or trackpoint scrolling was found"
                    let later = if case .seat = backend { " (a device plugged in later is recorded)" } else { "" }
                    standardError("scrolld: no usable input device: \(why); recording anyway\(later)")
                }
            }
            let timeout: Int32
            if let end {
                let remaining = end - MonotonicClock.now()
                if remaining <= 0 { break }
                timeout = Int32(min(remaining / 1000 + 1, Int64(Int32.max)))
            } else {
                timeout = -1
            }
            let ready = poll(&polled, 2, timeout)
            if ready < 0 && errno != EINTR { break }
            if polled[1].revents != 0 { break }
            if polled[0].revents != 0 { context.dispatch() }
        }
        return count
    }

    /// One line, one write(2): what is on disk is always whole lines. A write that fails part
    /// way (a full disk takes what fits, then says ENOSPC) is cut back to the last whole line,
    /// so the log still reads without a warning.
    func write(_ line: inout [UInt8], to fd: FileDescriptor) throws {
        defer { line.removeAll(keepingCapacity: true) }
        let start = lseek(fd.rawValue, 0, SEEK_CUR)  // -1 on a pipe: nothing to cut back there
        do {
            _ = try line.withUnsafeBytes { try fd.writeAll($0) }
        } catch {
            if start >= 0 { _ = ftruncate(fd.rawValue, start) }
            standardError("scrolld: cannot write \(output): \(error); the recording stops here")
            throw ExitCode(74)  // EX_IOERR
        }
    }
}
