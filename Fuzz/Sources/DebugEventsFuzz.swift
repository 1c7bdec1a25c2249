import ScrollLog
import ScrollTranscript
import ScrollModel

/// The `libinput debug-events` importer (`DebugEventsImport(parsing:)`, i.e.
/// `DebugEventsImporter` line by line) on any bytes, as `scrolld import-debug-events` reads a
/// transcript; and `looksLikeTranscript`, which `scrolld replay` asks about any file.
///
/// Invariants: errors and warnings carry a line number of the input (warnings in order) and
/// one-line messages; times never decrease and stay below the wrap-around limit; devices get
/// ids 1, 2, … in order of `device_added`, and every other event comes from a device that is
/// present; the import written as an event log reads back to the same log.
enum DebugEventsFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        let lines = lineCount(bytes)
        _ = DebugEventsImporter.looksLikeTranscript(firstByteLines: input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(100))

        let result: DebugEventsImport
        do {
            result = try DebugEventsImport(parsing: input)
        } catch {
            require((1...max(lines, 1)).contains(error.line), "error on line \(error.line) of \(lines): \(error)")
            require(!error.description.contains("\n"), "a multi-line message: \(error)")
            return
        }
        var previousLine = 0
        for warning in result.warnings {
            require(warning.line >= previousLine && (1...max(lines, 1)).contains(warning.line), "warning on line \(warning.line) of \(lines)")
            require(!warning.description.contains("\n"), "a multi-line warning: \(warning)")
            previousLine = warning.line
        }
        let skipped = result.skipped
        require(skipped.blank >= 0 && skipped.messages >= 0 && skipped.otherDevices >= 0, "negative skip counts: \(skipped)")
        require(skipped.otherEvents.values.allSatisfy { $0 > 0 }, "empty skip counts: \(skipped)")
        require(skipped.total <= lines, "\(skipped.total) lines skipped of \(lines)")

        var time: Timestamp = 0
        var devices = 0
        var present: Set<Int> = []
        for event in result.events {
            require(event.time >= time && event.time < DebugEventsImporter.wrappedTime, "time \(event.time) after \(time)")
            time = event.time
            switch event.kind {
            case .deviceAdded:
                devices += 1
                require(event.device == devices, "device \(event.device) added as the \(devices). one")
                present.insert(event.device)
            case .deviceRemoved:
                require(present.remove(event.device) != nil, "device \(event.device) removed while absent")
            default:
                require(present.contains(event.device), "an event from absent device \(event.device)")
            }
        }

        let log = result.eventLog(created: nil, transcript: "fuzz.txt")
        let written = log.serialized()
        let reread: EventLog
        do {
            reread = try EventLog(parsing: written)
        } catch {
            require(false, "the imported log does not read: \(error)\n\(String(decoding: written, as: UTF8.self))")
            return
        }
        require(reread == log, "the imported log reads differently:\n\(String(decoding: written, as: UTF8.self))")
    }
}
