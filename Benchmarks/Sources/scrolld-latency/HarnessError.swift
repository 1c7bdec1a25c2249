#if canImport(Glibc)
import Glibc
#endif

/// A failure of the harness itself, with what it was doing.
struct HarnessError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The failed call and errno's text.
    static func system(_ what: String, errno code: Int32 = errno) -> HarnessError {
        HarnessError("\(what): \(String(cString: strerror(code)))")
    }
}
