import ScrollInput
import ScrollModel
import Testing

@Suite("Device access policy and the libinput context")
struct DeviceAccessPolicyTests {
    @Test func keyboardsAreNeverOpened() {
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_KEYBOARD": "1", "ID_INPUT_KEY": "1"])
            == .refuse("a keyboard: scrolld never opens keyboards"))
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_KEY": "1"])
            == .refuse("a keyboard: scrolld never opens keyboards"))
    }

    @Test func pointingDevicesAreOpenedEvenWhenTheyAlsoHaveKeys() {
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"]) == .open)
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]) == .open)
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_POINTINGSTICK": "1"]) == .open)
        // A gaming mouse announces keys too: its wheel still counts.
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1", "ID_INPUT_KEY": "1"]) == .open)
    }

    @Test func unclassifiedNodesAreRefused() {
        #expect(DeviceAccessPolicy.decide(properties: [:]) == .refuse("not classified as an input device by udev"))
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_SWITCH": "1"])
            == .refuse("no pointer, touchpad, trackpoint or touchscreen capability"))
    }

    @Test func touchscreensAreOpenedUnlessTurnedOffAndNeverAsKeyboards() {
        let touchscreen = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]
        #expect(DeviceAccessPolicy.decide(properties: touchscreen) == .open)
        #expect(DeviceAccessPolicy.decide(properties: touchscreen, touchscreens: false) == .refuse("a touchscreen, and [input] touchscreens = false"))
        // A node udev also calls a keyboard stays closed, touchscreen or not.
        #expect(DeviceAccessPolicy.decide(properties: touchscreen.merging(["ID_INPUT_KEYBOARD": "1"]) { $1 })
            == .refuse("a keyboard: scrolld never opens keyboards"))
        // Turning touchscreens off closes nothing else.
        #expect(DeviceAccessPolicy.decide(properties: ["ID_INPUT": "1", "ID_INPUT_MOUSE": "1"], touchscreens: false) == .open)
    }

    @Test func capabilitiesFollowUdevsClassification() {
        let touchpad = DeviceAccessPolicy.capabilities(properties: ["ID_INPUT_TOUCHPAD": "1"])
        #expect(touchpad.finger && !touchpad.wheel)
        let mouse = DeviceAccessPolicy.capabilities(properties: ["ID_INPUT_MOUSE": "1"])
        #expect(mouse.wheel && !mouse.finger)
        let stick = DeviceAccessPolicy.capabilities(properties: ["ID_INPUT_POINTINGSTICK": "1"])
        #expect(stick.continuous && !stick.wheel)
    }

    /// The real libinput path backend, on nodes that are not input devices: each is refused
    /// with its reason before anything is opened, and no event comes out.
    @Test func thePathBackendRefusesNodesThatAreNotScrollDevices() throws {
        let context = try LibinputContext(.paths(["/dev/null", "/nonexistent/event99"]))
        #expect(context.nextEvent() == nil)
        #expect(context.devices.isEmpty)
        #expect(context.openedPaths.isEmpty)
        #expect(context.refusals["/dev/null"] != nil)
        #expect(context.refusals["/nonexistent/event99"] != nil)
        #expect(context.fileDescriptor >= 0)
    }
}
