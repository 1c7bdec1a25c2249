#if canImport(Glibc)
import Glibc
#endif

/// Measures a real `scrolld run`: live latency to N subscribers, frame jitter, idle wake-ups,
/// memory, and the physical floor of the same work (Benchmarks/run-live.sh runs it).
///
///   scrolld-latency host  --scrolld PATH [--generator PY] [--subscribers 1,100,1000] [--events N] [--idle S]
///   scrolld-latency soak  --scrolld PATH [--events 10000000] [--log-events 1000000] [--speed X] [--subscribers N]
///   scrolld-latency guest --scrolld PATH [--subscribers 1,100] [--events N] [--evdev NODE,...]
///   scrolld-latency floor-serve SOCKET LOG SUBSCRIBERS LINE_BYTES   (started by `host`)
@main
struct ScrolldLatency {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        signal(SIGPIPE, SIG_IGN)
        do {
            switch arguments.first {
            case "host": try HostBenchmark.main(Options(arguments.dropFirst()))
            case "soak": try SoakBenchmark.main(Options(arguments.dropFirst()))
            case "guest": try GuestBenchmark.main(Options(arguments.dropFirst()))
            case "floor-serve": try FloorServer.main(Array(arguments.dropFirst()))
            default:
                print("usage: scrolld-latency host|soak|guest --scrolld PATH [options] (see Benchmarks/run-live.sh)", to: &standardError)
                exit(2)
            }
        } catch {
            print("scrolld-latency: error: \(error)", to: &standardError)
            exit(1)
        }
    }
}
