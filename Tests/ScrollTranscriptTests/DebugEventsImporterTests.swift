@testable import ScrollTranscript
import ScrollLog
import ScrollModel
import Testing

private typealias E = DebugEventsExpected

/// The message of the error importing `text` throws, or nil if it imports.
private func importError(_ text: String) -> String? {
    do {
        _ = try DebugEventsImport(parsing: text)
        return nil
    } catch {
        return error.description
    }
}

/// The events of a transcript made of `lines`, each newline-terminated.
private func transcriptEvents(_ lines: String...) throws -> [ScrollEvent] {
    try DebugEventsImport(parsing: lines.map { $0 + "\n" }.joined()).events
}

@Suite struct DebugEventsTimeTests {
    @Test func secondsBecomeExactMicroseconds() throws {
        let times = try transcriptEvents(
            "-event4   POINTER_AXIS      +2.31s\tvert 15.00/1* horiz 0.00/0 (wheel)",
            " event4   POINTER_AXIS     +2.317s\tvert 15.00/1* horiz 0.00/0 (wheel)",
            " event4   POINTER_AXIS     +1234.567s\tvert 15.00/1* horiz 0.00/0 (wheel)",
            " event4   POINTER_AXIS     +86399.999s\tvert 15.00/1* horiz 0.00/0 (wheel)"
        ).map(\.time)
        #expect(times == [2_310_000, 2_310_000, 2_317_000, 1_234_567_000, 86_399_999_000])
    }

    @Test func aWrappedTimeTakesThePreviousOne() throws {
        // First line: nothing before it, so 0.
        #expect(try transcriptEvents(
            "-event16  POINTER_SCROLL_WHEEL    +4294967.290s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            " event16  POINTER_SCROLL_WHEEL    +0.016s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)"
        ).map(\.time) == [0, 0, 16_000])
        // A device's first event after another device's: that device's time.
        #expect(try transcriptEvents(
            "-event5   POINTER_SCROLL_WHEEL    +0.500s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            "-event6   POINTER_SCROLL_FINGER   +4294967.001s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)",
            " event6   POINTER_SCROLL_FINGER   +0.520s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)"
        ).map(\.time) == [500_000, 500_000, 500_000, 500_000, 520_000])
        // The threshold: 4 000 000 s and above are wrapped, below are times.
        #expect(DebugEventsImporter.wrappedTime == 4_000_000_000_000)
        #expect(try transcriptEvents(
            "-event5   POINTER_SCROLL_WHEEL    +3999999.999s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            " event5   POINTER_SCROLL_WHEEL    +4000000.000s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)"
        ).map(\.time) == [3_999_999_999_000, 3_999_999_999_000, 3_999_999_999_000])
    }

    @Test func timesNeverGoBack() throws {
        #expect(try transcriptEvents(
            "-event5   POINTER_SCROLL_FINGER   +2.000s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)",
            " event5   POINTER_SCROLL_FINGER   +1.500s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)",
            " event5   POINTER_SCROLL_FINGER   +2.100s\tvert 0.00/0.0* horiz 0.00/0.0 (finger)"
        ).map(\.time) == [2_000_000, 2_000_000, 2_000_000, 2_100_000])
        // A negative time (libinput ≤ 1.14 could print one) is before the start: 0.
        #expect(try transcriptEvents(
            "-event5   POINTER_AXIS      -0.01s\tvert 15.00/1* horiz 0.00/0 (wheel)"
        ).map(\.time) == [0, 0])
    }

    @Test func skippedEventLinesStillMoveTheClockForDeviceLines() throws {
        let result = try transcriptEvents(
            "-event9   POINTER_MOTION          +5.250s\t  1.00/  2.00 ( +1.00/ +2.00)",
            "-event7   DEVICE_ADDED            Hotplugged Mouse                  seat0 default group3  cap:p left scroll-nat scroll-button",
            " event7   POINTER_SCROLL_WHEEL    +5.500s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            "-event7   DEVICE_REMOVED          Hotplugged Mouse                  seat0 default group3  cap:p",
            // An unparsable time on a skipped line is simply not a time.
            "-event9   POINTER_MOTION          +soon\t  1.00/  2.00 ( +1.00/ +2.00)"
        )
        #expect(result == [
            E.added(5_250_000, 1, "Hotplugged Mouse", [.wheel, .continuous]),
            E.wheel(5_500_000, 1, v120: nil, 120, deg: nil, 15),
            E.removed(5_500_000, 1),
        ])
    }
}

@Suite struct DebugEventsDeviceTests {
    @Test func deviceNamesAreReadFromTheRight() throws {
        let result = try DebugEventsImport(parsing: """
            -event4   DEVICE_ADDED            Microsoft Microsoft® 2.4GHz Transceiver v8.0 Mouse seat0 default group6  cap:p left scroll-nat scroll-button
            -event5   DEVICE_ADDED            cap: group7 Strange Name          seat0 default group17 cap:p scroll-button
            -event6   DEVICE_ADDED                                              seat0 default group8  cap:p
            -event8   DEVICE_ADDED            Pointer Without Fields
            -event10  DEVICE_ADDED
            -event11  DEVICE_ADDED            HDA Intel PCH Headphone           seat0 default group14 cap:
            -event12  DEVICE_ADDED            ELAN Touchscreen                  seat0 default group15 cap:t  size 305x172mm ntouches 10 calib
            -event13  DEVICE_ADDED            Sleep Button                      seat0 default group4  cap:k

            """)
        #expect(result.events == [
            // Longer than the 33 columns: no padding, still found.
            E.added(0, 1, "Microsoft Microsoft® 2.4GHz Transceiver v8.0 Mouse", [.continuous]),
            // The last "cap:" counts.
            E.added(0, 2, "cap: group7 Strange Name", [.continuous]),
            // No name: the sysname.
            E.added(0, 3, "event6", []),
            // No cap field: the whole text is the name, and the device is kept.
            E.added(0, 4, "Pointer Without Fields", []),
            E.added(0, 5, "event10", []),
            // A touchscreen is read (docs/design.md §25); a keyboard and a sound card are not.
            E.added(0, 6, "ELAN Touchscreen", [.touch]),
        ])
        #expect(result.skipped.otherDevices == 2)
    }

    @Test func oldDeviceLinesReadToo() throws {
        // libinput ≤ 1.6 printed "group%d cap:" (no padding) and "\tsize %.2f/%.2fmm".
        let result = try transcriptEvents(
            "-event3 \tDEVICE_ADDED     SynPS/2 Synaptics TouchPad        seat0 default group12 cap:pg\tsize 100.00/60.00mm tap(dl off) left scroll-nat scroll-edge dwt-off)",
            "-event4 \tDEVICE_ADDED     Plain Pointer                     seat0 default group1 cap:p"
        )
        #expect(result == [
            E.added(0, 1, "SynPS/2 Synaptics TouchPad", [.finger, .hold]),
            E.added(0, 2, "Plain Pointer", []),
        ])
    }

    @Test func capabilitiesComeFromTheLineAndFromTheEvents() throws {
        let result = try transcriptEvents(
            // Only the gesture capability: hold, then finger from the events.
            "-event1   DEVICE_ADDED            Gesture Pad                       seat0 default group1  cap:g",
            // Button scrolling only on the line; the events add the wheel.
            "-event2   DEVICE_ADDED            Wheel Mouse                       seat0 default group2  cap:p left scroll-nat scroll-button",
            // Two-finger scrolling: finger, though it only sends continuous events here.
            "-event3   DEVICE_ADDED            Odd Touchpad                      seat0 default group3  cap:p scroll-2fg",
            "-event1   POINTER_SCROLL_FINGER   +1.000s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)",
            "-event2   POINTER_SCROLL_WHEEL    +1.100s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            "-event3   POINTER_SCROLL_CONTINUOUS +1.200s\tvert 1.00/0.0* horiz 0.00/0.0 (continuous)"
        )
        #expect(result.filter { !$0.isInput } == [
            E.added(0, 1, "Gesture Pad", [.finger, .hold]),
            E.added(0, 2, "Wheel Mouse", [.wheel, .continuous]),
            E.added(0, 3, "Odd Touchpad", [.finger, .continuous]),
        ])
    }

    @Test func idsFollowTheOrderOfAppearanceAndSysnamesMayBeReused() throws {
        let result = try DebugEventsImport(parsing: """
            -event7   DEVICE_ADDED            First Mouse                       seat0 default group1  cap:p
            -event3   DEVICE_ADDED            Keyboard                          seat0 default group2  cap:k
            -event7   POINTER_SCROLL_WHEEL    +1.000s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
            -event7   DEVICE_REMOVED          First Mouse                       seat0 default group1  cap:p
            -event3   DEVICE_REMOVED          Keyboard                          seat0 default group2  cap:k
            -event9   DEVICE_REMOVED          Never Added                       seat0 default group9  cap:p
            -event7   DEVICE_ADDED            Second Mouse                      seat0 default group3  cap:p
            -event7   POINTER_SCROLL_WHEEL    +2.000s\tvert -15.00/-120.0* horiz 0.00/0.0 (wheel)
            -event7   DEVICE_ADDED            Third Mouse                       seat0 default group4  cap:p
            -event7   POINTER_SCROLL_WHEEL    +3.000s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)

            """)
        #expect(result.events == [
            E.added(0, 1, "First Mouse", [.wheel]),
            E.wheel(1_000_000, 1, v120: nil, 120, deg: nil, 15),
            E.removed(1_000_000, 1),
            E.added(1_000_000, 2, "Second Mouse", [.wheel]),
            E.wheel(2_000_000, 2, v120: nil, -120, deg: nil, -15),
            // Added again without a removal: the earlier device is taken as removed.
            E.removed(2_000_000, 2),
            E.added(2_000_000, 3, "Third Mouse", [.wheel]),
            E.wheel(3_000_000, 3, v120: nil, 120, deg: nil, 15),
        ])
        #expect(result.warnings == [DebugEventsWarning(line: 9, kind: .deviceAddedAgain(sysname: "event7"))])
        #expect(result.warnings[0].description == #"line 9: "event7" added again without being removed; taken as a new device"#)
        // The keyboard (added and removed) and the removal of a device never added.
        #expect(result.skipped.otherDevices == 3)
    }

    @Test func aDeviceWithoutPointerCapabilityThatScrollsAfterAllIsWritten() throws {
        let result = try DebugEventsImport(parsing: """
            -event5   DEVICE_ADDED            Keyboard With Knob                seat0 default group1  cap:k
            -event5   POINTER_SCROLL_WHEEL    +1.000s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)

            """)
        #expect(result.events == [
            E.added(1_000_000, 1, "Keyboard With Knob", [.wheel]),
            E.wheel(1_000_000, 1, v120: nil, 120, deg: nil, 15),
        ])
        #expect(result.skipped.otherDevices == 0)
    }

    @Test func holdGesturesMarkTheDevice() throws {
        #expect(try transcriptEvents(
            "-event9   GESTURE_HOLD_BEGIN      +1.000s\t4",
            " event9   GESTURE_HOLD_END        +1.250s\t4"
        ) == [
            E.added(1_000_000, 1, "event9", [.hold]),
            E.holdBegin(1_000_000, 1, 4),
            E.holdEnd(1_250_000, 1, 4, cancelled: false),
        ])
    }
}

@Suite struct DebugEventsValueTests {
    @Test func axesArePresentExactlyWhenMarked() throws {
        let result = try transcriptEvents(
            "-event9   POINTER_SCROLL_FINGER   +1.000s\tvert 0.00/0.0* horiz 0.00/0.0 (finger)",
            " event9   POINTER_SCROLL_FINGER   +1.001s\tvert 0.00/0.0 horiz -0.00/0.0* (finger)",
            " event9   POINTER_SCROLL_FINGER   +1.002s\tvert 3.25/0.0* horiz -1.50/0.0* (finger)",
            // 1.19+ without any mark (never printed by libinput): no axis at all.
            " event9   POINTER_SCROLL_FINGER   +1.003s\tvert 3.25/0.0 horiz 0.00/0.0 (finger)",
            "-event4   POINTER_SCROLL_WHEEL    +2.000s\tvert -30.00/-240.0* horiz 15.00/120.0* (wheel)",
            " event4   POINTER_SCROLL_WHEEL    +2.001s\tvert 0.94/7.5* horiz 0.00/0.0 (wheel)"
        )
        #expect(Array(result.dropFirst()) == [
            E.finger(1_000_000, 1, y: 0),
            E.finger(1_001_000, 1, x: 0),
            E.finger(1_002_000, 1, x: -1.5, y: 3.25),
            E.finger(1_003_000, 1),
            E.added(2_000_000, 2, "event4", [.wheel]),
            E.wheel(2_000_000, 2, v120: 120, -240, deg: 15, -30),
            E.wheel(2_001_000, 2, v120: nil, 7.5, deg: nil, 0.94),
        ])
    }

    @Test func pointerAxisWithMarksAndWithoutThem() throws {
        let result = try transcriptEvents(
            // 1.13–1.18: the click count times 120.
            "-event4   POINTER_AXIS     +1.000s\tvert -45.00/-3* horiz 0.00/0 (wheel)",
            // ≤ 1.12 with a source and marks: 15° a detent.
            " event4   POINTER_AXIS     +1.10s\tvert 10.00* horiz 0.00 (wheel)",
            // ≤ 1.1 without marks: present when non-zero.
            " event4   POINTER_AXIS\t +1.20s\tvert 0.00 horiz -15.00",
            // Continuous from the source.
            "-event6   POINTER_AXIS     +2.000s\tvert 0.00/0* horiz 0.00/0 (continuous)"
        )
        #expect(result == [
            E.added(1_000_000, 1, "event4", [.wheel]),
            E.wheel(1_000_000, 1, v120: nil, -360, deg: nil, -45),
            E.wheel(1_100_000, 1, v120: nil, 80, deg: nil, 10),
            E.wheel(1_200_000, 1, v120: -120, nil, deg: -15, nil),
            E.added(2_000_000, 2, "event6", [.continuous]),
            E.continuous(2_000_000, 2, y: 0),
        ])
    }
}

@Suite struct DebugEventsLineTests {
    @Test func nonEventLinesAreSkipped() throws {
        let result = try DebugEventsImport(parsing: """
            $ sudo libinput debug-events --verbose
            libinput error: event16 - Logitech MX Master 3: kernel bug: Touch jump detected and discarded.
            event16 - Logitech MX Master 3: client bug: POINTER_SCROLL_WHEEL is nothing here
             12: event9  - gesture: [2fg] state GESTURE_STATE_NONE → GESTURE_STATE_UNKNOWN
             ... event9  - tap: touch 1 (TOUCH_BEGIN), tap state TAP_STATE_TOUCH → TAP_EVENT_TOUCH → TAP_STATE_TOUCH_2
            \t   \t
            -event9   TOUCH_FRAME             +0.100s\t
            -event9   GESTURE_PINCH_BEGIN     +0.200s\t2
            -event9   TABLET_PAD_DIAL         +0.300s\twhatever a newer libinput prints
            -event9   POINTER_MOTION          junk that is not a motion line
            -event9   POINTER_SCROLL_FINGER   +0.400s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)
            Expected device added events on startup but got none. Maybe you don't have the right permissions?

            """)
        #expect(result.events == [E.added(400_000, 1, "event9", [.finger]), E.finger(400_000, 1, y: 1)])
        #expect(result.skipped.messages == 6)
        #expect(result.skipped.blank == 1)
        #expect(result.skipped.otherEvents == ["TOUCH_FRAME": 1, "GESTURE_PINCH_BEGIN": 1, "TABLET_PAD_DIAL": 1, "POINTER_MOTION": 1])
        #expect(result.skipped.total == 11)
    }

    @Test func crlfLineEndsReadTheSame() throws {
        let lf = try DebugEventsImport(parsing: DebugEventsTranscripts.libinput1_22 + "\n")
        let crlf = try DebugEventsImport(parsing: DebugEventsTranscripts.libinput1_22.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n") + "\r\n")
        #expect(crlf == lf)
        // Without the final newline as well.
        #expect(try DebugEventsImport(parsing: DebugEventsTranscripts.libinput1_27.replacingNewlines(with: "\r\n")).events
            == DebugEventsImport(parsing: DebugEventsTranscripts.libinput1_27).events)
    }

    @Test func escapesByteOrderMarksAndLostColumnsAreTolerated() throws {
        let result = try transcriptEvents(
            // A byte order mark, as an editor adds.
            "\u{FEFF}-event4   POINTER_SCROLL_WHEEL    +1.000s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            // --compress-motion-events moves the cursor up before a repeated line.
            "\u{1B}[1A event4   POINTER_SCROLL_WHEEL      2 +1.010s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            // A coloured log message stays a message.
            "\u{1B}[1;31mlibinput error: event4 - kernel bug: something\u{1B}[0m",
            // A paste that lost the first column and turned the tab into a space.
            "event4   POINTER_SCROLL_WHEEL      3 +1.020s vert 15.00/120.0* horiz 0.00/0.0 (wheel)",
            // Indented as a code block, spaces squeezed.
            "    event4 POINTER_SCROLL_WHEEL +1.030s vert 15.00/120.0* horiz 0.00/0.0 (wheel)"
        )
        #expect(result.map(\.time) == [1_000_000, 1_000_000, 1_010_000, 1_020_000, 1_030_000])
        #expect(result.count == 5)
    }

    @Test func theLayoutIsTheFirstOneAlignedLinePinsDown() throws {
        func layout(_ lines: String...) throws -> DebugEventsLayout? {
            try DebugEventsImport(parsing: lines.map { $0 + "\n" }.joined()).layout
        }
        let squeezed = "event9 POINTER_SCROLL_FINGER +1.000s vert 1.00/0.0* horiz 0.00/0.0 (finger)"
        #expect(try layout(squeezed) == .scrollUnaligned)
        #expect(try layout(squeezed, " event9   POINTER_SCROLL_FINGER        +1.100s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)") == .scrollRepeatCountWide)
        #expect(try layout(" event9   POINTER_SCROLL_FINGER   +1.100s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)", squeezed) == .scroll)
        // Tabs in the header columns: not as printed.
        #expect(try layout("-event9\tGESTURE_HOLD_BEGIN\t+1.000s\t2") == .scrollUnaligned)
        // Hold lines name the layout too: 1.27 prints four spaces for no count.
        #expect(try layout("-event9   GESTURE_HOLD_BEGIN          +1.000s\t2") == .scrollRepeatCount)
        // A four-digit repeat count fills its column.
        #expect(try layout(" event9   POINTER_SCROLL_FINGER   1000 +9.000s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)") == .scrollRepeatCount)
        #expect(try layout(" event9   POINTER_SCROLL_FINGER    10  +9.000s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)") == .scrollRepeatCountWide)
        #expect(try layout("-event9   DEVICE_ADDED            Touchpad                          seat0 default group4  cap:pg") == nil)
        #expect(try layout(
            "-event4   POINTER_AXIS     +1.000s\tvert 15.00/1* horiz 0.00/0 (wheel)",
            "-event5   POINTER_SCROLL_WHEEL    +1.815s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)"
        ) == .axis)
    }

    @Test func layoutsDescribeThemselves() {
        #expect(DebugEventsLayout.legacyAxis.description == "libinput ≤ 1.12 (POINTER_AXIS lines without click counts)")
        #expect(DebugEventsLayout.axis.description == "libinput 1.13–1.18 (POINTER_AXIS lines)")
        #expect(DebugEventsLayout.scroll.description == "libinput 1.19–1.26 (POINTER_SCROLL_* lines)")
        #expect(DebugEventsLayout.scrollRepeatCount.description == "libinput 1.27 (POINTER_SCROLL_* lines with repeat counts)")
        #expect(DebugEventsLayout.scrollRepeatCountWide.description == "libinput ≥ 1.28 (POINTER_SCROLL_* lines with repeat counts)")
        #expect(DebugEventsLayout.scrollUnaligned.description == "libinput ≥ 1.19 (POINTER_SCROLL_* lines, columns not as printed)")
    }
}

@Suite struct DebugEventsErrorTests {
    @Test func scrollLinesThatDoNotReadAreErrorsWithTheirLineNumber() {
        let wheel = "-event4   POINTER_SCROLL_WHEEL    +1.000s\t"
        func error(_ body: String) -> String? {
            importError("libinput error: a message\n\n" + wheel + body + "\n")
        }
        #expect(error("vertical 15.00/120.0* horiz 0.00/0.0 (wheel)") == #"line 3: POINTER_SCROLL_WHEEL: expected "vert", got "vertical""#)
        #expect(error("vert abc/120.0* horiz 0.00/0.0 (wheel)")
            == #"line 3: POINTER_SCROLL_WHEEL: expected a value like 15.00/120.0* after "vert", got "abc/120.0*""#)
        #expect(error("vert 15.00/120.0* horiz nan/0.0 (wheel)")
            == #"line 3: POINTER_SCROLL_WHEEL: expected a value like 15.00/120.0* after "horiz", got "nan/0.0""#)
        #expect(error("vert 15.00/1e3* horiz 0.00/0.0 (wheel)")
            == #"line 3: POINTER_SCROLL_WHEEL: expected a value like 15.00/120.0* after "vert", got "15.00/1e3*""#)
        #expect(error("vert 15.00* horiz 0.00/0.0 (wheel)")
            == "line 3: POINTER_SCROLL_WHEEL: expected value/v120 for the present vert axis, got no v120")
        #expect(error("vert 15.00/120.0*") == #"line 3: POINTER_SCROLL_WHEEL: expected "horiz", got end of line"#)
        #expect(error("vert 15.00/120.0* horiz") == #"line 3: POINTER_SCROLL_WHEEL: expected a value like 15.00/120.0* after "horiz", got end of line"#)
        #expect(error("vert 15.00/120.0* horiz 0.00/0.0 (finger)") == #"line 3: POINTER_SCROLL_WHEEL: unexpected scroll source "(finger)""#)
        #expect(error("vert 15.00/120.0* horiz 0.00/0.0 wheel")
            == #"line 3: POINTER_SCROLL_WHEEL: expected the source in parentheses or the end of the line, got "wheel""#)
        #expect(error("vert 15.00/120.0* horiz 0.00/0.0 (wheel) extra")
            == #"line 3: POINTER_SCROLL_WHEEL: expected the end of the line after the source, got "extra""#)
        #expect(importError("-event4   POINTER_SCROLL_WHEEL      3\n")
            == #"line 1: POINTER_SCROLL_WHEEL: expected a time like +1.234s, got "3""#)
        #expect(importError("-event4   POINTER_SCROLL_WHEEL\n") == "line 1: POINTER_SCROLL_WHEEL: expected a time like +1.234s, got end of line")
        #expect(importError("-event4   POINTER_AXIS     +1.000s\tvert 15.00/1* horiz 0.00/0 (invalid)\n")
            == #"line 1: POINTER_AXIS: unexpected scroll source "(invalid)""#)
        #expect(importError("-event4   POINTER_AXIS     +1.000s\tvert 15.00/1* horiz 0.00/0.5.1 (wheel)\n")
            == #"line 1: POINTER_AXIS: expected a value like 15.00/1* or 15.00* after "horiz", got "0.00/0.5.1""#)
        #expect(importError("-event4   POINTER_AXIS     +1.0.0s\tvert 15.00/1* horiz 0.00/0 (wheel)\n")
            == #"line 1: POINTER_AXIS: expected a time like +1.234s, got "+1.0.0s""#)
        #expect(importError("-event4   POINTER_AXIS     +1234567890123.000s\tvert 15.00/1* horiz 0.00/0 (wheel)\n")
            == #"line 1: POINTER_AXIS: expected a time like +1.234s, got "+1234567890123.000s""#)
    }

    @Test func holdLinesThatDoNotReadAreErrors() {
        #expect(importError("-event9   GESTURE_HOLD_BEGIN      +1.000s\n") == "line 1: GESTURE_HOLD_BEGIN: expected the finger count, got end of line")
        #expect(importError("-event9   GESTURE_HOLD_BEGIN      +1.000s\ttwo\n") == #"line 1: GESTURE_HOLD_BEGIN: expected the finger count, got "two""#)
        #expect(importError("-event9   GESTURE_HOLD_BEGIN      +1.000s\t2 cancelled\n")
            == #"line 1: GESTURE_HOLD_BEGIN: expected the end of the line, got "cancelled""#)
        #expect(importError("-event9   GESTURE_HOLD_END        +1.000s\t2 canceled\n")
            == #"line 1: GESTURE_HOLD_END: expected "cancelled" or the end of the line, got "canceled""#)
        #expect(importError("-event9   GESTURE_HOLD_END        +1.000s\t2 cancelled now\n")
            == #"line 1: GESTURE_HOLD_END: expected the end of the line, got "now""#)
        #expect(importError("-event9   GESTURE_HOLD_END        +1.000s\t12345678901\n")
            == #"line 1: GESTURE_HOLD_END: expected the finger count, got "12345678901""#)
    }

    @Test func aTruncatedLastLineIsSkippedWithAWarning() throws {
        let text = DebugEventsTranscripts.realKernel + "\n event3   POINTER_SCROLL_FINGER   +3.2"
        let result = try DebugEventsImport(parsing: text)
        #expect(try result.events == DebugEventsImport(parsing: DebugEventsTranscripts.realKernel).events)
        #expect(result.warnings.map(\.description) == [#"line 5: ignored truncated last line (POINTER_SCROLL_FINGER: expected a time like +1.234s, got "+3.2")"#])
        // With its newline it was complete as written: an error.
        #expect(importError(text + "\n") == #"line 5: POINTER_SCROLL_FINGER: expected a time like +1.234s, got "+3.2""#)
        // Wherever the line breaks off.
        let full = " event3   POINTER_SCROLL_FINGER   +3.200s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)"
        for length in 1..<full.utf8.count {
            let cut = String(decoding: full.utf8.prefix(length), as: UTF8.self)
            let result = try DebugEventsImport(parsing: DebugEventsTranscripts.realKernel + "\n" + cut)
            #expect(result.events.count == 6 || result.events.count == 7, "\(cut)")
            #expect(result.warnings.count + (result.events.count - 6) + result.skipped.total == 1, "\(cut)")
        }
        // A last line that is wrong before its end is an error all the same.
        #expect(importError("-event4   POINTER_SCROLL_WHEEL    vert 15.00/120.0* horiz 0.00/0.0 (wheel)")
            == #"line 1: POINTER_SCROLL_WHEEL: expected a time like +1.234s, got "vert""#)
        #expect(importError("-event4   POINTER_SCROLL_WHEEL    +1.000s\tvert 15.00/120.0* horiz 0.00/0.0 (finger)")
            == #"line 1: POINTER_SCROLL_WHEEL: unexpected scroll source "(finger)""#)
        #expect(importError("-event4   POINTER_SCROLL_WHEEL    +1.000s\tvert 15.00* horiz 0.00/0.0 (wheel)")
            == "line 1: POINTER_SCROLL_WHEEL: expected value/v120 for the present vert axis, got no v120")
        #expect(importError("-event9   GESTURE_HOLD_END        +1.000s\t2 cancelled now")
            == #"line 1: GESTURE_HOLD_END: expected the end of the line, got "now""#)
        // A cut "cancelled" is a warning.
        #expect(try DebugEventsImport(parsing: "-event9   GESTURE_HOLD_END        +1.000s\t2 cance").warnings.map(\.description)
            == [#"line 1: ignored truncated last line (GESTURE_HOLD_END: expected "cancelled" or the end of the line, got "cance")"#])
    }

    @Test func longValuesAreShortenedInMessages() {
        let long = String(repeating: "9", count: 60)
        #expect(importError("-event9   GESTURE_HOLD_END        +1.000s\t" + long + "\n")
            == "line 1: GESTURE_HOLD_END: expected the finger count, got \"" + String(repeating: "9", count: 40) + "…\"")
    }
}

@Suite struct DebugEventsDetectionTests {
    @Test func transcriptsAreRecognised() {
        for text in [
            DebugEventsTranscripts.libinput1_1, DebugEventsTranscripts.libinput1_5, DebugEventsTranscripts.libinput1_9,
            DebugEventsTranscripts.libinput1_14, DebugEventsTranscripts.libinput1_18, DebugEventsTranscripts.libinput1_22,
            DebugEventsTranscripts.libinput1_27, DebugEventsTranscripts.libinput1_28, DebugEventsTranscripts.realKernel,
        ] {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(DebugEventsImporter.looksLikeTranscript(firstLines: lines.prefix(3)))
            #expect(DebugEventsImporter.looksLikeTranscript(firstByteLines: lines.prefix(3).map { Array($0.utf8) }))
        }
        // Messages and blank lines first; a byte order mark; CRLF.
        #expect(DebugEventsImporter.looksLikeTranscript(firstLines: [
            "\u{FEFF}", "", "libinput error: event16 - M: kernel bug: x\r",
            "-event16  DEVICE_ADDED            M                                 seat0 default group6  cap:kp\r",
        ]))
        // Any event type libinput prints counts, not only scroll events.
        #expect(DebugEventsImporter.looksLikeTranscript(firstLines: [" event20  POINTER_MOTION    +3.62s\t  2.72/ -0.93"]))
    }

    @Test func eventLogsAndOtherFilesAreNot() {
        #expect(!DebugEventsImporter.looksLikeTranscript(firstLines: [
            #"{"format":"scrolld-events","version":1}"#,
            #"{"t":0,"dev":1,"type":"device_added","name":"M","caps":["wheel"]}"#,
        ]))
        // A JSON first line rules a transcript out, whatever follows.
        #expect(!DebugEventsImporter.looksLikeTranscript(firstLines: [
            "  {", "-event4   POINTER_SCROLL_WHEEL    +1.000s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)",
        ]))
        #expect(!DebugEventsImporter.looksLikeTranscript(firstLines: [String]()))
        #expect(!DebugEventsImporter.looksLikeTranscript(firstLines: ["", "  "]))
        #expect(!DebugEventsImporter.looksLikeTranscript(firstLines: ["libinput error: no devices", "hello world"]))
        // An upper-case word that is no libinput event type.
        #expect(!DebugEventsImporter.looksLikeTranscript(firstLines: ["README  SOME_HEADING  text"]))
        #expect(!DebugEventsImporter.looksLikeTranscript(firstByteLines: [[0xFF, 0xFE, 0x00], [0x7B]]))
    }
}

@Suite struct DebugEventsRobustnessTests {
    @Test func everyWayOfFeedingBytesGivesTheSameResult() throws {
        let lines = DebugEventsTranscripts.libinput1_22.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var fromArrays = DebugEventsImporter()
        var fromStrings = DebugEventsImporter()
        var fromSequences = DebugEventsImporter()
        for (index, line) in lines.enumerated() {
            try fromArrays.feed(line: Array(line.utf8), lineNumber: index + 1)
            try fromStrings.feed(line: line.utf8, lineNumber: index + 1)
            try fromSequences.feed(line: AnySequence(line.utf8), lineNumber: index + 1)
        }
        let expected = try DebugEventsImport(parsing: DebugEventsTranscripts.libinput1_22)
        #expect(fromArrays.finish() == expected)
        #expect(fromStrings.finish() == expected)
        #expect(fromSequences.finish() == expected)
        // finish() does not consume: more lines may follow.
        try fromArrays.feed(line: Array(" event9   POINTER_SCROLL_FINGER   +9.000s\tvert 1.00/0.0* horiz 0.00/0.0 (finger)".utf8), lineNumber: 99)
        #expect(fromArrays.finish().events.last == E.finger(9_000_000, 1, y: 1))
    }

    @Test func mangledTranscriptsNeverTrap() {
        // Mutations of every fixture: bytes replaced, deleted, duplicated, lines cut. Whatever
        // happens must be an import or an error, never a crash; and whatever imports must write
        // an event log that reads back the same.
        let sources = [
            DebugEventsTranscripts.libinput1_1, DebugEventsTranscripts.libinput1_5, DebugEventsTranscripts.libinput1_9,
            DebugEventsTranscripts.libinput1_18, DebugEventsTranscripts.libinput1_22, DebugEventsTranscripts.libinput1_27,
            DebugEventsTranscripts.libinput1_28,
        ].map { Array($0.utf8) }
        let alphabet = Array("-+*/.()0123456789 \t\r\nsvethorizPOINTER_SCROLL_WHEELAXISDEVICE_ADDEDcap:pgkgroup\u{1B}[".utf8) + [0x00, 0xFF, 0xE2]
        var random = SplitMix(state: 20_261_122)
        var imported = 0
        for round in 0..<3000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                guard !bytes.isEmpty else { break }
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes[index] = alphabet.randomElement(using: &random)!
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(alphabet.randomElement(using: &random)!, at: index)
                default: bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...20, using: &random)))
                }
            }
            guard let result = try? DebugEventsImport(parsing: bytes) else { continue }
            imported += 1
            let log = result.eventLog(created: nil, transcript: "fuzz")
            #expect((try? EventLog(parsing: log.serialized())) == log)
            var previous: Timestamp = 0
            for event in result.events {
                #expect(event.time >= previous)
                previous = event.time
            }
        }
        #expect(imported > 100)
        // Pure noise.
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0..<300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = try? DebugEventsImport(parsing: bytes)
            _ = DebugEventsImporter.looksLikeTranscript(firstByteLines: bytes.split(separator: 0x0A))
        }
    }
}

private extension String {
    func replacingNewlines(with separator: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).joined(separator: separator)
    }
}
