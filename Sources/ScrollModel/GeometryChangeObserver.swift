/// Transforms a node's geometry into a value and acts when that value changes, in the shape of
/// SwiftUI's `onGeometryChange(for:of:action:)`: the action receives the old and the new value.
/// The first evaluation only records the value.
public struct GeometryChangeObserver<Value: Equatable> {
    /// Derives the watched value from the node's geometry (SwiftUI's `of:` closure).
    public let transform: (GeometryProxy) -> Value
    /// The value from the last evaluation; nil before the first.
    public private(set) var value: Value?

    /// An observer of `transform`'s value; nothing is evaluated until ``evaluate(_:action:)``.
    public init(for type: Value.Type = Value.self, of transform: @escaping (GeometryProxy) -> Value) {
        self.transform = transform
    }

    /// Evaluates the transform for `proxy`; calls `action(old, new)` and returns true when the
    /// value changed since the last evaluation.
    @discardableResult
    public mutating func evaluate(_ proxy: GeometryProxy, action: (Value, Value) -> Void) -> Bool {
        let newValue = transform(proxy)
        defer { value = newValue }
        guard let old = value, old != newValue else { return false }
        action(old, newValue)
        return true
    }
}
