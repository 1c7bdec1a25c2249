/// A calendar date as TOML writes it: `1979-05-27`.
public struct TOMLDate: Hashable, Sendable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    public var description: String { pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) }

    static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// A time of day as TOML writes it: `07:32:00.999999`. Precision beyond nanoseconds is
/// truncated, as the TOML specification allows.
public struct TOMLTime: Hashable, Sendable, CustomStringConvertible {
    public var hour: Int
    public var minute: Int
    /// 0–60: RFC 3339 allows a leap second.
    public var second: Int
    public var nanosecond = 0

    public var description: String {
        var text = pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
        if nanosecond != 0 {
            var fraction = pad(nanosecond, 9)
            while fraction.hasSuffix("0") { fraction.removeLast() }
            text += "." + fraction
        }
        return text
    }
}

/// A date and time with its offset from UTC: `1979-05-27T07:32:00-07:00`.
public struct TOMLOffsetDateTime: Hashable, Sendable, CustomStringConvertible {
    public var date: TOMLDate
    public var time: TOMLTime
    /// Minutes east of UTC (`Z` is 0).
    public var offsetMinutes: Int

    public var description: String {
        guard offsetMinutes != 0 else { return "\(date)T\(time)Z" }
        let magnitude = abs(offsetMinutes)
        return "\(date)T\(time)" + (offsetMinutes < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
    }
}

/// A date and time without an offset: `1979-05-27T07:32:00`.
public struct TOMLLocalDateTime: Hashable, Sendable, CustomStringConvertible {
    public var date: TOMLDate
    public var time: TOMLTime

    public var description: String { "\(date)T\(time)" }
}

private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}
