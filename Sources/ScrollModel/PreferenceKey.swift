/// A value that views pass up the tree, combined by `reduce` in tree order, as SwiftUI's
/// `PreferenceKey`.
public protocol PreferenceKey {
    /// The type of value the key carries.
    associatedtype Value
    /// The value when no view reports one, and where a reduction starts.
    static var defaultValue: Value { get }
    /// Combines the value so far with the next one in tree order; `nextValue` is called at most
    /// when needed, so a key may skip it (``ScrollContentOriginKey`` keeps the first report).
    static func reduce(value: inout Value, nextValue: () -> Value)
}

/// Watches a reduced preference value and runs `action` only when it differs from the last one,
/// as `onPreferenceChange(_:perform:)`. The first value is compared with `Key.defaultValue`.
public struct PreferenceChangeObserver<Key: PreferenceKey>: Sendable where Key.Value: Equatable & Sendable {
    /// The last value recorded; `Key.defaultValue` until a different one arrives.
    public private(set) var value: Key.Value

    /// An observer of `key`, starting from its default value.
    public init(_ key: Key.Type = Key.self) {
        value = Key.defaultValue
    }

    /// Records `newValue`; returns it, after calling `action`, when it changed, else nil.
    @discardableResult
    public mutating func update(_ newValue: Key.Value, action: (Key.Value) -> Void = { _ in }) -> Key.Value? {
        guard newValue != value else { return nil }
        value = newValue
        action(newValue)
        return newValue
    }
}
