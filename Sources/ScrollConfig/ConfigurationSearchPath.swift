#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon looks for its configuration (docs/design.md §8), first match wins:
///
/// 1. `$XDG_CONFIG_HOME/scrolld/scrolld.toml` (`XDG_CONFIG_HOME` defaults to `$HOME/.config`);
/// 2. `DIR/scrolld/scrolld.toml` for each `DIR` in `$XDG_CONFIG_DIRS`, then `/etc/xdg` (which
///    docs/design.md §8 names, so it is searched even when `XDG_CONFIG_DIRS` leaves it out);
/// 3. the built-in defaults.
///
/// The environment is a parameter so tests (and `check-config`) decide what it holds.
public struct ConfigurationSearchPath: Hashable, Sendable {
    /// The files to try, in order.
    public let candidates: [String]

    public static let relativePath = "scrolld/scrolld.toml"

    public init(environment: [String: String]) {
        // The XDG spec: unset, empty and relative values are ignored.
        func absolute(_ path: String?) -> String? {
            guard let path, path.hasPrefix("/") else { return nil }
            return path
        }
        var directories: [String] = []
        if let home = absolute(environment["XDG_CONFIG_HOME"]) {
            directories.append(Self.trimmed(home))
        } else if let home = absolute(environment["HOME"]) {
            directories.append(Self.join(home, ".config"))
        }
        let systemDirectories = (environment["XDG_CONFIG_DIRS"] ?? "")
            .split(separator: ":")
            .compactMap { absolute(String($0)) }
        for directory in systemDirectories + ["/etc/xdg"] where !directories.contains(Self.trimmed(directory)) {
            directories.append(Self.trimmed(directory))
        }
        candidates = directories.map { Self.join($0, Self.relativePath) }
    }

    /// The first candidate that exists, or nil when the built-in defaults apply. A file that
    /// exists but cannot be read is still the match: `load` then reports it rather than
    /// silently falling back to another file.
    public func locate(exists: (String) -> Bool = ConfigurationSearchPath.fileExists) -> String? {
        candidates.first(where: exists)
    }

    /// The configuration in force and the file it came from (nil: the built-in defaults).
    public func load() throws(ConfigurationError) -> (configuration: Configuration, file: String?) {
        guard let file = locate() else { return (Configuration.defaults, nil) }
        return (try Configuration.load(contentsOf: file), file)
    }

    /// Anything at the path: a file, but also a directory or a link loop, which `load` then
    /// reports rather than the search taking the next candidate (docs/config.md). Passed over:
    /// a path where nothing is (ENOENT, or a file where a directory would be), and one this user
    /// cannot look into (EACCES: a directory on the way it may not search, as `$HOME` is for
    /// another user run with `setpriv` or `sudo -u` and the caller's environment), where no file
    /// can be said to be there.
    public static func fileExists(_ path: String) -> Bool {
        var info = stat()
        if stat(path, &info) == 0 { return true }
        return errno != ENOENT && errno != ENOTDIR && errno != EACCES
    }

    /// Why the path holds no file to read, as a reload's reply says it after "the
    /// configuration file in force", or nil when it holds one. A stat failure other than
    /// ENOENT (a symbolic link loop, a directory on the way that cannot be searched) is
    /// named as the system names it, not taken for a directory.
    public static func whyNoFile(at path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 { return (info.st_mode & S_IFMT) == S_IFDIR ? "is now a directory" : nil }
        let code = errno
        if code == ENOENT { return "was removed" }
        return "cannot be reached: " + String(cString: strerror(code))
    }

    private static func trimmed(_ directory: String) -> String {
        var directory = directory
        while directory.count > 1, directory.hasSuffix("/") { directory.removeLast() }
        return directory
    }

    private static func join(_ directory: String, _ name: String) -> String {
        let directory = trimmed(directory)
        return directory == "/" ? "/" + name : directory + "/" + name
    }
}
