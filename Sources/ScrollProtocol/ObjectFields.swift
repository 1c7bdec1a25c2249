import ScrollJSON

/// Where the value of each known key of one object lies, found in a single validating pass.
/// A repeated key's last value wins, as in most JSON readers.
struct ObjectFields<Key: ObjectSchema> {
    private var ranges: [Range<Int>?]
    /// The first key the schema does not know, and its value.
    private(set) var firstUnknown: (key: JSONKey, value: Range<Int>)?

    init() {
        ranges = Array(repeating: nil, count: Key.allCases.count)
    }

    subscript(key: Key) -> Range<Int>? {
        ranges[key.rawValue]
    }

    mutating func record(_ field: Key?, key: JSONKey, value: Range<Int>) {
        if let field {
            ranges[field.rawValue] = value
        } else if firstUnknown == nil {
            firstUnknown = (key, value)
        }
    }
}
