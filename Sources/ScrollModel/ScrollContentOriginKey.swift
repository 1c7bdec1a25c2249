/// The preference through which a container's content reports its origin in the container's
/// named coordinate space. The first report in tree order wins, so a nested container's content
/// (which reports to its own container) never overrides the outer content's.
public enum ScrollContentOriginKey: PreferenceKey {
    /// nil: no content has reported an origin (the container publishes a zero offset).
    public static let defaultValue: Point? = nil

    /// Keeps the first non-nil origin in tree order; `nextValue` is not called once one is set.
    public static func reduce(value: inout Point?, nextValue: () -> Point?) {
        if value == nil { value = nextValue() }
    }
}
