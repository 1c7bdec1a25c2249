/// The preference through which a container's content reports its origin in the container's
/// named coordinate space. The first report in tree order wins, so a nested container's content
/// (which reports to its own container) never overrides the outer content's.
public enum ScrollContentOriginKey: PreferenceKey {
    public static let defaultValue: Point? = nil

    public static func reduce(value: inout Point?, nextValue: () -> Point?) {
        if value == nil { value = nextValue() }
    }
}
