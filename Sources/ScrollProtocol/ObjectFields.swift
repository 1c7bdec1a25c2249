import ScrollJSON

/// Where the value of each known key of one object lies, found in a single validating pass.
/// A known key given twice (or in two of its spellings) is noted: the readers refuse it, since
/// JSON leaves its meaning open and two readers of one line could disagree on it.
struct ObjectFields<Key: ObjectSchema> {
    private var ranges: [Range<Int>?]
    /// The first key the schema does not know, and its value.
    private(set) var firstUnknown: (key: JSONKey, value: Range<Int>)?
    /// The first known key given a second time.
    private(set) var firstRepeated: Key?

    init() {
        ranges = Array(repeating: nil, count: Key.allCases.count)
    }

    /// Refuses an object with a known key given twice, naming it.
    func checkRepeats() throws(ProtocolError) {
        guard let repeated = firstRepeated else { return }
        throw ProtocolError(.badRequest, "key \(ProtocolError.quoted(repeated.name)) given twice (in one spelling or two); give each key once")
    }

    subscript(key: Key) -> Range<Int>? {
        ranges[key.rawValue]
    }

    mutating func record(_ field: Key?, key: JSONKey, value: Range<Int>) {
        if let field {
            if ranges[field.rawValue] != nil, firstRepeated == nil { firstRepeated = field }
            ranges[field.rawValue] = value
        } else if firstUnknown == nil {
            firstUnknown = (key, value)
        }
    }
}
