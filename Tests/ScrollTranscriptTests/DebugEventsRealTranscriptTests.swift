@testable import ScrollTranscript
import ScrollLog
import ScrollModel
import Testing

private typealias E = DebugEventsExpected

/// A real transcript: libinput 1.22's `debug-events` in a qemu guest running Debian's kernel, fed
/// through uinput by the end-to-end test's devices (a hi-res wheel mouse, a touchpad, two
/// keyboards; the mouse is unplugged and plugged in again as event4, the touchpad removed at the
/// end). Verbatim, tabs written as \t; the file ended with the blank line debug-events prints
/// when it stops.
enum DebugEventsRealTranscript {
    static let qemuLibinput1_22 = """
        -event0   DEVICE_ADDED            scrolld-e2e hi-res wheel mouse    seat0 default group1  cap:p left scroll-nat scroll-button
        -event1   DEVICE_ADDED            scrolld-e2e touchpad              seat0 default group2  cap:pg  size 100x70mm tap(dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on dwtp-on
        -event2   DEVICE_ADDED            scrolld-e2e keyboard              seat0 default group3  cap:k
        -event3   DEVICE_ADDED            scrolld-e2e full keyboard         seat0 default group4  cap:k
        -event0   POINTER_SCROLL_WHEEL    +4294967.279s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +0.063s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +0.877s\tvert -15.00/-120.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +0.959s\tvert -15.00/-120.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +1.443s\tvert 7.50/60.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +1.464s\tvert 3.75/30.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +1.488s\tvert 3.75/30.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +2.115s\tvert -7.50/-60.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +2.134s\tvert -3.75/-30.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +2.154s\tvert -3.75/-30.0* horiz 0.00/0.0 (wheel)
         event0   POINTER_SCROLL_WHEEL    +2.667s\tvert 0.00/0.0 horiz 15.00/120.0* (wheel)
         event0   POINTER_SCROLL_WHEEL    +3.161s\tvert 0.00/0.0 horiz -15.00/-120.0* (wheel)
        -event1   POINTER_SCROLL_FINGER   +3.673s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.685s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.697s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.709s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.721s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.733s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.745s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.757s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.769s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.787s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.794s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.805s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.817s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.829s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.841s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.853s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.881s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.884s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.897s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.909s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.921s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.933s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.953s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.957s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +3.977s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.645s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.656s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.668s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.680s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.693s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.708s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.716s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.729s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.740s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.755s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.764s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.776s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.788s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.800s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.815s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.824s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.836s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.848s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.860s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.872s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.885s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.897s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.909s\tvert 0.00/0.0 horiz 6.31/0.0* (finger)
         event1   POINTER_SCROLL_FINGER   +4.920s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
        -event2   KEYBOARD_KEY            +5.431s\t*** (-1) pressed
         event2   KEYBOARD_KEY            +5.460s\t*** (-1) released
         event2   KEYBOARD_KEY            +5.491s\t*** (-1) pressed
         event2   KEYBOARD_KEY            +5.521s\t*** (-1) released
         event2   KEYBOARD_KEY            +5.551s\t*** (-1) pressed
         event2   KEYBOARD_KEY            +5.581s\t*** (-1) released
        -event3   KEYBOARD_KEY            +6.161s\t*** (-1) pressed
         event3   KEYBOARD_KEY            +6.192s\t*** (-1) released
         event3   KEYBOARD_KEY            +6.221s\t*** (-1) pressed
         event3   KEYBOARD_KEY            +6.256s\t*** (-1) released
         event3   KEYBOARD_KEY            +6.288s\t*** (-1) pressed
         event3   KEYBOARD_KEY            +6.311s\t*** (-1) released
        -event4   DEVICE_ADDED            scrolld-e2e hi-res wheel mouse    seat0 default group5  cap:p left scroll-nat scroll-button
         event4   POINTER_SCROLL_WHEEL    +8.046s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
        -event1   POINTER_SCROLL_FINGER   +8.715s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.727s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.739s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.757s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.763s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.777s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.787s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.805s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.811s\tvert -8.41/0.0* horiz 0.00/0.0 (finger)
         event1   POINTER_SCROLL_FINGER   +8.823s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
         event1   DEVICE_REMOVED          scrolld-e2e touchpad              seat0 default group2  cap:pg  size 100x70mm

        """ + "\n"
}

@Suite struct DebugEventsRealTranscriptTests {
    @Test func theFixtureIsTheTranscriptByteForByte() {
        #expect(DebugEventsRealTranscript.qemuLibinput1_22.utf8.count == 7372)
        #expect(DebugEventsRealTranscript.qemuLibinput1_22.split(separator: "\n", omittingEmptySubsequences: false).count == 92)
    }

    @Test func importsEveryEvent() throws {
        let result = try DebugEventsImport(parsing: DebugEventsRealTranscript.qemuLibinput1_22)
        let mouse = "scrolld-e2e hi-res wheel mouse"
        // The touchpad's three drags: 24 × up, 23 × right, 9 × up, each ended by a stop.
        let firstDrag: [Timestamp] = [3_673_000, 3_685_000, 3_697_000, 3_709_000, 3_721_000, 3_733_000, 3_745_000, 3_757_000, 3_769_000, 3_787_000, 3_794_000, 3_805_000, 3_817_000, 3_829_000, 3_841_000, 3_853_000, 3_881_000, 3_884_000, 3_897_000, 3_909_000, 3_921_000, 3_933_000, 3_953_000, 3_957_000]
        let secondDrag: [Timestamp] = [4_645_000, 4_656_000, 4_668_000, 4_680_000, 4_693_000, 4_708_000, 4_716_000, 4_729_000, 4_740_000, 4_755_000, 4_764_000, 4_776_000, 4_788_000, 4_800_000, 4_815_000, 4_824_000, 4_836_000, 4_848_000, 4_860_000, 4_872_000, 4_885_000, 4_897_000, 4_909_000]
        let thirdDrag: [Timestamp] = [8_715_000, 8_727_000, 8_739_000, 8_757_000, 8_763_000, 8_777_000, 8_787_000, 8_805_000, 8_811_000]
        var expected: [ScrollEvent] = [
            E.added(0, 1, mouse, [.wheel, .continuous]),
            E.added(0, 2, "scrolld-e2e touchpad", [.finger, .hold]),
            // +4294967.279s: the wrapped time of an event just before debug-events started.
            E.wheel(0, 1, v120: nil, 120, deg: nil, 15),
            E.wheel(63_000, 1, v120: nil, 120, deg: nil, 15),
            E.wheel(877_000, 1, v120: nil, -120, deg: nil, -15),
            E.wheel(959_000, 1, v120: nil, -120, deg: nil, -15),
            // Hi-res: half and quarter detents.
            E.wheel(1_443_000, 1, v120: nil, 60, deg: nil, 7.5),
            E.wheel(1_464_000, 1, v120: nil, 30, deg: nil, 3.75),
            E.wheel(1_488_000, 1, v120: nil, 30, deg: nil, 3.75),
            E.wheel(2_115_000, 1, v120: nil, -60, deg: nil, -7.5),
            E.wheel(2_134_000, 1, v120: nil, -30, deg: nil, -3.75),
            E.wheel(2_154_000, 1, v120: nil, -30, deg: nil, -3.75),
            E.wheel(2_667_000, 1, v120: 120, nil, deg: 15, nil),
            E.wheel(3_161_000, 1, v120: -120, nil, deg: -15, nil),
        ]
        expected += firstDrag.map { E.finger($0, 2, y: -8.41) }
        expected.append(E.finger(3_977_000, 2, x: 0, y: 0))
        expected += secondDrag.map { E.finger($0, 2, x: 6.31) }
        expected.append(E.finger(4_920_000, 2, x: 0, y: 0))
        expected += [
            // The mouse again, as event4 (a new device): stamped with the last line's time
            // before it (a skipped KEYBOARD_KEY).
            E.added(6_311_000, 3, mouse, [.wheel, .continuous]),
            E.wheel(8_046_000, 3, v120: nil, 120, deg: nil, 15),
        ]
        expected += thirdDrag.map { E.finger($0, 2, y: -8.41) }
        expected += [
            E.finger(8_823_000, 2, x: 0, y: 0),
            E.removed(8_823_000, 2),
        ]
        #expect(firstDrag.count == 24 && secondDrag.count == 23 && thirdDrag.count == 9)
        #expect(result.events == expected)
        #expect(result.layout == .scroll)
        #expect(result.skipped.summary == "1 blank, 2 other devices, 12 other events (KEYBOARD_KEY 12)")
        #expect(result.warnings.isEmpty)
    }

    @Test func isRecognisedAsATranscript() {
        let lines = DebugEventsRealTranscript.qemuLibinput1_22.split(separator: "\n").prefix(100)
        #expect(DebugEventsImporter.looksLikeTranscript(firstLines: lines))
    }
}
