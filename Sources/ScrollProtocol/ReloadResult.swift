/// The outcome of a `reload` request: on failure the last good configuration stays in force,
/// and `message` says why the new one was refused.
public struct ReloadResult: Hashable, Sendable {
    public var ok: Bool
    /// The file that was read; nil when no file exists and the built-in defaults apply.
    public var file: String?
    public var message: String

    public init(ok: Bool, file: String?, message: String) {
        self.ok = ok
        self.file = file
        self.message = message
    }
}
