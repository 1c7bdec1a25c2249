/// One setting of a `configure` request, named as the configuration file names it so that the
/// daemon applies both through the same code: `containerSize`, `contentSize`, `insets` (from
/// `contentInsets`), `axes`, `header`, `rows`, `physics`, `scroll_target` (from `scrollTarget`)
/// and `devices`. The members of `header`, `rows` and `physics` are snake_case
/// (`minHeight` → `min_height`), like their configuration keys.
public struct ConfigureSetting: Hashable, Sendable {
    public var key: String
    public var value: ProtocolValue

    public init(key: String, value: ProtocolValue) {
        self.key = key
        self.value = value
    }
}
