#if canImport(Glibc)
import Glibc
#endif

/// A wheel mouse made through /dev/uinput: the kernel stamps each event it is sent
/// (CLOCK_MONOTONIC for libinput's evdev reads) exactly as it stamps a USB mouse's.
final class VirtualMouse {
    let fd: Int32
    let name: String

    // linux/uinput.h and linux/input-event-codes.h
    private static let uiSetEvBit: UInt = 0x4004_5564
    private static let uiSetKeyBit: UInt = 0x4004_5565
    private static let uiSetRelBit: UInt = 0x4004_5566
    private static let uiDevSetup: UInt = 0x405c_5503
    private static let uiDevCreate: UInt = 0x5501
    private static let uiDevDestroy: UInt = 0x5502
    static let evSyn: UInt16 = 0, evKey: UInt16 = 1, evRel: UInt16 = 2
    static let relWheel: UInt16 = 0x08, relWheelHiRes: UInt16 = 0x0b

    init(name: String) throws {
        self.name = name
        fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw HarnessError.system("open /dev/uinput") }
        for bit in [Self.evKey, Self.evRel, Self.evSyn] { try control(Self.uiSetEvBit, Int32(bit)) }
        for key: Int32 in [0x110, 0x111, 0x112] { try control(Self.uiSetKeyBit, key) }  // BTN_LEFT, RIGHT, MIDDLE
        for rel: UInt16 in [0, 1, Self.relWheel, Self.relWheelHiRes] { try control(Self.uiSetRelBit, Int32(rel)) }
        // struct uinput_setup { struct input_id { u16 bustype, vendor, product, version }; char name[80]; u32 ff_effects_max; }
        var setup = [UInt8](repeating: 0, count: 92)
        setup[0] = 0x03  // BUS_USB
        setup[2] = 0x34; setup[3] = 0x12; setup[4] = 0x78; setup[5] = 0x56; setup[6] = 1
        for (i, byte) in name.utf8.prefix(79).enumerated() { setup[8 + i] = byte }
        guard setup.withUnsafeMutableBytes({ ioctl(fd, Self.uiDevSetup, $0.baseAddress!) }) == 0 else { throw HarnessError.system("UI_DEV_SETUP") }
        guard ioctl(fd, Self.uiDevCreate) == 0 else { throw HarnessError.system("UI_DEV_CREATE") }
    }

    private func control(_ request: UInt, _ value: Int32) throws {
        guard ioctl(fd, request, value) == 0 else { throw HarnessError.system("uinput ioctl \(request)") }
    }

    /// One wheel movement in one evdev frame: REL_WHEEL_HI_RES, REL_WHEEL once a whole detent
    /// (v120 = ±120) is reached, SYN_REPORT; one write(2), so the kernel stamps them together.
    func wheel(v120: Int32) throws {
        var events: [(UInt16, UInt16, Int32)] = [(Self.evRel, Self.relWheelHiRes, v120)]
        if abs(v120) >= 120 { events.append((Self.evRel, Self.relWheel, v120 / 120)) }
        events.append((Self.evSyn, 0, 0))
        var bytes = [UInt8](repeating: 0, count: 24 * events.count)
        bytes.withUnsafeMutableBytes { raw in
            for (i, (type, code, value)) in events.enumerated() {
                // struct input_event { struct timeval time; u16 type; u16 code; s32 value; } (time is set by the kernel)
                raw.storeBytes(of: type, toByteOffset: 24 * i + 16, as: UInt16.self)
                raw.storeBytes(of: code, toByteOffset: 24 * i + 18, as: UInt16.self)
                raw.storeBytes(of: value, toByteOffset: 24 * i + 20, as: Int32.self)
            }
        }
        try UnixSocket.writeAll(fd, bytes)
    }

    /// The /dev/input/eventN node the kernel made for it (found by name in sysfs).
    func eventNode(timeout: Double = 10) throws -> String {
        let deadline = Clock.nanoseconds() + Int64(timeout * 1e9)
        repeat {
            if let dir = opendir("/sys/class/input") {
                defer { closedir(dir) }
                while let entry = readdir(dir) {
                    let entryName = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                    guard entryName.hasPrefix("event") else { continue }
                    let deviceName = ProcessStats.read("/sys/class/input/\(entryName)/device/name")?.trimmingSuffixNewline
                    if deviceName == name, access("/dev/input/\(entryName)", R_OK) == 0 { return "/dev/input/\(entryName)" }
                }
            }
            Clock.sleep(seconds: 0.05)
        } while Clock.nanoseconds() < deadline
        throw HarnessError("no /dev/input node appeared for the uinput device \"\(name)\" within \(timeout) s")
    }

    deinit {
        _ = ioctl(fd, Self.uiDevDestroy)
        close(fd)
    }
}

extension String {
    var trimmingSuffixNewline: String {
        var s = self
        while s.last == "\n" { s.removeLast() }
        return s
    }
}
