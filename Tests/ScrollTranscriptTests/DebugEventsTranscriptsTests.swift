@testable import ScrollTranscript
import ScrollLog
import ScrollModel
import Testing

/// Transcripts as each libinput version prints them. The lines were produced with libinput's own
/// printf formats for that version (header, time and body columns exactly as printed), with
/// made-up devices and values; the comments name the version range of each.
enum DebugEventsTranscripts {
    // libinput ≤ 1.1: "%-7s\t%s\t", "%+6.2fs\t", "vert %.2f horiz %.2f" (no marks, no source).
    // libinput 1.5–1.6: "%c%-7s\t%-16s ", "vert %.2f%s horiz %.2f%s" (marks, no source).
    // libinput 1.7–1.12: "%c%-7s  %-16s ", "vert %.2f%s horiz %.2f%s (%s)".
    // libinput 1.13–1.14: as 1.18 with "%+6.2fs"; 1.15–1.18: "vert %.2f/%d%s horiz %.2f/%d%s (%s)".
    // libinput 1.19–1.26: "%c%-7s  %-23s "; 1.27: plus "%3zd " or four spaces; ≥ 1.28: one more space.
    static let libinput1_1 = """
        event3 \tDEVICE_ADDED\tSynPS/2 Synaptics TouchPad        seat0 default group2 cap:pg\tsize 100.00/60.00mm tap(dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on
        event4 \tDEVICE_ADDED\tLogitech USB Optical Mouse        seat0 default group3 cap:p left scroll-nat scroll-button
        event4 \tPOINTER_AXIS\t +1.25s\tvert 15.00 horiz 0.00
        event4 \tPOINTER_AXIS\t +1.40s\tvert -30.00 horiz 0.00
        event3 \tPOINTER_AXIS\t +2.00s\tvert 0.00 horiz 4.27
        event3 \tPOINTER_AXIS\t +2.01s\tvert 3.50 horiz -1.25
        event3 \tPOINTER_AXIS\t +2.02s\tvert 0.00 horiz 0.00
        """

    static let libinput1_5 = """
        -event4 \tDEVICE_ADDED     Logitech M705                     seat0 default group5 cap:p left scroll-nat scroll-button
        -event8 \tDEVICE_ADDED     ALPS GlidePoint                   seat0 default group6 cap:pg\tsize 80.00/45.00mm tap(dl off) left scroll-nat scroll-2fg-edge
        -event4 \tPOINTER_AXIS      +0.75s\tvert -15.00* horiz 0.00
         event4 \tPOINTER_AXIS      +0.81s\tvert 0.00 horiz 20.00*
        -event8 \tPOINTER_AXIS      +1.50s\tvert 6.75* horiz 0.00
         event8 \tPOINTER_AXIS      +1.52s\tvert 0.00* horiz 0.00
        """

    static let libinput1_9 = """
        -event5   DEVICE_ADDED     SynPS/2 Synaptics TouchPad        seat0 default group7  cap:pg  size 70x50mm tap(dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on
        -event5   POINTER_AXIS     +12.50s\tvert 21.44* horiz 0.00 (finger)
         event5   POINTER_AXIS     +12.53s\tvert 9.81* horiz 0.00 (finger)
         event5   POINTER_AXIS     +12.55s\tvert 0.00* horiz 0.00* (finger)
        -event6   POINTER_AXIS     +13.00s\tvert 30.00* horiz 0.00 (wheel)
        """

    static let libinput1_14 = """
        -event7   POINTER_AXIS      +2.31s\tvert 15.00/1* horiz 0.00/0 (wheel)
        """

    static let libinput1_18 = """
        -event4   DEVICE_ADDED     Logitech M705                     seat0 default group5  cap:p left scroll-nat scroll-button
        -event4   POINTER_AXIS     +1.234s\tvert 15.00/1* horiz 0.00/0 (wheel)
         event4   POINTER_AXIS     +1.300s\tvert 30.00/2* horiz 0.00/0 (wheel)
         event4   POINTER_AXIS     +1.350s\tvert 0.00/0 horiz -15.00/-1* (tilt)
        -event5   POINTER_AXIS     +2.000s\tvert 10.42/0* horiz 0.00/0 (finger)
         event5   POINTER_AXIS     +2.010s\tvert 0.00/0* horiz 0.00/0* (finger)
        -event6   POINTER_AXIS     +3.000s\tvert 0.00/0 horiz 2.50/0* (continuous)
        """

    static let libinput1_22 = """
        -event2   DEVICE_ADDED            Power Button                      seat0 default group1  cap:k
        -event0   DEVICE_ADDED            Lid Switch                        seat0 default group2  cap:S
        -event3   DEVICE_ADDED            AT Translated Set 2 keyboard      seat0 default group3  cap:k
        -event9   DEVICE_ADDED            SynPS/2 Synaptics TouchPad        seat0 default group4  cap:pg  size 100x56mm tap(dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on
        -event10  DEVICE_ADDED            TPPS/2 IBM TrackPoint             seat0 default group5  cap:p left scroll-nat scroll-button
        -event16  DEVICE_ADDED            Logitech MX Master 3              seat0 default group6  cap:kp left scroll-nat scroll-button
        libinput error: event16 - Logitech MX Master 3: kernel bug: missing REL_WHEEL_HI_RES event
        -event16  POINTER_SCROLL_WHEEL    +4294967.290s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
         event16  POINTER_SCROLL_WHEEL    +0.016s\tvert 1.88/15.0* horiz 0.00/0.0 (wheel)
         event16  POINTER_SCROLL_WHEEL    +0.024s\tvert 1.88/15.0* horiz 0.00/0.0 (wheel)
         event16  POINTER_MOTION          +0.300s\t  1.00/  2.00 ( +1.00/ +2.00)
        -event3   KEYBOARD_KEY            +0.512s\t*** (-1) pressed
        -event9   GESTURE_HOLD_BEGIN      +1.000s\t2
         event9   GESTURE_HOLD_END        +1.120s\t2 cancelled
         event9   POINTER_SCROLL_FINGER   +1.120s\tvert -1.31/0.0* horiz -1.58/0.0* (finger)
         event9   POINTER_SCROLL_FINGER   +1.127s\tvert -2.50/0.0* horiz 0.00/0.0 (finger)
         event9   POINTER_SCROLL_FINGER   +1.134s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
        -event10  POINTER_SCROLL_CONTINUOUS +2.000s\tvert 3.00/0.0* horiz 0.00/0.0 (continuous)
         event10  POINTER_SCROLL_CONTINUOUS +2.010s\tvert 0.00/0.0* horiz 0.00/0.0 (continuous)
        
        -event9   GESTURE_HOLD_BEGIN      +3.000s\t3
         event9   GESTURE_HOLD_END        +3.400s\t3
        -event16  DEVICE_REMOVED          Logitech MX Master 3              seat0 default group6  cap:kp
        """

    static let libinput1_27 = """
        -event7   DEVICE_ADDED                Logitech USB Receiver Mouse       seat0 default group3  cap:p left scroll-nat scroll-button
        -event7   POINTER_SCROLL_WHEEL        +0.000s\tvert 0.00/0.0 horiz 15.00/120.0* (wheel)
         event7   POINTER_SCROLL_WHEEL      2 +0.100s\tvert 0.00/0.0 horiz 15.00/120.0* (wheel)
         event7   POINTER_SCROLL_WHEEL      3 +0.180s\tvert 7.50/60.0* horiz 0.00/0.0 (wheel)
         event7   POINTER_BUTTON              +0.500s\tBTN_MIDDLE (274) pressed, seat count: 1
         event7   POINTER_SCROLL_CONTINUOUS     +0.700s\tvert 0.00/0.0 horiz -4.25/0.0* (continuous)
         event7   POINTER_SCROLL_CONTINUOUS   2 +0.710s\tvert 0.00/0.0 horiz 0.00/0.0* (continuous)
         event7   POINTER_BUTTON              +0.900s\tBTN_MIDDLE (274) released, seat count: 0
        """

    static let libinput1_28 = """
        -event12  DEVICE_ADDED                 ELAN0670:00 04F3:3150 Touchpad    seat0 default group4  cap:pg  size 102x68mm tap (dl off) left scroll-nat scroll-2fg-edge click-buttonareas-clickfinger dwt-on dwtp-on
        -event12  GESTURE_HOLD_BEGIN           +0.040s\t1
         event12  GESTURE_HOLD_END             +0.147s\t1 cancelled
         event12  POINTER_SCROLL_FINGER        +0.150s\tvert 2.25/0.0* horiz 0.00/0.0 (finger)
         event12  POINTER_SCROLL_FINGER     2  +0.157s\tvert 3.00/0.0* horiz 0.00/0.0 (finger)
         event12  POINTER_SCROLL_FINGER     3  +0.164s\tvert 0.00/0.0* horiz 0.00/0.0 (finger)
         event12  GESTURE_SWIPE_BEGIN          +0.500s\t3
         event12  GESTURE_SWIPE_UPDATE         +0.507s\t3  1.00/ 0.00 ( 1.00/ 0.00 unaccelerated)
         event12  GESTURE_SWIPE_UPDATE      2  +0.514s\t3  2.00/ 0.00 ( 2.00/ 0.00 unaccelerated)
         event12  GESTURE_SWIPE_END            +0.600s\t3
        -event12  DEVICE_REMOVED               ELAN0670:00 04F3:3150 Touchpad    seat0 default group4  cap:pg  size 102x68mm
        """

    /// The four lines libinput 1.22 printed in the real-kernel end-to-end run
    /// (Tests/e2e/README.md, "Why this recipe"), verbatim.
    static let realKernel = """
        -event2   POINTER_SCROLL_WHEEL    +1.815s\tvert 15.00/120.0* horiz 0.00/0.0 (wheel)
         event2   POINTER_SCROLL_WHEEL    +2.381s\tvert -15.00/-120.0* horiz 0.00/0.0 (wheel)
        -event3   POINTER_SCROLL_FINGER   +2.833s\tvert -15.77/0.0* horiz 0.00/0.0 (finger)
         event3   POINTER_SCROLL_FINGER   +3.118s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
        """
}

// MARK: - Shorthand for expected events

/// Expected events, briefly: `E.wheel(t, dev, v120: x, y, deg: x, y)` and so on.
enum DebugEventsExpected {
    static func added(_ time: Timestamp, _ device: Int, _ name: String, _ caps: DeviceCapabilities) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .deviceAdded(name: name, capabilities: caps))
    }

    static func removed(_ time: Timestamp, _ device: Int) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .deviceRemoved)
    }

    static func wheel(_ time: Timestamp, _ device: Int, v120 x: Double? = nil, _ y: Double? = nil, deg degX: Double? = nil, _ degY: Double? = nil) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .wheel(v120: AxisValues(x: x, y: y), degrees: AxisValues(x: degX, y: degY)))
    }

    static func finger(_ time: Timestamp, _ device: Int, x: Double? = nil, y: Double? = nil) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .finger(AxisValues(x: x, y: y)))
    }

    static func continuous(_ time: Timestamp, _ device: Int, x: Double? = nil, y: Double? = nil) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .continuous(AxisValues(x: x, y: y)))
    }

    static func holdBegin(_ time: Timestamp, _ device: Int, _ fingers: Int) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .holdBegin(fingers: fingers))
    }

    static func holdEnd(_ time: Timestamp, _ device: Int, _ fingers: Int, cancelled: Bool) -> ScrollEvent {
        ScrollEvent(time: time, device: device, kind: .holdEnd(fingers: fingers, cancelled: cancelled))
    }
}

private typealias E = DebugEventsExpected

/// Imports `text`, failing the test on an error.
private func importTranscript(_ text: String) throws -> DebugEventsImport {
    try DebugEventsImport(parsing: text)
}

// MARK: - Every layout, event by event

@Suite struct DebugEventsTranscriptsTests {
    @Test func libinput1_1WithoutMarksOrSource() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_1)
        #expect(result.events == [
            E.added(0, 1, "SynPS/2 Synaptics TouchPad", [.finger, .hold]),
            E.added(0, 2, "Logitech USB Optical Mouse", [.wheel, .continuous]),
            // No click count: 15° a detent. No source: the mouse's lines are wheels…
            E.wheel(1_250_000, 2, v120: nil, 120, deg: nil, 15),
            E.wheel(1_400_000, 2, v120: nil, -240, deg: nil, -30),
            // …the touchpad's are finger scrolling; an axis is present when non-zero…
            E.finger(2_000_000, 1, x: 4.27),
            E.finger(2_010_000, 1, x: -1.25, y: 3.5),
            // …and a line of zeros is a stop on both axes.
            E.finger(2_020_000, 1, x: 0, y: 0),
        ])
        #expect(result.layout == .legacyAxis)
        #expect(result.skipped.total == 0)
        #expect(result.warnings.isEmpty)
    }

    @Test func libinput1_5WithMarksWithoutSource() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_5)
        #expect(result.events == [
            E.added(0, 1, "Logitech M705", [.wheel, .continuous]),
            E.added(0, 2, "ALPS GlidePoint", [.finger, .hold]),
            E.wheel(750_000, 1, v120: nil, -120, deg: nil, -15),
            E.wheel(810_000, 1, v120: 160, nil, deg: 20, nil),
            E.finger(1_500_000, 2, y: 6.75),
            // Marked: the vertical axis stops, the horizontal one is absent.
            E.finger(1_520_000, 2, y: 0),
        ])
        #expect(result.layout == .legacyAxis)
    }

    @Test func libinput1_9WithSourceWithoutClickCount() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_9)
        #expect(result.events == [
            E.added(0, 1, "SynPS/2 Synaptics TouchPad", [.finger, .hold]),
            E.finger(12_500_000, 1, y: 21.44),
            E.finger(12_530_000, 1, y: 9.81),
            E.finger(12_550_000, 1, x: 0, y: 0),
            // A device without DEVICE_ADDED gets one, named by its sysname, at its first event.
            E.added(13_000_000, 2, "event6", [.wheel]),
            E.wheel(13_000_000, 2, v120: nil, 240, deg: nil, 30),
        ])
        #expect(result.layout == .legacyAxis)
    }

    @Test func libinput1_14PointerAxisFromTheFormatNotes() throws {
        // docs/event-log.md, "What a transcript line looks like", 1.13 – 1.18: two-decimal
        // time, click count 1.
        let result = try importTranscript(DebugEventsTranscripts.libinput1_14)
        #expect(result.events == [
            E.added(2_310_000, 1, "event7", [.wheel]),
            E.wheel(2_310_000, 1, v120: nil, 120, deg: nil, 15),
        ])
        #expect(result.layout == .axis)
    }

    @Test func libinput1_18PointerAxis() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_18)
        #expect(result.events == [
            E.added(0, 1, "Logitech M705", [.wheel, .continuous]),
            // v120 = click count × 120; deg = the value.
            E.wheel(1_234_000, 1, v120: nil, 120, deg: nil, 15),
            E.wheel(1_300_000, 1, v120: nil, 240, deg: nil, 30),
            // A tilt wheel is a wheel.
            E.wheel(1_350_000, 1, v120: -120, nil, deg: -15, nil),
            E.added(2_000_000, 2, "event5", [.finger]),
            E.finger(2_000_000, 2, y: 10.42),
            E.finger(2_010_000, 2, x: 0, y: 0),
            E.added(3_000_000, 3, "event6", [.continuous]),
            E.continuous(3_000_000, 3, x: 2.5),
        ])
        #expect(result.layout == .axis)
    }

    @Test func libinput1_22WithEverythingInBetween() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_22)
        #expect(result.events == [
            // Keyboards and the lid switch are not written; the rest keep their order.
            E.added(0, 1, "SynPS/2 Synaptics TouchPad", [.finger, .hold]),
            E.added(0, 2, "TPPS/2 IBM TrackPoint", [.continuous]),
            E.added(0, 3, "Logitech MX Master 3", [.wheel, .continuous]),
            // +4294967.290s: the 32-bit wrap-around of a time just before the start.
            E.wheel(0, 3, v120: nil, 120, deg: nil, 15),
            E.wheel(16_000, 3, v120: nil, 15, deg: nil, 1.88),
            E.wheel(24_000, 3, v120: nil, 15, deg: nil, 1.88),
            E.holdBegin(1_000_000, 1, 2),
            E.holdEnd(1_120_000, 1, 2, cancelled: true),
            E.finger(1_120_000, 1, x: -1.58, y: -1.31),
            E.finger(1_127_000, 1, y: -2.5),
            E.finger(1_134_000, 1, x: 0, y: 0),
            E.continuous(2_000_000, 2, y: 3),
            E.continuous(2_010_000, 2, y: 0),
            E.holdBegin(3_000_000, 1, 3),
            E.holdEnd(3_400_000, 1, 3, cancelled: false),
            E.removed(3_400_000, 3),
        ])
        #expect(result.layout == .scroll)
        var skipped = DebugEventsSkipCounts()
        skipped.blank = 1
        skipped.messages = 1
        skipped.otherDevices = 3
        skipped.otherEvents = ["POINTER_MOTION": 1, "KEYBOARD_KEY": 1]
        #expect(result.skipped == skipped)
        #expect(result.skipped.summary == "1 blank, 1 message, 3 other devices, 2 other events (KEYBOARD_KEY 1, POINTER_MOTION 1)")
        #expect(result.warnings.isEmpty)
    }

    @Test func libinput1_27WithRepeatCounts() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_27)
        #expect(result.events == [
            E.added(0, 1, "Logitech USB Receiver Mouse", [.wheel, .continuous]),
            E.wheel(0, 1, v120: 120, nil, deg: 15, nil),
            E.wheel(100_000, 1, v120: 120, nil, deg: 15, nil),
            E.wheel(180_000, 1, v120: nil, 60, deg: nil, 7.5),
            E.continuous(700_000, 1, x: -4.25),
            E.continuous(710_000, 1, x: 0),
        ])
        #expect(result.layout == .scrollRepeatCount)
        #expect(result.skipped.otherEvents == ["POINTER_BUTTON": 2])
    }

    @Test func libinput1_28WithTheExtraSpace() throws {
        let result = try importTranscript(DebugEventsTranscripts.libinput1_28)
        #expect(result.events == [
            E.added(0, 1, "ELAN0670:00 04F3:3150 Touchpad", [.finger, .hold]),
            E.holdBegin(40_000, 1, 1),
            E.holdEnd(147_000, 1, 1, cancelled: true),
            E.finger(150_000, 1, y: 2.25),
            E.finger(157_000, 1, y: 3),
            E.finger(164_000, 1, y: 0),
            // The swipe lines are skipped, but their times still move the clock.
            E.removed(600_000, 1),
        ])
        #expect(result.layout == .scrollRepeatCountWide)
        #expect(result.skipped.otherEvents == ["GESTURE_SWIPE_BEGIN": 1, "GESTURE_SWIPE_UPDATE": 2, "GESTURE_SWIPE_END": 1])
        #expect(result.skipped.summary == "4 other events (GESTURE_SWIPE_UPDATE 2, GESTURE_SWIPE_BEGIN 1, GESTURE_SWIPE_END 1)")
    }

    @Test func realKernelLinesFromLibinput1_22() throws {
        let result = try importTranscript(DebugEventsTranscripts.realKernel)
        #expect(result.events == [
            E.added(1_815_000, 1, "event2", [.wheel]),
            E.wheel(1_815_000, 1, v120: nil, 120, deg: nil, 15),
            E.wheel(2_381_000, 1, v120: nil, -120, deg: nil, -15),
            E.added(2_833_000, 2, "event3", [.finger]),
            E.finger(2_833_000, 2, y: -15.77),
            E.finger(3_118_000, 2, x: 0, y: 0),
        ])
        #expect(result.layout == .scroll)
    }

    @Test func theShapesOfTheFormatNotes() throws {
        // docs/event-log.md, "What a transcript line looks like", the ≥ 1.19 shapes (the first
        // one is libinput1_14).
        let fingers = try importTranscript("""
            -event9   POINTER_SCROLL_FINGER   +0.412s\tvert 0.00/0.0 horiz 6.12/0.0* (finger)
             event9   POINTER_SCROLL_FINGER   +0.520s\tvert 0.00/0.0* horiz 0.00/0.0* (finger)
            """)
        #expect(fingers.events == [
            E.added(412_000, 1, "event9", [.finger]),
            E.finger(412_000, 1, x: 6.12),
            E.finger(520_000, 1, x: 0, y: 0),
        ])
        #expect(fingers.layout == .scroll)
        let counted = try importTranscript("-event4   POINTER_SCROLL_WHEEL      3  +1.204s\tvert -7.50/-60.0* horiz 0.00/0.0 (wheel)\n")
        #expect(counted.events == [
            E.added(1_204_000, 1, "event4", [.wheel]),
            E.wheel(1_204_000, 1, v120: nil, -60, deg: nil, -7.5),
        ])
        #expect(counted.layout == .scrollRepeatCountWide)
    }

    @Test func everyTranscriptWritesAndReadsBackAsAnEventLog() throws {
        for text in [
            DebugEventsTranscripts.libinput1_1, DebugEventsTranscripts.libinput1_5, DebugEventsTranscripts.libinput1_9,
            DebugEventsTranscripts.libinput1_14, DebugEventsTranscripts.libinput1_18, DebugEventsTranscripts.libinput1_22,
            DebugEventsTranscripts.libinput1_27, DebugEventsTranscripts.libinput1_28, DebugEventsTranscripts.realKernel,
        ] {
            let result = try importTranscript(text)
            let log = result.eventLog(created: "2026-01-02T03:04:05Z", transcript: "t.txt")
            let reread = try EventLog(parsing: log.serialized())
            #expect(reread == log)
        }
    }

    @Test func theLogHeaderNamesTheTranscriptAndItsLayout() throws {
        let result = try importTranscript(DebugEventsTranscripts.realKernel)
        let log = result.eventLog(created: "2026-01-02T03:04:05Z", transcript: "bug.txt")
        #expect(EventLogWriter().headerLine(log.header)
            == #"{"format":"scrolld-events","version":1,"created":"2026-01-02T03:04:05Z","source":"libinput debug-events transcript bug.txt, libinput 1.19–1.26 (POINTER_SCROLL_* lines)"}"#)
        #expect(EventLogWriter().line(log.events[0]) == #"{"t":1815000,"dev":1,"type":"device_added","name":"event2","caps":["wheel"]}"#)
        #expect(EventLogWriter().line(log.events[1]) == #"{"t":1815000,"dev":1,"type":"wheel","v120":{"y":120},"deg":{"y":15}}"#)
        #expect(EventLogWriter().line(log.events[5]) == #"{"t":3118000,"dev":2,"type":"finger","delta":{"x":0,"y":0}}"#)
        let empty = try importTranscript("libinput error: nothing here\n")
        #expect(empty.headerSource(transcript: "-") == "libinput debug-events transcript -, no scroll lines")
    }
}
