#!/usr/bin/python3
"""Virtual input devices for scrolld's real-kernel end-to-end tests (uinput via python3-libevdev).

Run with /usr/bin/python3 (Debian's python3-libevdev) as root in the guest; see README.md.

Devices (kinds):
  mouse     high-resolution wheel mouse: REL_X/Y, BTN_LEFT/RIGHT/MIDDLE, REL_WHEEL(_HI_RES),
            REL_HWHEEL(_HI_RES)
  touchpad  clickpad with a realistic multitouch descriptor (100 x 70 mm, 40 units/mm, 5 slots)
  keyboard  EV_KEY with the letter keys A-Z only, no pointer axes or buttons. udev tags it only
            ID_INPUT_KEY=1 (not ID_INPUT_KEYBOARD: udev wants all of Esc, digits, Q..P, A, S for
            that), yet libinput 1.22 still treats it as a keyboard (capability k).
  full-keyboard  a standard keyboard's main block (key codes 1-83, F11, F12): ID_INPUT_KEYBOARD=1,
            like every real keyboard
  touchscreen  a direct-touch multitouch screen (INPUT_PROP_DIRECT, 10 slots, 0..4095 on both
            axes, ABS_X/Y and BTN_TOUCH for single-touch readers): udev tags it
            ID_INPUT_TOUCHSCREEN=1 and libinput gives it the touch capability (t)

Command line:
  uinput-devices.py create [--devices mouse,touchpad,keyboard,full-keyboard] [--ctl DIR]
                           [--json FILE]
      Creates the devices, waits until udev has processed them, writes their device nodes and
      sysnames to FILE (default DIR/devices.json; also the same as shell variables in FILE with
      .env for .json, e.g. DEV_MOUSE_NODE, DEV_MOUSE_SYSNAME, DEV_FULL_KEYBOARD_NAME), and
      keeps them alive until SIGTERM/SIGINT.
      With --ctl it also serves commands from the FIFO DIR/cmd (one process sequences all
      injections, so the shell guest script only says what to do next). DIR must be on a
      guest-local file system such as /run: qemu's 9p server refuses FIFOs, so not in WORKDIR.
  uinput-devices.py wait DIR [--pid PID] [--timeout S]
                                                  waits until the server in DIR answers (fails
                                                  at once if process PID, the server, is gone)
  uinput-devices.py ctl DIR COMMAND [ARGS...]     sends one command, waits until it is done,
                                                  prints the result (JSON), exits 1 on error
  uinput-devices.py commands                      lists the commands

Commands (also: `ctl DIR help`):
  wheel N [--axis v|h] [--interval-ms MS] [--device ID]
      N classic detent clicks: REL_WHEEL (or REL_HWHEEL) +-1 together with *_HI_RES +-120.
      Kernel signs: vertical N > 0 is the wheel turned away from the user (libinput reports
      that as negative v120: scroll up); horizontal N > 0 is to the right.
  hires-wheel UNITS [--step 30] [--axis v|h] [--detent-at 120] [--interval-ms MS] [--device ID]
      UNITS of 1/120 detent in events of +-STEP (REL_WHEEL_HI_RES only); REL_WHEEL +-1 is added
      to the event that completes a detent (--detent-at 60 mimics the kernel's hid-input, which
      reports the low-resolution click half-way).
  hwheel N ...            = wheel N --axis h
  move DX DY [--device ID]
  button left|right|middle [--press | --release] [--device ID]     (default: click)
  type LETTERS [--device ID]              key presses on a keyboard (default: the first one)
  touchpad-scroll [--dx MM] [--dy MM] [--frames N] [--interval-ms 12] [--no-lift] [--remove]
                  [--remove-after-lift] [--device ID]
      Two fingers land (one frame apart), move together by (DX, DY) millimetres in N frames and
      lift. Default: 20 mm up (--dy -20) in 25 frames. --no-lift leaves them down; --remove
      destroys the uinput device while they are still down and moving; --remove-after-lift
      destroys it 0.3 s after the lift (mid-fling).
  touchpad-remove-mid-scroll [...]   = touchpad-scroll --remove (default 10 frames, 8 mm up)
  touch-drag X Y DX DY [--frames N] [--interval-ms 12] [--hold-ms MS] [--second-finger] [--device ID]
      One finger lands on the touchscreen at (X, Y) (normalized, 0..1 of the glass), moves by
      (DX, DY) in N equal frames, stays still --hold-ms (default 0) and lifts. --second-finger:
      another finger (slot 1) lands beside it a third of the way through, moves the other way
      and lifts at two thirds.
  add KIND [--id ID] [--name NAME]   creates another device (hotplug); the result names it
  remove ID                          destroys a device (unplug)
  list                               the devices (same as devices.json)
  sleep MS
  quit                               destroys the devices and stops the server

Control protocol (for clients in other languages): write one line `@REPLY_PATH COMMAND ARGS...`
(shell-quoted words, under 4 KiB) to the FIFO DIR/cmd; the server answers one line on the FIFO
REPLY_PATH, which the client created and opened first: `ok JSON` or `err MESSAGE`. Commands run
one at a time, in order; a command's answer comes once its last event is written (and, for add
and remove, once udev has processed the device).

Library use: load this file (importlib) and use WheelMouse, Touchpad, Keyboard, FullKeyboard,
Touchscreen (or Server) directly.
"""

import argparse
import errno
import json
import os
import shlex
import signal
import stat
import sys
import time

UDEV_DATA = "/run/udev/data"
DEFAULT_DEVICES = ("mouse", "touchpad", "keyboard", "full-keyboard")
VENDOR = 0x5343  # made up, so no hwdb or libinput quirk matches these devices
BUS_USB = 0x03
BUS_I2C = 0x18


def log(msg):
    sys.stderr.write("uinput-devices[%.3f]: %s\n" % (time.monotonic(), msg))
    sys.stderr.flush()


class CommandError(Exception):
    pass


def _libevdev():
    import libevdev  # imported lazily: the `ctl` client does not need it
    return libevdev


# --------------------------------------------------------------------------------------------
# Devices


class VirtualDevice:
    """One uinput device. Subclasses describe it in `describe(dev)`."""

    kind = None
    default_name = None
    bustype = BUS_USB
    product = 0

    def __init__(self, ident, name=None, wait_udev=True):
        ev = _libevdev()
        self.ev = ev
        self.id = ident
        self.name = name or self.default_name
        dev = ev.Device()
        dev.name = self.name
        dev.id = {"bustype": self.bustype, "vendor": VENDOR, "product": self.product, "version": 1}
        self.describe(dev)
        self._dev = dev.create_uinput_device()
        self._uinput = getattr(self._dev, "_uinput", None)
        self.devnode = self._dev.devnode
        self.syspath = self._dev.syspath
        self.sysname = os.path.basename(self.devnode)
        st = os.stat(self.devnode)
        self.devnum = (os.major(st.st_rdev), os.minor(st.st_rdev))
        self.alive = True
        if wait_udev:
            self.wait_udev_added()

    def describe(self, dev):
        raise NotImplementedError

    def info(self):
        return {"id": self.id, "kind": self.kind, "name": self.name, "devnode": self.devnode,
                "sysname": self.sysname, "syspath": self.syspath}

    # udev: libinput (udev backend) only uses a device once udev has processed it, and only
    # reports its removal once udev has; commands wait for both so scripts can rely on order.
    def _udev_db(self):
        return "%s/c%d:%d" % (UDEV_DATA, self.devnum[0], self.devnum[1])

    def wait_udev_added(self, timeout=60):
        if not os.path.exists("/run/udev/control"):
            return  # no udevd: nothing to wait for
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                with open(self._udev_db()) as f:
                    if "E:ID_INPUT=1" in f.read():
                        return
            except FileNotFoundError:
                pass
            time.sleep(0.02)
        raise CommandError("udev did not process %s (%s) within %ds" % (self.id, self.devnode, timeout))

    def destroy(self, wait_udev=True, timeout=60):
        if not self.alive:
            return
        self.alive = False
        u = self._uinput
        if u is not None and getattr(u, "_uinput_device", None) is not None:
            u._uinput_destroy(u._uinput_device)
            u._uinput_device = None
        else:  # other python-libevdev layouts: dropping the last reference destroys it
            self._dev = None
        if wait_udev and os.path.exists("/run/udev/control"):
            deadline = time.monotonic() + timeout
            while os.path.exists(self._udev_db()) and time.monotonic() < deadline:
                time.sleep(0.02)

    def emit(self, *events):
        """Writes one frame: (code, value) pairs, then SYN_REPORT."""
        if not self.alive:
            raise CommandError("device %s was removed" % self.id)
        ev = self.ev
        frame = [ev.InputEvent(code, value) for code, value in events]
        frame.append(ev.InputEvent(ev.EV_SYN.SYN_REPORT, 0))
        u = self._uinput
        if u is not None and hasattr(u, "_uinput_write_event"):
            for e in frame:
                rc = u._uinput_write_event(u._uinput_device, e.type.value, e.code.value, e.value)
                if rc < 0:
                    raise OSError(-rc, "uinput write: " + os.strerror(-rc))
        else:
            self._dev.send_events(frame)


class Frames:
    """Paces frames `interval` seconds apart on the monotonic clock (no drift)."""

    def __init__(self, interval):
        self.interval = interval
        self.next = None

    def tick(self):
        now = time.monotonic()
        if self.next is not None and now < self.next:
            time.sleep(self.next - now)
        self.next = max(now, self.next or now) + self.interval


class WheelMouse(VirtualDevice):
    kind = "mouse"
    default_name = "scrolld-e2e hi-res wheel mouse"
    product = 0x0001

    def describe(self, dev):
        ev = self.ev
        for c in (ev.EV_REL.REL_X, ev.EV_REL.REL_Y, ev.EV_REL.REL_WHEEL, ev.EV_REL.REL_WHEEL_HI_RES,
                  ev.EV_REL.REL_HWHEEL, ev.EV_REL.REL_HWHEEL_HI_RES,
                  ev.EV_KEY.BTN_LEFT, ev.EV_KEY.BTN_RIGHT, ev.EV_KEY.BTN_MIDDLE):
            dev.enable(c)

    def _axes(self, axis):
        ev = self.ev
        if axis == "v":
            return ev.EV_REL.REL_WHEEL, ev.EV_REL.REL_WHEEL_HI_RES
        if axis == "h":
            return ev.EV_REL.REL_HWHEEL, ev.EV_REL.REL_HWHEEL_HI_RES
        raise CommandError("axis must be v or h")

    def wheel(self, clicks, axis="v", interval=0.08):
        """Classic detent clicks: low-res +-1 with hi-res +-120 in each frame."""
        lo, hi = self._axes(axis)
        sign = 1 if clicks > 0 else -1
        pace = Frames(interval)
        for _ in range(abs(clicks)):
            pace.tick()
            self.emit((lo, sign), (hi, 120 * sign))
        return {"frames": abs(clicks), "v120": 120 * clicks}

    def hires_wheel(self, units, step=30, axis="v", detent_at=120, interval=0.02):
        """Hi-res movement in +-step units; the low-res axis only when a detent accumulates."""
        lo, hi = self._axes(axis)
        if step <= 0:
            raise CommandError("step must be positive")
        if not 0 < detent_at <= 120:
            raise CommandError("--detent-at must be in 1..120")
        sign = 1 if units > 0 else -1
        left, acc, frames, clicks = abs(units), 0, 0, 0
        pace = Frames(interval)
        while left > 0:
            value = min(step, left) * sign
            left -= abs(value)
            acc += value
            events = [(hi, value)]
            if abs(acc) >= detent_at:
                # like hid-input: whole detents, at least one once the threshold is crossed
                n = int(acc / 120) or (1 if acc > 0 else -1)
                acc -= 120 * n
                events.insert(0, (lo, n))
                clicks += n
            pace.tick()
            self.emit(*events)
            frames += 1
        return {"frames": frames, "v120": units, "lowres_clicks": clicks}

    def move(self, dx, dy):
        ev = self.ev
        events = []
        if dx:
            events.append((ev.EV_REL.REL_X, dx))
        if dy:
            events.append((ev.EV_REL.REL_Y, dy))
        if events:
            self.emit(*events)

    def button(self, name, press=True, release=True):
        ev = self.ev
        code = {"left": ev.EV_KEY.BTN_LEFT, "right": ev.EV_KEY.BTN_RIGHT,
                "middle": ev.EV_KEY.BTN_MIDDLE}.get(name)
        if code is None:
            raise CommandError("unknown button %r (left, right, middle)" % name)
        if press:
            self.emit((code, 1))
        if press and release:
            time.sleep(0.03)
        if release:
            self.emit((code, 0))


class Touchpad(VirtualDevice):
    kind = "touchpad"
    default_name = "scrolld-e2e touchpad"
    bustype = BUS_I2C  # like an i2c-hid laptop touchpad
    product = 0x0002
    WIDTH_MM, HEIGHT_MM, RES = 100, 70, 40  # units per mm
    SLOTS = 5

    def __init__(self, *args, **kwargs):
        self._tracking_id = 0
        self.fingers_down = 0
        super().__init__(*args, **kwargs)

    def describe(self, dev):
        ev = self.ev
        xmax, ymax = self.WIDTH_MM * self.RES, self.HEIGHT_MM * self.RES
        absinfo = ev.InputAbsInfo
        dev.enable(ev.EV_ABS.ABS_X, absinfo(minimum=0, maximum=xmax, resolution=self.RES))
        dev.enable(ev.EV_ABS.ABS_Y, absinfo(minimum=0, maximum=ymax, resolution=self.RES))
        dev.enable(ev.EV_ABS.ABS_MT_SLOT, absinfo(minimum=0, maximum=self.SLOTS - 1))
        dev.enable(ev.EV_ABS.ABS_MT_POSITION_X, absinfo(minimum=0, maximum=xmax, resolution=self.RES))
        dev.enable(ev.EV_ABS.ABS_MT_POSITION_Y, absinfo(minimum=0, maximum=ymax, resolution=self.RES))
        dev.enable(ev.EV_ABS.ABS_MT_TRACKING_ID, absinfo(minimum=0, maximum=65535))
        for c in (ev.EV_KEY.BTN_LEFT, ev.EV_KEY.BTN_TOUCH, ev.EV_KEY.BTN_TOOL_FINGER,
                  ev.EV_KEY.BTN_TOOL_DOUBLETAP, ev.EV_KEY.BTN_TOOL_TRIPLETAP):
            dev.enable(c)
        dev.enable(ev.INPUT_PROP_POINTER)
        dev.enable(ev.INPUT_PROP_BUTTONPAD)

    def _mm(self, v):
        return int(round(v * self.RES))

    def two_finger_scroll(self, dx_mm=0.0, dy_mm=-20.0, frames=25, interval=0.012, lift=True,
                          remove=False, remove_after_lift=False):
        ev, A, K = self.ev, self.ev.EV_ABS, self.ev.EV_KEY
        if frames < 1:
            raise CommandError("frames must be at least 1")
        # Two fingers 20 mm apart around the pad's centre, starting so the motion stays inside.
        cx = self.WIDTH_MM / 2 - dx_mm / 2
        cy = self.HEIGHT_MM / 2 - dy_mm / 2
        starts = [(cx - 10, cy), (cx + 10, cy)]
        for x, y in starts:
            if not (5 <= x <= self.WIDTH_MM - 5 and 5 <= y <= self.HEIGHT_MM - 5) or \
               not (5 <= x + dx_mm <= self.WIDTH_MM - 5 and 5 <= y + dy_mm <= self.HEIGHT_MM - 5):
                raise CommandError("movement (%g, %g) mm does not fit on the %dx%d mm pad"
                                   % (dx_mm, dy_mm, self.WIDTH_MM, self.HEIGHT_MM))
        ids = [self._tracking_id, self._tracking_id + 1]
        self._tracking_id = (self._tracking_id + 2) % 65535
        pace = Frames(interval)
        (x0, y0), (x1, y1) = [(self._mm(x), self._mm(y)) for x, y in starts]
        # first finger lands
        pace.tick()
        self.emit((A.ABS_MT_SLOT, 0), (A.ABS_MT_TRACKING_ID, ids[0]),
                  (A.ABS_MT_POSITION_X, x0), (A.ABS_MT_POSITION_Y, y0),
                  (K.BTN_TOUCH, 1), (K.BTN_TOOL_FINGER, 1), (A.ABS_X, x0), (A.ABS_Y, y0))
        self.fingers_down = 1
        # second finger lands one frame later
        pace.tick()
        self.emit((A.ABS_MT_SLOT, 1), (A.ABS_MT_TRACKING_ID, ids[1]),
                  (A.ABS_MT_POSITION_X, x1), (A.ABS_MT_POSITION_Y, y1),
                  (K.BTN_TOOL_FINGER, 0), (K.BTN_TOOL_DOUBLETAP, 1))
        self.fingers_down = 2
        for i in range(1, frames + 1):
            ox, oy = self._mm(dx_mm * i / frames), self._mm(dy_mm * i / frames)
            pace.tick()
            self.emit((A.ABS_MT_SLOT, 0), (A.ABS_MT_POSITION_X, x0 + ox), (A.ABS_MT_POSITION_Y, y0 + oy),
                      (A.ABS_MT_SLOT, 1), (A.ABS_MT_POSITION_X, x1 + ox), (A.ABS_MT_POSITION_Y, y1 + oy),
                      (A.ABS_X, x0 + ox), (A.ABS_Y, y0 + oy))
        result = {"frames": frames + 2, "tracking_ids": ids, "dx_mm": dx_mm, "dy_mm": dy_mm}
        if remove:
            pace.tick()
            self.destroy()
            result["removed"] = True
            return result
        if lift:
            pace.tick()
            self.emit((A.ABS_MT_SLOT, 0), (A.ABS_MT_TRACKING_ID, -1),
                      (A.ABS_MT_SLOT, 1), (A.ABS_MT_TRACKING_ID, -1),
                      (K.BTN_TOUCH, 0), (K.BTN_TOOL_DOUBLETAP, 0))
            self.fingers_down = 0
            result["frames"] += 1
            if remove_after_lift:
                # Unplugged 0.3 s after the lift: long enough for every reader to have the
                # lift (a removal drops what a reader has not read yet), short enough for a
                # fling it started to still be running.
                time.sleep(0.3)
                self.destroy()
                result["removed"] = True
        return result


class Keyboard(VirtualDevice):
    """Letter keys only. udev's input_id tags a device ID_INPUT_KEYBOARD only when it has every
    key code 1..31 (Esc, digits, Q..P, A, S), so this one gets just ID_INPUT_KEY=1; libinput
    1.22 nevertheless gives it the keyboard capability."""
    kind = "keyboard"
    default_name = "scrolld-e2e keyboard"
    product = 0x0003

    def key_codes(self):
        return [getattr(self.ev.EV_KEY, "KEY_" + chr(c)) for c in range(ord("A"), ord("Z") + 1)]

    def describe(self, dev):
        for code in self.key_codes():
            dev.enable(code)

    def type(self, text, interval=0.03):
        pace = Frames(interval)
        for ch in text:
            if not ch.isalpha() or not ch.isascii():
                raise CommandError("type: letters only (got %r)" % ch)
            code = getattr(self.ev.EV_KEY, "KEY_" + ch.upper())
            pace.tick()
            self.emit((code, 1))
            pace.tick()
            self.emit((code, 0))
        return {"keys": len(text)}


class FullKeyboard(Keyboard):
    """A standard keyboard's main block: udev tags it ID_INPUT_KEYBOARD=1, like real ones."""
    kind = "full-keyboard"
    default_name = "scrolld-e2e full keyboard"
    product = 0x0004

    def key_codes(self):
        ev = self.ev
        return [ev.evbit(1, c) for c in range(1, 84)] + [ev.EV_KEY.KEY_F11, ev.EV_KEY.KEY_F12]


class Touchscreen(VirtualDevice):
    """A direct-touch screen (docs/design.md §25): multitouch slots and tracking ids, plus the
    single-touch ABS_X/ABS_Y and BTN_TOUCH that udev's input_id wants for ID_INPUT_TOUCHSCREEN."""
    kind = "touchscreen"
    default_name = "scrolld-e2e touchscreen"
    product = 0x0005
    MAX, RES, SLOTS = 4095, 16, 10  # 256 x 256 mm at 16 units per mm

    def __init__(self, *args, **kwargs):
        self._tracking_id = 0
        super().__init__(*args, **kwargs)

    def describe(self, dev):
        ev = self.ev
        absinfo = ev.InputAbsInfo
        for code in (ev.EV_ABS.ABS_X, ev.EV_ABS.ABS_Y, ev.EV_ABS.ABS_MT_POSITION_X, ev.EV_ABS.ABS_MT_POSITION_Y):
            dev.enable(code, absinfo(minimum=0, maximum=self.MAX, resolution=self.RES))
        dev.enable(ev.EV_ABS.ABS_MT_SLOT, absinfo(minimum=0, maximum=self.SLOTS - 1))
        dev.enable(ev.EV_ABS.ABS_MT_TRACKING_ID, absinfo(minimum=0, maximum=65535))
        dev.enable(ev.EV_KEY.BTN_TOUCH)
        dev.enable(ev.INPUT_PROP_DIRECT)

    def _units(self, v):
        if not 0 <= v <= 1:
            raise CommandError("touch position %g is off the glass (0..1)" % v)
        return int(round(v * self.MAX))

    def drag(self, x, y, dx, dy, frames=20, interval=0.012, hold=0.0, second=False):
        """One finger: down at (x, y), (dx, dy) in `frames` frames, still for `hold` s, up. With
        `second`, another finger (slot 1) lands 0.1 to the right of the first a third of the way
        through, moves the other way (−dx, −dy over a third of the frames) and lifts at two
        thirds, while the first goes on."""
        A, K = self.ev.EV_ABS, self.ev.EV_KEY
        if frames < 1:
            raise CommandError("frames must be at least 1")
        points = [(self._units(x + dx * i / frames), self._units(y + dy * i / frames)) for i in range(frames + 1)]
        land, lift = frames // 3, 2 * frames // 3
        if second and not 0 < land < lift < frames:
            raise CommandError("a second finger needs at least 3 frames")
        tid = self._tracking_id
        self._tracking_id = (self._tracking_id + 2) % 65535
        pace = Frames(interval)
        px, py = points[0]
        pace.tick()
        self.emit((A.ABS_MT_SLOT, 0), (A.ABS_MT_TRACKING_ID, tid), (A.ABS_MT_POSITION_X, px),
                  (A.ABS_MT_POSITION_Y, py), (K.BTN_TOUCH, 1), (A.ABS_X, px), (A.ABS_Y, py))
        for i, (px, py) in enumerate(points[1:], 1):
            events = [(A.ABS_MT_SLOT, 0), (A.ABS_MT_POSITION_X, px), (A.ABS_MT_POSITION_Y, py)]
            if second and land <= i <= lift:
                f = (i - land) / (lift - land)
                sx = self._units(x + 0.1 + dx * land / frames - dx * f / 3)
                sy = self._units(y + dy * land / frames - dy * f / 3)
                events += [(A.ABS_MT_SLOT, 1)]
                if i == land:
                    events += [(A.ABS_MT_TRACKING_ID, tid + 1)]
                events += [(A.ABS_MT_TRACKING_ID, -1)] if i == lift else [(A.ABS_MT_POSITION_X, sx), (A.ABS_MT_POSITION_Y, sy)]
            pace.tick()
            self.emit(*events, (A.ABS_X, px), (A.ABS_Y, py))
        if hold > 0:
            time.sleep(hold)
        pace.tick()
        self.emit((A.ABS_MT_SLOT, 0), (A.ABS_MT_TRACKING_ID, -1), (K.BTN_TOUCH, 0))
        return {"frames": frames + 2, "tracking_id": tid, "from": points[0], "to": points[-1], "second": second}


KINDS = {c.kind: c for c in (WheelMouse, Touchpad, Keyboard, FullKeyboard, Touchscreen)}


# --------------------------------------------------------------------------------------------
# The server: owns the devices, runs commands from the control FIFO


class ArgError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ArgError("%s: %s" % (self.prog, message))

    def exit(self, status=0, message=None):
        raise ArgError(message or self.format_help())


def command_parser():
    p = _Parser(prog="command", add_help=False)
    sub = p.add_subparsers(dest="cmd", required=True, parser_class=_Parser)

    def add(name, **kw):
        return sub.add_parser(name, add_help=False, **kw)

    for name in ("wheel", "hwheel"):
        c = add(name)
        c.add_argument("clicks", type=int)
        c.add_argument("--axis", choices=("v", "h"), default="h" if name == "hwheel" else "v")
        c.add_argument("--interval-ms", type=float, default=80)
        c.add_argument("--device")
    c = add("hires-wheel")
    c.add_argument("units", type=int)
    c.add_argument("--step", type=int, default=30)
    c.add_argument("--axis", choices=("v", "h"), default="v")
    c.add_argument("--detent-at", type=int, default=120)
    c.add_argument("--interval-ms", type=float, default=20)
    c.add_argument("--device")
    c = add("move")
    c.add_argument("dx", type=int)
    c.add_argument("dy", type=int)
    c.add_argument("--device")
    c = add("button")
    c.add_argument("name", choices=("left", "right", "middle"))
    g = c.add_mutually_exclusive_group()
    g.add_argument("--press", action="store_true")
    g.add_argument("--release", action="store_true")
    c.add_argument("--device")
    c = add("type")
    c.add_argument("letters")
    c.add_argument("--device")
    for name in ("touchpad-scroll", "touchpad-remove-mid-scroll"):
        mid = name != "touchpad-scroll"
        c = add(name)
        c.add_argument("--dx", type=float, default=0.0)
        c.add_argument("--dy", type=float, default=-8.0 if mid else -20.0)
        c.add_argument("--frames", type=int, default=10 if mid else 25)
        c.add_argument("--interval-ms", type=float, default=12)
        c.add_argument("--no-lift", action="store_true")
        c.add_argument("--remove", action="store_true", default=mid)
        c.add_argument("--remove-after-lift", action="store_true")
        c.add_argument("--device")
    c = add("touch-drag")
    for name in ("x", "y", "dx", "dy"):
        c.add_argument(name, type=float)
    c.add_argument("--frames", type=int, default=20)
    c.add_argument("--interval-ms", type=float, default=12)
    c.add_argument("--hold-ms", type=float, default=0)
    c.add_argument("--second-finger", action="store_true")
    c.add_argument("--device")
    c = add("add")
    c.add_argument("kind", choices=sorted(KINDS))
    c.add_argument("--id")
    c.add_argument("--name")
    c = add("remove")
    c.add_argument("id")
    add("list")
    c = add("sleep")
    c.add_argument("ms", type=float)
    add("quit")
    add("ping")
    add("help")
    return p


class Server:
    def __init__(self, ctl_dir, json_path, kinds):
        self.ctl_dir = ctl_dir
        self.json_path = json_path
        self.devices = {}  # id -> VirtualDevice, in creation order
        self.removed = []
        self.parser = command_parser()
        try:
            for kind in kinds:
                self.add(kind)
        except BaseException:
            self.close()
            raise

    # devices
    def add(self, kind, ident=None, name=None):
        cls = KINDS.get(kind)
        if cls is None:
            raise CommandError("unknown device kind %r (%s)" % (kind, ", ".join(sorted(KINDS))))
        if ident is None:
            ident, n = kind, 2
            while ident in self.devices or any(r["id"] == ident for r in self.removed):
                ident, n = "%s%d" % (kind, n), n + 1
        elif ident in self.devices:
            raise CommandError("a device %r exists already" % ident)
        dev = cls(ident, name=name)
        self.devices[ident] = dev
        log("added %s: %s (%s)" % (ident, dev.devnode, dev.name))
        self.write_json()
        return dev.info()

    def remove(self, ident):
        dev = self.devices.get(ident)
        if dev is None:
            raise CommandError("no device %r" % ident)
        dev.destroy()
        self._forget(dev)
        return dev.info()

    def _forget(self, dev):
        self.devices.pop(dev.id, None)
        self.removed.append(dev.info())
        log("removed %s: %s" % (dev.id, dev.devnode))
        self.write_json()

    def device(self, ident, cls):
        if ident is not None:
            dev = self.devices.get(ident)
            if dev is None:
                raise CommandError("no device %r" % ident)
            if not isinstance(dev, cls):
                raise CommandError("device %r is a %s, not a %s" % (ident, dev.kind, cls.kind))
            return dev
        for dev in self.devices.values():
            if isinstance(dev, cls):
                return dev
        raise CommandError("no %s present" % cls.kind)

    def state(self):
        return {"pid": os.getpid(), "ctl": self.ctl_dir,
                "devices": {i: d.info() for i, d in self.devices.items()},
                "removed": self.removed}

    def write_json(self):
        if not self.json_path:
            return
        state = self.state()
        # shell form first: the JSON file appearing is the "ready" signal
        env_path = (self.json_path[:-5] if self.json_path.endswith(".json") else self.json_path) + ".env"
        lines = ["DEV_SERVER_PID=%d" % state["pid"], "DEV_IDS=%s" % shlex.quote(" ".join(state["devices"]))]
        for group in ("removed", "devices"):  # a re-added id overrides its removed entry
            infos = state["removed"] if group == "removed" else list(state["devices"].values())
            for info in infos:
                var = "DEV_" + "".join(ch if ch.isalnum() else "_" for ch in info["id"]).upper()
                for field in ("node", "sysname", "name", "kind"):
                    value = info["devnode" if field == "node" else field]
                    lines.append("%s_%s=%s" % (var, field.upper(), shlex.quote(value)))
                lines.append("%s_PRESENT=%d" % (var, group == "devices"))
        for path, text in ((env_path, "\n".join(lines) + "\n"),
                           (self.json_path, json.dumps(state, indent=2) + "\n")):
            with open(path + ".tmp", "w") as f:
                f.write(text)
            os.replace(path + ".tmp", path)

    def close(self):
        for dev in list(self.devices.values()):
            try:
                dev.destroy(wait_udev=False)
            except Exception as e:  # noqa: BLE001 - best effort on the way out
                log("destroying %s: %s" % (dev.id, e))
        self.devices.clear()

    # commands
    def run(self, argv):
        a = self.parser.parse_args(argv)
        c = a.cmd
        if c in ("wheel", "hwheel"):
            return self.device(a.device, WheelMouse).wheel(a.clicks, a.axis, a.interval_ms / 1000)
        if c == "hires-wheel":
            return self.device(a.device, WheelMouse).hires_wheel(
                a.units, a.step, a.axis, a.detent_at, a.interval_ms / 1000)
        if c == "move":
            return self.device(a.device, WheelMouse).move(a.dx, a.dy)
        if c == "button":
            return self.device(a.device, WheelMouse).button(
                a.name, press=not a.release, release=not a.press)
        if c == "type":
            return self.device(a.device, Keyboard).type(a.letters)
        if c in ("touchpad-scroll", "touchpad-remove-mid-scroll"):
            tp = self.device(a.device, Touchpad)
            result = tp.two_finger_scroll(a.dx, a.dy, a.frames, a.interval_ms / 1000,
                                          lift=not a.no_lift, remove=a.remove,
                                          remove_after_lift=a.remove_after_lift)
            if a.remove or a.remove_after_lift:
                self._forget(tp)
                result["device"] = tp.info()
            return result
        if c == "touch-drag":
            return self.device(a.device, Touchscreen).drag(a.x, a.y, a.dx, a.dy, a.frames, a.interval_ms / 1000,
                                                            a.hold_ms / 1000, a.second_finger)
        if c == "add":
            return self.add(a.kind, a.id, a.name)
        if c == "remove":
            return self.remove(a.id)
        if c == "list":
            return self.state()
        if c == "sleep":
            time.sleep(a.ms / 1000)
            return None
        if c == "ping":
            return "pong"
        if c == "help":
            return __doc__[__doc__.index("Commands"):__doc__.index("Library use")]
        if c == "quit":
            raise SystemExit(0)
        raise CommandError("unhandled command %s" % c)

    def serve(self):
        """Reads `@REPLY_FIFO command args...` lines from DIR/cmd; answers `ok JSON` or
        `err MESSAGE` on REPLY_FIFO (a line without @REPLY_FIFO gets no answer)."""
        path = os.path.join(self.ctl_dir, "cmd")
        if os.path.exists(path):
            os.unlink(path)
        try:
            os.mkfifo(path, 0o600)
            fd = os.open(path, os.O_RDWR)  # read-write: never sees EOF when a writer goes away
        except OSError as e:
            raise CommandError("cannot create the control FIFO %s (%s); use a local folder such as "
                               "/run/..., not a 9p share" % (path, e)) from None
        self.write_json()
        log("serving commands on %s" % path)
        buf = b""
        while True:
            chunk = os.read(fd, 4096)
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self.handle(line.decode("utf-8", "replace").strip())

    def handle(self, line):
        if not line:
            return
        reply = None
        if line.startswith("@"):
            first, _, line = line.partition(" ")
            reply = shlex.split(first)[0][1:] if first else None
        try:
            words = shlex.split(line)
            t0 = time.monotonic()
            try:
                result = self.run(words)
                answer = "ok " + json.dumps(result)
                log("%s: ok (%.2fs)" % (" ".join(words), time.monotonic() - t0))
            except SystemExit:
                self._answer(reply, "ok null")
                raise
            except (CommandError, ArgError, OSError, ValueError) as e:
                answer = "err " + " ".join(str(e).split())
                log("%s: error: %s" % (" ".join(words), e))
        except ValueError as e:  # shlex
            answer = "err cannot parse %r: %s" % (line, e)
        self._answer(reply, answer)

    @staticmethod
    def _answer(reply, answer):
        if not reply:
            return
        deadline = time.monotonic() + 5
        while True:
            try:
                fd = os.open(reply, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as e:
                if e.errno not in (errno.ENXIO, errno.ENOENT) or time.monotonic() > deadline:
                    log("cannot answer on %s: %s" % (reply, e))
                    return
                time.sleep(0.01)
        try:
            os.write(fd, (answer + "\n").encode())
        finally:
            os.close(fd)


def cmd_create(args):
    kinds = [k for k in args.devices.split(",") if k] if args.devices else []
    for k in kinds:
        if k not in KINDS:
            sys.exit("unknown device kind %r (%s)" % (k, ", ".join(sorted(KINDS))))
    if args.ctl:
        os.makedirs(args.ctl, exist_ok=True)
    json_path = args.json or (os.path.join(args.ctl, "devices.json") if args.ctl else None)
    if json_path and os.path.exists(json_path):
        os.unlink(json_path)

    def stop(signum, _frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server = None
    try:
        server = Server(args.ctl, None, kinds)
        server.json_path = json_path
        if args.ctl:
            server.serve()
        else:
            server.write_json()
            print(json.dumps(server.state(), indent=2), flush=True)
            while True:
                signal.pause()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 0
        return 0 if code in (0, 128 + signal.SIGTERM, 128 + signal.SIGINT) else code
    except CommandError as e:
        log("error: %s" % e)
        return 1
    finally:
        if server is not None:
            server.close()
            if args.ctl:
                try:
                    os.unlink(os.path.join(args.ctl, "cmd"))
                except OSError:
                    pass
            log("devices destroyed, server stopped")


def send(ctl_dir, argv, timeout=120):
    """Sends one command to the server in ctl_dir; returns its result or raises CommandError."""
    cmd = os.path.join(ctl_dir, "cmd")
    try:
        if not stat.S_ISFIFO(os.stat(cmd).st_mode):
            raise CommandError("%s is not a FIFO" % cmd)
    except FileNotFoundError:
        raise CommandError("no server in %s (no %s)" % (ctl_dir, cmd)) from None
    reply = os.path.join(ctl_dir, "reply.%d.%d" % (os.getpid(), time.monotonic_ns()))
    os.mkfifo(reply, 0o600)
    try:
        rfd = os.open(reply, os.O_RDWR)  # does not block; the server opens it to answer
        try:
            wfd = os.open(cmd, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as e:
            raise CommandError("server in %s is not running (%s)" % (ctl_dir, e)) from None
        line = " ".join(shlex.quote(w) for w in ["@" + reply] + list(argv)) + "\n"
        if len(line) > 4000:
            raise CommandError("command too long")
        os.write(wfd, line.encode())
        os.close(wfd)
        deadline = time.monotonic() + timeout
        buf = b""
        import select
        while b"\n" not in buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CommandError("no answer to %r within %ds" % (" ".join(argv), timeout))
            r, _, _ = select.select([rfd], [], [], left)
            if r:
                buf += os.read(rfd, 65536)
        os.close(rfd)
    finally:
        os.unlink(reply)
    answer = buf.split(b"\n", 1)[0].decode()
    status, _, payload = answer.partition(" ")
    if status == "ok":
        return json.loads(payload) if payload else None
    raise CommandError(payload)


def cmd_ctl(args):
    try:
        result = send(args.dir, args.command, args.timeout)
    except CommandError as e:
        sys.stderr.write("uinput-devices ctl: %s\n" % e)
        return 1
    if isinstance(result, str):
        print(result)
    elif result is not None:
        print(json.dumps(result, indent=2))
    return 0


def cmd_wait(args):
    deadline = time.monotonic() + args.timeout
    last = None
    while time.monotonic() < deadline:
        if args.pid:
            try:
                os.kill(args.pid, 0)
            except ProcessLookupError:
                sys.stderr.write("uinput-devices wait: the server (pid %d) exited\n" % args.pid)
                return 1
        try:
            send(args.dir, ["ping"], timeout=max(1, deadline - time.monotonic()))
            return 0
        except CommandError as e:
            last = e
            time.sleep(0.1)
    sys.stderr.write("uinput-devices wait: no server in %s after %ds (%s)\n" % (args.dir, args.timeout, last))
    return 1


def main(argv=None):
    p = argparse.ArgumentParser(description="uinput devices for scrolld's end-to-end tests",
                                epilog="Commands for ctl: run `%(prog)s commands`.")
    sub = p.add_subparsers(dest="sub", required=True)
    c = sub.add_parser("create", help="create devices and keep them until signalled")
    c.add_argument("--devices", default=",".join(DEFAULT_DEVICES),
                   help="comma-separated kinds (default: %(default)s); may be empty")
    c.add_argument("--ctl", help="serve commands on the FIFO DIR/cmd")
    c.add_argument("--json", help="where to write the device list (default: DIR/devices.json)")
    c = sub.add_parser("ctl", help="send one command to a server")
    c.add_argument("--timeout", type=float, default=120)
    c.add_argument("dir")
    c.add_argument("command", nargs=argparse.REMAINDER)
    c = sub.add_parser("wait", help="wait until a server answers")
    c.add_argument("--timeout", type=float, default=60)
    c.add_argument("--pid", type=int, help="the server's process id")
    c.add_argument("dir")
    sub.add_parser("commands", help="list the commands a server understands")
    args = p.parse_args(argv)
    if args.sub == "create":
        return cmd_create(args)
    if args.sub == "ctl":
        if not args.command:
            p.error("ctl: no command")
        return cmd_ctl(args)
    if args.sub == "wait":
        return cmd_wait(args)
    if args.sub == "commands":
        print(__doc__[__doc__.index("Commands"):__doc__.index("Library use")].rstrip())
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
