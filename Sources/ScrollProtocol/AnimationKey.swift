/// The keys of an animation object, `{"spring":{…}}`.
enum AnimationKey: Int, ObjectSchema {
    case spring

    static let spellings: [(StaticString, AnimationKey)] = [("spring", .spring)]
}

/// The keys of a spring: SwiftUI's `duration` and `bounce`, or the physical `stiffness` and
/// `damping` (mass 1) for springs no duration and bounce describe exactly.
enum SpringKey: Int, ObjectSchema {
    case duration, bounce, stiffness, damping

    static let spellings: [(StaticString, SpringKey)] = [
        ("duration", .duration), ("bounce", .bounce), ("stiffness", .stiffness), ("damping", .damping),
    ]
}
