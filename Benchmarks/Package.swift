// swift-tools-version: 6.2
// The benchmark suite lives in its own package so the project's build and CI stay lean:
// `make bench` builds it (release) and runs it with package-benchmark's plugin.
import PackageDescription
import class Foundation.ProcessInfo
import struct Foundation.URL

// A path dependency's identity is its directory name, which is whatever the clone is called.
let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "ScrolldBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        .target(name: "EngineDriver", dependencies: [.product(name: "ScrollModel", package: project)]),
        .executableTarget(name: "model-loop", dependencies: ["EngineDriver", .product(name: "ScrollModel", package: project)]),
        // The Swift client's cost per state line (docs/clients.md, "C"; `make bench`).
        .executableTarget(name: "client-states", dependencies: [.product(name: "ScrollProtocol", package: project), .product(name: "ScrollModel", package: project)]),
        // Live latency, idle, frames and memory of real `scrolld run` processes (run-live.sh).
        .target(name: "CEpoll"),
        .executableTarget(name: "scrolld-latency", dependencies: ["CEpoll", .product(name: "Histogram", package: "hdrhistogram-swift")]),
        .executableTarget(
            name: "ScrollModelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                "EngineDriver",
            ],
            path: "Benchmarks/ScrollModelBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

// `make check-warnings`: with SCROLLD_WARNINGS_AS_ERRORS=1 a warning in the benchmarks' own code
// is an error (the project's package, a dependency here, does the same for its targets).
if Context.environment["SCROLLD_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .system && target.type != .plugin {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}
