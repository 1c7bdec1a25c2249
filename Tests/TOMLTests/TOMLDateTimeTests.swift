@testable import TOML
import Testing

@Suite("TOML date-times: offset, local, date, time")
struct TOMLDateTimeTests {
    let date = TOMLDate(year: 1979, month: 5, day: 27)

    @Test func theFourKinds() {
        #expect(value("1979-05-27T07:32:00Z") == .offsetDateTime(.init(date: date, time: .init(hour: 7, minute: 32, second: 0), offsetMinutes: 0)))
        #expect(value("1979-05-27t00:32:00.999999-07:00") == .offsetDateTime(.init(date: date, time: .init(hour: 0, minute: 32, second: 0, nanosecond: 999_999_000), offsetMinutes: -420)))
        #expect(value("1979-05-27 07:32:00+05:30") == .offsetDateTime(.init(date: date, time: .init(hour: 7, minute: 32, second: 0), offsetMinutes: 330)))
        #expect(value("1979-05-27T07:32:00") == .localDateTime(.init(date: date, time: .init(hour: 7, minute: 32, second: 0))))
        #expect(value("1979-05-27") == .localDate(date))
        #expect(value("00:32:00.5") == .localTime(.init(hour: 0, minute: 32, second: 0, nanosecond: 500_000_000)))
        // Beyond nanoseconds, the fraction is truncated.
        #expect(value("07:32:00.1234567899") == .localTime(.init(hour: 7, minute: 32, second: 0, nanosecond: 123_456_789)))
        // A leap day and a leap second.
        #expect(value("2000-02-29") == .localDate(.init(year: 2000, month: 2, day: 29)))
        #expect(value("23:59:60") == .localTime(.init(hour: 23, minute: 59, second: 60)))
    }

    @Test func writtenBack() {
        #expect(value("1979-05-27T00:32:00.999999-07:00")?.description == "1979-05-27T00:32:00.999999-07:00")
        #expect(value("1979-05-27 07:32:00z")?.description == "1979-05-27T07:32:00Z")
        #expect(value("0001-01-01T00:00:00")?.description == "0001-01-01T00:00:00")
    }

    @Test func mistakes() {
        #expect(located("v = 1979-13-27") == "1:10: the month must be 01 to 12")
        #expect(located("v = 1900-02-29") == "1:13: the day must be 01 to 28 in that month")
        #expect(located("v = 1979-04-31") == "1:13: the day must be 01 to 30 in that month")
        #expect(located("v = 1979-05-27T24:00:00") == "1:16: the hour must be 00 to 23")
        #expect(located("v = 07:60:00") == "1:8: the minute must be 00 to 59")
        #expect(located("v = 07:32:61") == "1:11: the second must be 00 to 60")
        #expect(located("v = 07:32") == "1:10: expected ':' between minute and second (TOML 1.0 requires seconds), found end of file")
        #expect(located("v = 1979-5-27") == "1:11: expected 2 digits for the month, found '-'")
        #expect(located("v = 1979-05-27T07:32:00+7:00") == "1:26: expected 2 digits for the offset's hours, found ':'")
        #expect(located("v = 1979-05-27T07:32:00+24:00") == "1:25: the offset's hours must be 00 to 23")
        #expect(located("v = 1979-05-27T07:32:00.Z") == "1:25: expected a digit after the decimal point of the seconds, found 'Z'")
        #expect(located("v = 1979-05-27X07:32:00") == "1:15: expected 'T' between the date and the time, found 'X'")
        #expect(located("v = 1979-05-27T07:32:00Zx") == "1:25: unexpected 'x' after the date-time")
    }
}
