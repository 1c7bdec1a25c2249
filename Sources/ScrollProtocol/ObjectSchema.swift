/// The keys an object of one kind may have. Keys are matched on their bytes, so nothing is
/// allocated per key unless it contains escapes.
protocol ObjectSchema: RawRepresentable<Int>, CaseIterable {
    /// Every accepted spelling with the field it sets; a field's first spelling is its name.
    static var spellings: [(StaticString, Self)] { get }
}

extension ObjectSchema {
    init?(bytes: UnsafeRawBufferPointer) {
        for (spelling, field) in Self.spellings where spelling.utf8CodeUnitCount == bytes.count {
            if spelling.withUTF8Buffer({ bytes.elementsEqual($0) }) {
                self = field
                return
            }
        }
        return nil
    }

    /// The key as messages name it.
    var name: String {
        for (spelling, field) in Self.spellings where field == self { return spelling.description }
        return "?"
    }
}
