/// A value that views pass up the tree, combined by `reduce` in tree order, as SwiftUI's
/// `PreferenceKey`.
public protocol PreferenceKey {
    associatedtype Value
    static var defaultValue: Value { get }
    static func reduce(value: inout Value, nextValue: () -> Value)
}

/// Watches a reduced preference value and runs `action` only when it differs from the last one,
/// as `onPreferenceChange(_:perform:)`. The first value is compared with `Key.defaultValue`.
public struct PreferenceChangeObserver<Key: PreferenceKey>: Sendable where Key.Value: Equatable & Sendable {
    public private(set) var value: Key.Value

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
