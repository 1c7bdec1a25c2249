import TOML
import Testing

@Suite("TOML integers and floats")
struct TOMLNumberTests {
    @Test func integers() {
        #expect(value("+99") == .integer(99))
        #expect(value("-17") == .integer(-17))
        #expect(value("0") == .integer(0))
        #expect(value("-0") == .integer(0))
        #expect(value("1_000_000") == .integer(1_000_000))
        #expect(value("0xDEAD_beef") == .integer(0xDEADBEEF))
        #expect(value("0x0000ff") == .integer(255))
        #expect(value("0o755") == .integer(0o755))
        #expect(value("0b1101_0110") == .integer(0b1101_0110))
        #expect(value("9223372036854775807") == .integer(.max))
        #expect(value("-9223372036854775808") == .integer(.min))
        #expect(value("0x7FFFFFFFFFFFFFFF") == .integer(.max))
    }

    @Test func integerMistakes() {
        #expect(located("v = 9223372036854775808") == "1:5: the integer does not fit in 64 bits")
        #expect(located("v = 0x8000000000000000") == "1:5: the integer does not fit in 64 bits")
        #expect(located("v = 012") == "1:5: a number cannot start with a zero (leading zeros are not allowed)")
        #expect(located("v = -0_1") == "1:6: a number cannot start with a zero (leading zeros are not allowed)")
        #expect(located("v = 1__000") == "1:6: an underscore in a number must be between two digits")
        #expect(located("v = 1_") == "1:6: an underscore in a number must be between two digits")
        #expect(located("v = _1") == "1:5: expected a value (string, number, true, false, date-time, array or inline table), found '_'")
        #expect(located("v = +0x1") == "1:5: a hexadecimal, octal or binary integer cannot have a sign")
        #expect(located("v = 0X1") == "1:6: unexpected 'X' in the number")
        #expect(located("v = 0b102") == "1:9: unexpected '2' in the integer")
        #expect(located("v = 0o") == "1:7: expected a digit, found end of file")
        #expect(located("v = 12a") == "1:7: unexpected 'a' in the number")
    }

    @Test func floats() {
        #expect(value("+1.0") == .float(1))
        #expect(value("3.1415") == .float(3.1415))
        #expect(value("-0.01") == .float(-0.01))
        #expect(value("5e+22") == .float(5e22))
        #expect(value("1e06") == .float(1e6))
        #expect(value("-2E-2") == .float(-0.02))
        #expect(value("6.626e-34") == .float(6.626e-34))
        #expect(value("224_617.445_991_228") == .float(224_617.445_991_228))
        #expect(value("0.0") == .float(0))
        #expect(value("-0.0")?.float?.sign == .minus)
        #expect(value("inf") == .float(.infinity))
        #expect(value("+inf") == .float(.infinity))
        #expect(value("-inf") == .float(-.infinity))
        #expect(value("nan")?.float?.isNaN == true)
        #expect(value("-nan")?.float?.isNaN == true)
    }

    @Test func floatMistakes() {
        #expect(located("v = 1.") == "1:7: expected a digit after the decimal point, found end of file")
        #expect(located("v = .5") == "1:5: expected a value (string, number, true, false, date-time, array or inline table), found '.'")
        #expect(located("v = 1.e5") == "1:7: expected a digit after the decimal point, found 'e'")
        #expect(located("v = 1e") == "1:7: expected a digit after the exponent, found end of file")
        #expect(located("v = 1_.5") == "1:6: an underscore in a number must be between two digits")
        #expect(located("v = 03.14") == "1:5: a number cannot start with a zero (leading zeros are not allowed)")
        #expect(located("v = 1.2.3") == "1:8: unexpected '.' in the number")
        #expect(located("v = Inf") == "1:5: expected a value (string, number, true, false, date-time, array or inline table), found 'I'")
        #expect(located("v = infinity") == "1:5: expected a digit, found 'i'")
    }

    @Test func booleans() {
        #expect(value("true") == .boolean(true))
        #expect(value("false") == .boolean(false))
        #expect(located("v = True") == "1:5: expected a value (string, number, true, false, date-time, array or inline table), found 'T'")
        #expect(located("v = fals") == "1:9: expected a value (false?), found end of file")
        #expect(located("v = truely") == "1:9: expected the end of the line after the value, found 'l'")
    }
}
