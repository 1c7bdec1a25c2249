import NIOCore

/// One `struct inotify_event` read from an inotify descriptor: its mask and, for an event in a
/// watched directory, the name of the file it is about.
struct InotifyEvent {
    var watch: Int32
    var mask: UInt32
    var name: String

    /// Every whole event in `buffer` (the kernel never splits one across reads).
    static func parse(_ buffer: inout ByteBuffer) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
        while buffer.readableBytes >= 16 {
            guard let watch = buffer.readInteger(endianness: .host, as: Int32.self),
                  let mask = buffer.readInteger(endianness: .host, as: UInt32.self),
                  let _ = buffer.readInteger(endianness: .host, as: UInt32.self),
                  let length = buffer.readInteger(endianness: .host, as: UInt32.self),
                  let nameBytes = buffer.readBytes(length: Int(length))
            else { break }
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            events.append(InotifyEvent(watch: watch, mask: mask, name: name))
        }
        return events
    }
}
