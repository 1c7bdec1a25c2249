import ArgumentParser

/// When `run --replay` starts playing its log (docs/design.md §20): at once, or when the first
/// client connects, so that a test or a demo can connect before anything moves.
enum ReplayStart: String, ExpressibleByArgument, Sendable, CaseIterable {
    case now
    case firstClient = "first-client"
}
