/// One decoded request line: what to do, and the `id` its reply must echo.
public struct Request: Hashable, Sendable {
    public var id: RequestID?
    public var operation: Operation

    public init(id: RequestID? = nil, operation: Operation) {
        self.id = id
        self.operation = operation
    }
}
