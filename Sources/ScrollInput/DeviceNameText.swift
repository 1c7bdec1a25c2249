import TOML

/// A device's name as a log line or a terminal may show it. The name is the kernel's, and
/// whoever made the device chose it: a USB gadget, a Bluetooth peer, any process with access to
/// /dev/uinput can put a newline (a forged log line), an escape sequence (a terminal's title,
/// colours, a cleared screen) or bytes that are not UTF-8 in it. scrolld keeps the name as it
/// is for matching (`[input.devices.*] match`, `daemon.ignore`), for the protocol's `devices`
/// reply and for event logs, which escape it as JSON does; what is printed goes through here.
///
/// The spelling is the configuration's (docs/config.md): a TOML basic string, quotes and
/// backslashes escaped, every control character (C0, DEL, C1) and line or paragraph separator
/// spelled `\n`, `\u001B`…, cut past ``shownCharacters`` characters with the whole length.
public enum DeviceNameText {
    /// How many characters of a name or a message are shown.
    public static let shownCharacters = TOMLKey.shownCharacters

    /// `name` quoted, escaped and cut: `"evil\nline"`, `"AAAA…" (300 bytes)`.
    public static func quoted(_ name: String) -> String {
        TOMLKey.quoted(name)
    }

    /// `name` as a listing shows it (`scrolld devices`): as it is when it is printable and at
    /// most ``shownCharacters`` characters long, else ``quoted(_:)``.
    public static func shown(_ name: String) -> String {
        TOMLKey.listed(name)
    }

    /// A message that quotes device names it did not make (libinput's own log lines): its
    /// control characters escaped, quotes left as they are, one line however many it had, cut
    /// past `limit` characters with the whole length.
    public static func printable(_ text: String, limit: Int = 1000) -> String {
        let (head, isCut) = TOMLKey.cut(text, limit: limit)
        let escaped = TOMLKey.escaped(head, escapingQuotes: false)
        return isCut ? escaped + "… (\(text.utf8.count) bytes)" : escaped
    }
}
