// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "scrolld",
    products: [
        .executable(name: "scrolld", targets: ["scrolld"]),
        .executable(name: "scrollctl", targets: ["scrollctl"]),
        .library(name: "ScrollModel", targets: ["ScrollModel"]),
        .library(name: "ScrollLog", targets: ["ScrollLog"]),
        .library(name: "ScrollProtocol", targets: ["ScrollProtocol"]),
        .library(name: "ScrollClient", targets: ["ScrollClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // libinput and libudev, straight from Debian's -dev packages.
        .systemLibrary(
            name: "CLibinput",
            pkgConfig: "libinput",
            providers: [.apt(["libinput-dev", "libudev-dev"])]
        ),
        // libsystemd, from Debian's -dev package: sd-bus (logind: sessions, seats and sleep,
        // docs/design.md §15) and sd-daemon (readiness, the watchdog, socket activation).
        .systemLibrary(
            name: "CSystemd",
            pkgConfig: "libsystemd",
            providers: [.apt(["libsystemd-dev"])]
        ),
        // GLib's GIO, from Debian's -dev package: GSettings, for GNOME's settings (docs/design.md §23).
        // Found through gobject-2.0's pkg-config (the same include folders): gio-2.0's brings
        // gmodule's `-pthread`, a flag SwiftPM refuses with a warning; the module map links gio.
        .systemLibrary(
            name: "CGIO",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // The pure, deterministic model: geometry, coordinate spaces, preferences, containers,
        // physics and the engine's virtual clock. No I/O, no wall clock, no Foundation.
        .target(
            name: "ScrollModel",
            dependencies: [.product(name: "RealModule", package: "swift-numerics")]
        ),
        // Byte-level formats: event log v1 (reader and writer) and the state schema encoder.
        // Pure Swift as well, so the fuzzers and benchmarks can build it on its own.
        .target(
            name: "ScrollLog",
            dependencies: ["ScrollModel", "ScrollJSON"]
        ),
        // JSON in Swift alone: a validating scanner (linear, bounded nesting) and the number
        // and string writers every line format of scrolld shares.
        .target(name: "ScrollJSON"),
        // `libinput debug-events` transcripts (layouts 1.18 to 1.27+) imported as events.
        .target(
            name: "ScrollTranscript",
            dependencies: ["ScrollModel", "ScrollJSON", "ScrollLog"]
        ),
        // The wire protocol of docs/design.md §7: request decoding and reply encoding, shared by
        // the daemon, scrollctl and Swift clients. Pure Swift, so it can be fuzzed on its own.
        .target(
            name: "ScrollProtocol",
            dependencies: ["ScrollModel", "ScrollJSON"]
        ),
        // `scrolld replay --plot`: a replay's states as an SVG chart, written by hand. A library
        // of its own so the tick and decimation logic is unit-tested without the executable.
        .target(
            name: "ScrollPlot",
            dependencies: ["ScrollModel", .product(name: "RealModule", package: "swift-numerics")]
        ),
        // Real input: a thin typed layer over libinput and libudev (contexts, the device access
        // policy, event mapping). The daemon drives it from its input thread.
        .target(
            name: "ScrollInput",
            // TOML: device names printed as the configuration prints names (DeviceNameText).
            dependencies: ["CLibinput", "ScrollModel", "TOML"]
        ),
        // The user's desktop settings for scrolling (docs/design.md §23): what a desktop says,
        // and the watchers' interface. Pure Swift; the watchers live at the edges.
        .target(name: "ScrollDesktop", dependencies: ["ScrollModel", "ScrollProtocol"]),
        // The desktops' watchers that need only the C library: KDE's files with inotify, sway's
        // IPC socket. Each blocks on a thread of its own, in the kernel, until something changes.
        .target(name: "ScrollDesktopWatchers", dependencies: ["ScrollDesktop", "ScrollPOSIX"]),
        // GNOME's settings through GSettings, on a GLib main loop of its own (docs/design.md §23).
        .target(
            name: "ScrollDesktopGNOME",
            dependencies: ["CGIO", "ScrollDesktop", "ScrollPOSIX"]
        ),
        // The XDG desktop portal's Settings (reduced motion) over sd-bus (docs/design.md §23).
        .target(
            name: "ScrollDesktopPortal",
            dependencies: ["CSystemd", "ScrollDesktop", "ScrollPOSIX"]
        ),
        // A TOML 1.0 reader in Swift alone (no Foundation), keeping the line of every key.
        .target(name: "TOML"),
        // The configuration of docs/design.md §8: keys, defaults, validation with the offending
        // key.
        .target(
            name: "ScrollConfig",
            dependencies: ["ScrollModel", "TOML"]
        ),
        // The one computation behind `run` and `replay` (docs/design.md §17): an ordered stream of
        // input events and requests turned into numbered states, and recorded. Pure: no I/O, no
        // clock.
        .target(
            name: "ScrollSession",
            dependencies: ["ScrollModel", "ScrollConfig", "ScrollProtocol", "ScrollLog", "ScrollJSON"]
        ),
        // The daemon's logic over NIOCore alone: publishing (feeds, subscriptions, rate groups,
        // backpressure), requests, line framing and deadline scheduling on the loop's clock.
        // Tested on an EmbeddedEventLoop with virtual time; no system call: the POSIX edges are
        // ScrollDaemonPOSIX and scrolld.
        .target(
            name: "ScrollDaemon",
            dependencies: [
                "ScrollSession", "ScrollModel", "ScrollConfig", "ScrollProtocol", "ScrollLog", "ScrollInput", "ScrollDesktop",
                .product(name: "NIOCore", package: "swift-nio"),
                // The WebSocket listener's handshake and framing (docs/design.md §24).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The daemon's POSIX edge for its connections, the system calls ScrollDaemon leaves out:
        // SO_PEERCRED, the process' uid, and the fan-out's duplicate of NIO's socket for direct
        // send(2). Used by scrolld and by the tests that serve real sockets.
        .target(
            name: "ScrollDaemonPOSIX",
            dependencies: [
                "ScrollDaemon", "CScrolldShim",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // POSIX pieces of the daemon (a named detached thread).
        .target(name: "ScrollPOSIX"),
        // The Swift client library: scrollctl's blocking connection, and an async client on a
        // SwiftNIO event loop with typed requests, states and observations, and reconnection.
        .target(name: "ScrollClient", dependencies: ["ScrollProtocol", "ScrollModel", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio")]),
        // What Swift's Glibc module leaves out without _GNU_SOURCE (struct ucred, gettid,
        // RLIMIT_RTTIME), as the real symbols: the daemon's POSIX edges use it.
        .target(name: "CScrolldShim"),
        .executableTarget(
            name: "scrolld",
            dependencies: [
                "CScrolldShim",
                "ScrollPOSIX",
                "ScrollDaemon",
                "ScrollDaemonPOSIX",
                "ScrollSession",
                "ScrollTranscript",
                "ScrollJSON",
                "ScrollModel",
                "ScrollLog",
                "ScrollConfig",
                "ScrollInput",
                "CLibinput",
                "CSystemd",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                "ScrollProtocol",
                "ScrollPlot",
                "ScrollCommandLine",
                "ScrollDesktop",
                "ScrollDesktopWatchers",
                "ScrollDesktopGNOME",
                "ScrollDesktopPortal",
            ]
        ),
        // What the command lines of scrolld and scrollctl share: the options that shape a
        // container, parsed into the settings `configure` sends.
        .target(
            name: "ScrollCommandLine",
            dependencies: ["ScrollProtocol", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The client: requests from the command line, and a live terminal view.
        .executableTarget(
            name: "scrollctl",
            dependencies: [
                "ScrollClient",
                "ScrollProtocol",
                "ScrollModel",
                "ScrollCommandLine",
                // What ArgumentParser prints through stdio, checked at exit (StandardOutputCheck).
                "ScrollPOSIX",
                // Names printed as the daemon prints them (Output.shown).
                "TOML",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "ScrollModelTests",
            dependencies: ["ScrollModel", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "ScrollJSONTests", dependencies: ["ScrollJSON"]),
        .testTarget(name: "ScrollLogTests", dependencies: ["ScrollLog", "ScrollJSON", "ScrollModel"]),
        .testTarget(name: "ScrollTranscriptTests", dependencies: ["ScrollTranscript", "ScrollLog", "ScrollJSON", "ScrollModel"]),
        .testTarget(name: "ScrollProtocolTests", dependencies: ["ScrollProtocol", "ScrollModel", "ScrollJSON", "ScrollLog"]),
        .testTarget(name: "ScrollInputTests", dependencies: ["ScrollInput", "ScrollModel"]),
        .testTarget(name: "TOMLTests", dependencies: ["TOML"]),
        .testTarget(name: "ScrollConfigTests", dependencies: ["ScrollConfig", "ScrollModel"]),
        .testTarget(name: "ScrollPlotTests", dependencies: ["ScrollPlot", "ScrollModel"]),
        .testTarget(name: "ScrollDesktopTests", dependencies: ["ScrollDesktop", "ScrollModel"]),
        // The desktop watchers against real GSettings (dconf) and a real portal peer, on a private
        // session bus.
        .testTarget(
            name: "ScrollDesktopWatcherTests",
            dependencies: ["ScrollDesktopGNOME", "ScrollDesktopPortal", "ScrollDesktopWatchers", "ScrollDesktop"],
            exclude: ["Support/portal-settings-peer.py"]
        ),
        .testTarget(name: "ScrolldTests", dependencies: ["ScrollLog", "ScrollModel", "ScrollClient", "ScrollProtocol"]),
        // The session as a command processor, and live = replay as a property: random command
        // streams applied to the daemon's logic on an EmbeddedEventLoop, recorded, replayed.
        .testTarget(
            name: "ScrollSessionTests",
            dependencies: [
                "ScrollSession", "ScrollDaemon", "ScrollConfig", "ScrollModel", "ScrollProtocol", "ScrollLog", "ScrollDesktop",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ScrollDaemonTests",
            dependencies: [
                "ScrollDaemon", "ScrollSession", "ScrollConfig", "ScrollModel", "ScrollProtocol",
                // The desktop's settings as a watcher hands them over (DesktopSinkTests).
                "ScrollDesktop",
                // The POSIX edge the socket daemons serve with (DirectWriteTests).
                "ScrollDaemonPOSIX",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                // Real sockets for the fan-out's direct writes (DirectWriteTests).
                .product(name: "NIOPosix", package: "swift-nio"),
                // Frames for the WebSocket handlers (WebSocketFragmentTests).
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// `make check-warnings` builds with SCROLLD_WARNINGS_AS_ERRORS=1 (in a scratch path of its own):
// a warning in the project's own code, Sources and Tests, is then an error. Dependencies are
// built as SwiftPM builds them (their warnings are theirs).
if Context.environment["SCROLLD_WARNINGS_AS_ERRORS"] == "1" {
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
}
