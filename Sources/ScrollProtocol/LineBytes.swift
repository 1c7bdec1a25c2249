/// Runs a decoder over a line's bytes in place. The decoder's typed error comes out as it
/// went in (`withUnsafeBytes` and `withUTF8` only rethrow an untyped one).
func withBytes<T>(
    of line: [UInt8], _ decode: (UnsafeRawBufferPointer) throws(ProtocolError) -> T
) throws(ProtocolError) -> T {
    try line.withUnsafeBytes { raw in Result { () throws(ProtocolError) in try decode(raw) } }.get()
}

/// The same over a String's UTF-8, made contiguous first when it is not.
func withBytes<T>(
    of line: String, _ decode: (UnsafeRawBufferPointer) throws(ProtocolError) -> T
) throws(ProtocolError) -> T {
    var line = line
    return try line.withUTF8 { utf8 in Result { () throws(ProtocolError) in try decode(UnsafeRawBufferPointer(utf8)) } }.get()
}
