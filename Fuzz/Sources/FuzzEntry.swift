#if canImport(Glibc)
import Glibc
#endif

/// The libFuzzer entry points of the one fuzz binary (Fuzz/build.sh builds it, Fuzz/run.sh
/// runs it). One binary serves every target, chosen by `SCROLLD_FUZZ_TARGET`, because each
/// optimised, sanitised build of the sources takes minutes on a small machine.
enum FuzzTarget: String, CaseIterable {
    case request = "request"
    case eventLog = "event-log"
    case debugEvents = "debug-events"
    case config = "config"
    case toml = "toml"

    func run(_ bytes: UnsafeRawBufferPointer) {
        switch self {
        case .request: RequestDecoderFuzz.run(bytes)
        case .eventLog: EventLogFuzz.run(bytes)
        case .debugEvents: DebugEventsFuzz.run(bytes)
        case .config: ConfigurationFuzz.run(bytes)
        case .toml: TOMLFuzz.run(bytes)
        }
    }
}

nonisolated(unsafe) private var selectedTarget: FuzzTarget?
/// `SCROLLD_FUZZ_REPEAT=N`: each input runs N times, so that a run over one file (say
/// config/scrolld.toml) shows what N parses leak or grow (docs/fuzzing.md, "Leaks").
nonisolated(unsafe) private var repeatCount = 1

@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
    guard let value = getenv("SCROLLD_FUZZ_TARGET") else {
        fputs("scrolld-fuzz: set SCROLLD_FUZZ_TARGET to one of: \(names)\n", stderr)
        exit(2)
    }
    guard let target = FuzzTarget(rawValue: String(cString: value)) else {
        fputs("scrolld-fuzz: unknown SCROLLD_FUZZ_TARGET \"\(String(cString: value))\" (expected one of: \(names))\n", stderr)
        exit(2)
    }
    selectedTarget = target
    if let value = getenv("SCROLLD_FUZZ_REPEAT") {
        guard let count = Int(String(cString: value)), count >= 1 else {
            fputs("scrolld-fuzz: SCROLLD_FUZZ_REPEAT must be a whole number from 1\n", stderr)
            exit(2)
        }
        repeatCount = count
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    // libFuzzer may pass a null pointer with size 0.
    let bytes = UnsafeRawBufferPointer(start: size == 0 ? nil : data, count: size)
    for _ in 0..<repeatCount { selectedTarget!.run(bytes) }
    return 0
}

/// Stops the run with `message` when an invariant fails: the trap is what libFuzzer reports
/// as a crash, saving the input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("invariant failed: \(message())") }
}

/// The lines of `bytes` as the readers split them: at "\n", the last one possibly without.
func lineCount(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard !bytes.isEmpty else { return 0 }
    let newlines = bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    return bytes.last == UInt8(ascii: "\n") ? newlines : newlines + 1
}
