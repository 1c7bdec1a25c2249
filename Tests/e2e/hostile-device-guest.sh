#!/bin/bash
# The eleventh hostile round (docs/security.md): input devices as an attacker makes them. A
# process with /dev/uinput (or a BadUSB gadget, or broken firmware) chooses a device's name, its
# axis ranges and every value it sends; scrolld must stay available, bounded and truthful.
#   Tests/e2e/setup.sh && Tests/e2e/run-guest.sh Tests/e2e/hostile-device-guest.sh [WORKDIR]
#
# Devices are made with raw uinput ioctls (a helper written below to /run): any bytes as a name,
# any absinfo. One `scrolld run --record` serves `main` and `side` (a touch frame over the whole
# glass) to a watcher that checks every state it receives (valid JSON, finite numbers) and a
# bystander that pings back to back; `scrolld record` records each step apart. Steps:
#   names    mice named with a newline and a forged log line, escape sequences, bytes that are
#            not UTF-8, 80 bytes; a touchscreen named with a newline (the daemon's [input]
#            natural_scrolling, which a touchscreen cannot take, makes the daemon name it in its
#            log); a hi-res mouse sending low-res events only (libinput's own "kernel bug" error
#            names it)
#   extreme  REL_WHEEL, REL_WHEEL_HI_RES, REL_HWHEEL(_HI_RES) of INT32_MAX and INT32_MIN, alone,
#            together, alternating, 32 per frame
#   touch    touchscreens of degenerate ranges (min == max, INT32_MIN..INT32_MAX, -1..INT32_MAX,
#            resolution INT32_MAX, 0..1), fingers outside the range, 60 slots down at once with
#            one tracking id, events without SYN_REPORT, removed with a finger down; a touchpad
#            of resolution 0
#   flood    a wheel mouse writing REL_WHEEL_HI_RES frames as fast as uinput takes them for 20 s;
#            a ping sent 3 s into it
#   churn    devices created and destroyed back to back for 30 s
#   many     1000 devices at once, then all removed
#   gesture  a touchpad removed with two fingers down and moving, 10 times
# Checks (PASS/FAIL lines in WORKDIR/results.txt; figures in WORKDIR/figures.txt, information
# only: no check depends on how fast anything is):
#   - every line of the daemon's log and of `scrolld record`'s is one entry (starts with
#     "scrolld: " or "libinput "), none carries an escape or a carriage return, none is forged;
#     the touchscreen's name is quoted escaped; libinput's own two-line "kernel bug" message about
#     the hi-res mouse is one line (libinput shows a name's control characters as "?" itself);
#   - the `devices` reply is one valid JSON line, the names in it as the kernel gave them;
#   - every state the watcher receives is valid JSON with finite numbers;
#   - every step's `scrolld record` log replays with exit 0, twice byte for byte the same; the
#     daemon's own recording replays (exit 0) and every state the watcher got for `side` is the
#     replay's state of the same seq;
#   - a ping sent 3 s into the flood, by a client connected before it, is answered while the
#     flood goes on (an order, not a time: the flood lasts 20 s, and on until that answer, for
#     at most 300 s, a deadline that only catches the failure). It needs the input thread's
#     flow control in Sources/scrolld/Daemon/LibinputSource.swift (`InputFlow`): without
#     it the loop ran the flood's backlog of input batches before reading any socket, and the
#     pong came 29 s to 70 s after the flood's end;
#   - after the flood, the churn and the thousand devices: the daemon still answers, lists no
#     device, and holds no more descriptors than before them.
# Against the build before this round (eab5f8f) 10 of 46 checks fail: the touch step's replay
# (exit 65, a touch at 1.8e308), the daemon's log and three `scrolld record` logs (a forged
# line; libinput's message on two lines), the touchscreen's quoted name, libinput's message as
# one line, the daemon's own recording (exit 65), live = replay, the ping during the flood.
set -u
W=${1:?usage: hostile-device-guest.sh WORKDIR}
# shellcheck disable=SC1091
. "$E2E_DIR/guest-lib.sh"

REPO=$(cd "$E2E_DIR/../.." && pwd)
BIN_DIR=$(e2e_bin_dir "$W" "$REPO")
SCROLLD=$BIN_DIR/scrolld
PY=$E2E_PYTHON
RUN=/run/scrolld-hostile        # guest-local: sockets (9p refuses them)
SOCK=$RUN/scrolld.sock
E2E_RESULTS=$W/results.txt
FIGURES=$W/figures.txt
mkdir -p "$RUN"
rm -f "$W"/*.scrolllog "$W"/*.jsonl "$W/steps.txt" "$W/rss.txt"
: >"$E2E_RESULTS"
: >"$FIGURES"
figure() { echo "$*" >>"$FIGURES"; e2e_log "figure: $*"; }
fatal() { echo "FAIL: $*" >>"$E2E_RESULTS"; e2e_checks_done; e2e_fail "$*"; }

# --- the hostile devices: raw uinput ----------------------------------------------------------
cat >"$RUN/hostile.py" <<'PY'
import fcntl, glob, json, os, struct, sys, time
def IOC(d, nr, size): return (d << 30) | (size << 16) | (ord('U') << 8) | nr
UI_DEV_CREATE, UI_DEV_DESTROY, UI_DEV_SETUP, UI_ABS_SETUP = IOC(0, 1, 0), IOC(0, 2, 0), IOC(1, 3, 92), IOC(1, 4, 28)
UI_SET_EVBIT, UI_SET_KEYBIT, UI_SET_RELBIT, UI_SET_ABSBIT = (IOC(1, n, 4) for n in (100, 101, 102, 103))
UI_SET_PROPBIT = IOC(1, 110, 4)
EV_SYN, EV_KEY, EV_REL, EV_ABS = 0, 1, 2, 3
REL_X, REL_Y, REL_HWHEEL, REL_WHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES = 0, 1, 6, 8, 11, 12
BTN_LEFT, BTN_RIGHT, BTN_MIDDLE = 0x110, 0x111, 0x112
BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP, BTN_TOUCH = 0x145, 0x14d, 0x14e, 0x14a
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_X, ABS_MT_Y, ABS_MT_TRACKING_ID = 0, 1, 0x2f, 0x35, 0x36, 0x39
PROP_POINTER, PROP_DIRECT, PROP_BUTTONPAD = 0, 1, 2
MAX, MIN = 2**31 - 1, -2**31
EVENT = struct.Struct("llHHi")
RUN = os.path.dirname(os.path.abspath(__file__))

def udev_ready(node, timeout=60):
    st = os.stat(node)
    path = "/run/udev/data/c%d:%d" % (os.major(st.st_rdev), os.minor(st.st_rdev))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if "E:ID_INPUT=1" in open(path).read(): return
        except FileNotFoundError: pass
        time.sleep(0.02)

class Dev:
    def __init__(self, name, rel=(), keys=(), abs=(), props=(), product=0x77, wait=True):
        if isinstance(name, str): name = name.encode()
        self.fd = os.open("/dev/uinput", os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        for bit, codes in ((EV_REL, rel), (EV_KEY, keys)):
            if codes: fcntl.ioctl(self.fd, UI_SET_EVBIT, bit)
            for c in codes: fcntl.ioctl(self.fd, UI_SET_RELBIT if bit == EV_REL else UI_SET_KEYBIT, c)
        if abs: fcntl.ioctl(self.fd, UI_SET_EVBIT, EV_ABS)
        for code, lo, hi, res in abs:
            fcntl.ioctl(self.fd, UI_SET_ABSBIT, code)
            fcntl.ioctl(self.fd, UI_ABS_SETUP, struct.pack("Hxxiiiiii", code, 0, lo, hi, 0, 0, res))
        for p in props: fcntl.ioctl(self.fd, UI_SET_PROPBIT, p)
        fcntl.ioctl(self.fd, UI_DEV_SETUP, struct.pack("HHHH80sI", 0x03, 0x5343, product, 1, name[:80], 0))
        fcntl.ioctl(self.fd, UI_DEV_CREATE)
        buf = bytearray(64)
        fcntl.ioctl(self.fd, IOC(2, 44, 64), buf)
        sysname = bytes(buf).split(b"\0")[0].decode()
        nodes = glob.glob("/sys/devices/virtual/input/%s/event*" % sysname)
        self.node = "/dev/input/" + os.path.basename(nodes[0]) if nodes else None
        if wait and self.node:
            for _ in range(500):
                if os.path.exists(self.node): break
                time.sleep(0.01)
            udev_ready(self.node)
    def write(self, events, syn=True):
        data = b"".join(EVENT.pack(0, 0, t, c, v) for t, c, v in events)
        self.raw(data + (EVENT.pack(0, 0, EV_SYN, 0, 0) if syn else b""))
    def raw(self, data):
        n = 0
        while n < len(data):
            try: n += os.write(self.fd, data[n:])
            except BlockingIOError: time.sleep(0.0005)
    def destroy(self):
        fcntl.ioctl(self.fd, UI_DEV_DESTROY); os.close(self.fd)

def mouse(name, **kw):
    return Dev(name, rel=(REL_X, REL_Y, REL_WHEEL, REL_HWHEEL, REL_WHEEL_HI_RES, REL_HWHEEL_HI_RES),
               keys=(BTN_LEFT, BTN_RIGHT, BTN_MIDDLE), **kw)
def touchscreen(name, xr=(0, 4095, 0), yr=(0, 4095, 0), slots=10):
    return Dev(name, keys=(BTN_TOUCH,), abs=((ABS_X,) + xr, (ABS_Y,) + yr, (ABS_MT_SLOT, 0, slots - 1, 0),
               (ABS_MT_X,) + xr, (ABS_MT_Y,) + yr, (ABS_MT_TRACKING_ID, 0, 65535, 0)), props=(PROP_DIRECT,), product=0x78)
def touchpad(name, res=40):
    return Dev(name, keys=(BTN_LEFT, BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP),
               abs=((ABS_X, 0, 4000, res), (ABS_Y, 0, 2800, res), (ABS_MT_SLOT, 0, 4, 0), (ABS_MT_X, 0, 4000, res),
                    (ABS_MT_Y, 0, 2800, res), (ABS_MT_TRACKING_ID, 0, 65535, 0)), props=(PROP_POINTER, PROP_BUTTONPAD), product=0x79)

def clamp(v): return max(MIN, min(MAX, v))
def touch_drag(d, x0, y0, dx, dy, frames=12, tid=1, lift=True):
    d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, tid), (EV_ABS, ABS_MT_X, x0), (EV_ABS, ABS_MT_Y, y0),
             (EV_KEY, BTN_TOUCH, 1), (EV_ABS, ABS_X, x0), (EV_ABS, ABS_Y, y0)])
    for i in range(1, frames + 1):
        time.sleep(0.012)
        x, y = clamp(x0 + dx * i // frames), clamp(y0 + dy * i // frames)
        d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_X, x), (EV_ABS, ABS_MT_Y, y), (EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y)])
    if lift:
        time.sleep(0.012)
        d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_KEY, BTN_TOUCH, 0)])

def two_fingers(d, dy=-800, frames=25, lift=True):
    cx, cy = 2000, 1400
    d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, 11), (EV_ABS, ABS_MT_X, cx - 400), (EV_ABS, ABS_MT_Y, cy),
             (EV_KEY, BTN_TOUCH, 1), (EV_KEY, BTN_TOOL_FINGER, 1), (EV_ABS, ABS_X, cx - 400), (EV_ABS, ABS_Y, cy)])
    time.sleep(0.012)
    d.write([(EV_ABS, ABS_MT_SLOT, 1), (EV_ABS, ABS_MT_TRACKING_ID, 12), (EV_ABS, ABS_MT_X, cx + 400), (EV_ABS, ABS_MT_Y, cy),
             (EV_KEY, BTN_TOOL_FINGER, 0), (EV_KEY, BTN_TOOL_DOUBLETAP, 1)])
    for i in range(1, frames + 1):
        time.sleep(0.012)
        y = cy + dy * i // frames
        d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_Y, y), (EV_ABS, ABS_MT_SLOT, 1), (EV_ABS, ABS_MT_Y, y), (EV_ABS, ABS_Y, y)])
    if lift:
        time.sleep(0.012)
        d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_TRACKING_ID, -1), (EV_ABS, ABS_MT_SLOT, 1), (EV_ABS, ABS_MT_TRACKING_ID, -1),
                 (EV_KEY, BTN_TOUCH, 0), (EV_KEY, BTN_TOOL_DOUBLETAP, 0)])

NAMES = [b"evil\nscrolld: forged by a mouse\r\x1b[31mRED\x1b[0m\x07",
         b"\xff\xfe\xc3\x28 not \xe2\x82 utf-8 \xed\xa0\x80", b"A" * 80,
         b"\x1b]0;title\x07\x1b[2J\x1b[H" + b"x" * 60, b"quote\" back\\slash \x7f del \x01 tab\tend"]

def names(hold):
    devs = [mouse(n) for n in NAMES]
    devs.append(touchscreen(b"glass\nscrolld: forged by a touchscreen"))
    hires = mouse(b"hires\nlibinput: forged by libinput's own log")
    devs.append(hires)
    open(RUN + "/names-ready", "w").close()
    while not os.path.exists(RUN + "/names-go"):   # the daemon has them all open
        time.sleep(0.1)
    hires.write([(EV_REL, REL_WHEEL, -1)])  # low-res only on a hi-res device: libinput's "kernel bug"
    for d in devs[:len(NAMES)]:
        d.write([(EV_REL, REL_WHEEL, -1), (EV_REL, REL_WHEEL_HI_RES, -120)]); time.sleep(0.05)
    while not os.path.exists(RUN + "/names-done") and hold > 0:
        time.sleep(0.1); hold -= 0.1
    for d in devs: d.destroy()

def extreme():
    d = mouse("hostile extreme wheel")
    time.sleep(0.5)
    W, WH, H, HH = REL_WHEEL, REL_WHEEL_HI_RES, REL_HWHEEL, REL_HWHEEL_HI_RES
    for frame in ([(W, MAX)], [(W, MIN)], [(WH, MAX)], [(WH, MIN)], [(W, MAX), (WH, MAX)], [(W, MIN), (WH, MIN)],
                  [(H, MAX), (HH, MAX)], [(H, MIN), (HH, MIN)], [(HH, MAX)], [(HH, MIN)]):
        d.write([(EV_REL, c, v) for c, v in frame]); time.sleep(0.05)
    for i in range(200):
        v = MAX if i % 2 else MIN
        d.write([(EV_REL, W, v), (EV_REL, WH, v), (EV_REL, H, -v if v != MIN else MAX), (EV_REL, HH, v)] * 8)
        time.sleep(0.002)
    for v in (MAX, MIN):
        for i in range(50):
            d.write([(EV_REL, WH, v), (EV_REL, W, v)]); time.sleep(0.02)
    time.sleep(0.5)
    d.destroy()

def touch():
    out = {}
    cases = [("min==max", dict(xr=(100, 100, 0), yr=(100, 100, 0))), ("int range", dict(xr=(MIN, MAX, 0), yr=(MIN, MAX, 0))),
             ("-1..max", dict(xr=(-1, MAX, 0), yr=(-1, MAX, 0))), ("res max", dict(xr=(0, 4095, MAX), yr=(0, 4095, MAX))),
             ("0..1", dict(xr=(0, 1, 0), yr=(0, 1, 0))), ("60 slots", dict(slots=60))]
    for label, kw in cases:
        try:
            d = touchscreen("hostile touchscreen " + label, **kw)
        except OSError as e:
            out[label] = "refused by uinput: %s" % e; continue
        time.sleep(0.5)
        lo, hi = kw.get("xr", (0, 4095, 0))[:2]
        mid, span = (lo + hi) // 2, max(1, (hi - lo) // 4)
        touch_drag(d, mid, mid, 0, -span)
        touch_drag(d, hi, hi, 0, MIN // 2 if hi > 0 else -1000, frames=8, tid=2)   # out of range
        touch_drag(d, MAX, MIN, -5, 5, frames=4, tid=3)
        slots = min(kw.get("slots", 10), 64)
        evs = []
        for s in range(slots):  # every slot down with the same tracking id
            evs += [(EV_ABS, ABS_MT_SLOT, s), (EV_ABS, ABS_MT_TRACKING_ID, 7), (EV_ABS, ABS_MT_X, mid), (EV_ABS, ABS_MT_Y, mid)]
        d.write(evs + [(EV_KEY, BTN_TOUCH, 1)])
        for k in range(8):
            time.sleep(0.012)
            d.write(sum(([(EV_ABS, ABS_MT_SLOT, s), (EV_ABS, ABS_MT_Y, clamp(mid - k * span // 8))] for s in range(slots)), []))
        d.write([(EV_ABS, ABS_MT_SLOT, 0), (EV_ABS, ABS_MT_X, lo)] * 50, syn=False)   # no SYN_REPORT
        time.sleep(0.05)
        d.write(sum(([(EV_ABS, ABS_MT_SLOT, s), (EV_ABS, ABS_MT_TRACKING_ID, -1)] for s in range(slots)), []) + [(EV_KEY, BTN_TOUCH, 0)])
        time.sleep(0.2)
        touch_drag(d, mid, mid, 0, -span, frames=6, tid=9, lift=False)   # removed with a finger down
        d.destroy()
        out[label] = "used"
        time.sleep(0.2)
    d = touchpad("hostile touchpad resolution 0", res=0)
    time.sleep(0.5)
    two_fingers(d); time.sleep(0.3); two_fingers(d, dy=MAX // 4, frames=10); time.sleep(0.3)
    d.destroy()
    print(json.dumps(out))

def flood(seconds, longest):
    # At least `seconds`, and on until the ping sent during it is answered (its .at file), for
    # at most `longest` seconds: a daemon that serves nobody while flooded answers after the end.
    d = mouse("hostile flood wheel")
    time.sleep(0.5)
    chunk = (EVENT.pack(0, 0, EV_REL, REL_WHEEL_HI_RES, 1) + EVENT.pack(0, 0, EV_SYN, 0, 0)) * 1024
    frames, t0 = 0, time.monotonic()
    open(RUN + "/flood-started", "w").write("%.6f\n" % t0)
    answered = RUN + "/flood-answered"
    while True:
        elapsed = time.monotonic() - t0
        if elapsed >= longest or (elapsed >= seconds and os.path.exists(answered)):
            break
        d.raw(chunk); frames += 1024
    t1 = time.monotonic()
    time.sleep(0.5)
    d.destroy()
    print(json.dumps({"frames": frames, "events": frames * 2, "seconds": round(t1 - t0, 3),
                      "frames_per_s": round(frames / (t1 - t0)), "start": t0, "end": t1}))

def churn(seconds):
    t0, n = time.monotonic(), 0
    while time.monotonic() - t0 < seconds:
        d = mouse("hostile churn %d" % n, wait=False)
        d.write([(EV_REL, REL_WHEEL, -1), (EV_REL, REL_WHEEL_HI_RES, -120)])
        d.destroy(); n += 1
    print(json.dumps({"devices": n, "seconds": round(time.monotonic() - t0, 3), "per_s": round(n / (time.monotonic() - t0), 1)}))

def many(count, hold):
    devs, t0 = [], time.monotonic()
    try:
        for i in range(count): devs.append(mouse("hostile many %d" % i, wait=False))
    except OSError as e:
        sys.stderr.write("stopped at %d: %s\n" % (len(devs), e))
    made = time.monotonic() - t0
    time.sleep(hold)
    for d in devs[::7]: d.write([(EV_REL, REL_WHEEL, -1), (EV_REL, REL_WHEEL_HI_RES, -120)])
    time.sleep(1)
    for d in devs: d.destroy()
    print(json.dumps({"devices": len(devs), "create_s": round(made, 2)}))

def gesture(rounds):
    for i in range(rounds):
        d = touchpad("hostile mid-gesture touchpad")
        time.sleep(0.3)
        two_fingers(d, frames=8, lift=False)
        d.destroy()
    print(json.dumps({"rounds": rounds}))

if __name__ == "__main__":
    cmd, args = sys.argv[1], [float(a) for a in sys.argv[2:]]
    {"names": lambda: names(*args), "extreme": extreme, "touch": touch, "flood": lambda: flood(*args),
     "churn": lambda: churn(*args), "many": lambda: many(int(args[0]), args[1]), "gesture": lambda: gesture(int(args[0]))}[cmd]()
PY

# --- clients: a bystander pinging, a watcher checking states, one-shot requests ---------------
cat >"$RUN/client.py" <<'PY'
import json, math, os, socket, sys, time
def connect(path):
    for _ in range(600):
        try:
            s = socket.socket(socket.AF_UNIX); s.connect(path); return s
        except OSError: time.sleep(0.1)
    raise SystemExit("no socket at " + path)
def lines(s):
    buf = b""
    while True:
        data = s.recv(65536)
        if not data: return
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line
def dump(path, value):
    with open(path + ".tmp", "w") as f: json.dump(value, f)
    os.replace(path + ".tmp", path)
def ping(path, out):
    # back to back; every ping's send time (CLOCK_MONOTONIC) and latency over 100 ms is kept
    s = connect(path); r = lines(s); next(r)
    n, worst, at, last, slow = 0, 0.0, 0.0, time.monotonic(), []
    while True:
        t = time.monotonic(); s.sendall(b'{"op":"ping","id":%d}\n' % n)
        for line in r:
            if b'"pong"' in line: break
        else: return
        dt = (time.monotonic() - t) * 1000; n += 1
        if dt > worst: worst, at = dt, t
        if dt > 100: slow.append([round(t, 3), round(dt, 1)])
        if time.monotonic() - last > 0.5 or dt > 100:
            last = time.monotonic(); dump(out, {"pings": n, "worst_ms": round(worst, 2), "worst_at": round(at, 3), "slow": slow[-200:]})
        time.sleep(0.001)
def watch(path, out, states_out, *containers):
    s = connect(path); r = lines(s); next(r)
    for i, c in enumerate(containers):
        s.sendall(json.dumps({"op": "subscribe", "container": c, "id": "w%d" % i}).encode() + b"\n")
    acc = {"lines": 0, "invalid": [], "nonfinite": 0}
    def walk(v):
        if isinstance(v, dict): [walk(x) for x in v.values()]
        elif isinstance(v, list): [walk(x) for x in v]
        elif isinstance(v, float) and not math.isfinite(v): acc["nonfinite"] += 1
    def bad(c): raise ValueError("not JSON: " + c)
    last = time.monotonic()
    with open(states_out, "wb") as f:
        for line in r:
            acc["lines"] += 1
            f.write(line + b"\n")
            try: walk(json.loads(line, parse_constant=bad))
            except Exception as e: acc["invalid"].append(repr(line[:200]))
            if time.monotonic() - last > 0.3: last = time.monotonic(); f.flush(); dump(out, acc)
    dump(out, acc)
def request(path, out, line, marker=None, delay="0"):
    # one request; its reply line (the first with its id) written raw, and the monotonic times
    # it was sent and answered. With MARKER: connected and welcomed first, then sent DELAY
    # seconds after the file MARKER appears (so that nothing the process does while the daemon
    # is busy, such as starting Python, stands between the send and the answer)
    s = connect(path); r = lines(s); next(r)
    if marker:
        while not os.path.exists(marker): time.sleep(0.05)
        time.sleep(float(delay))
    sent = time.monotonic()
    s.sendall(line.encode() + b"\n")
    for reply in r:
        if b'"id":"q"' in reply:
            open(out, "wb").write(reply + b"\n")
            open(out + ".at", "w").write("%.6f %.6f\n" % (sent, time.monotonic()))
            return
if __name__ == "__main__":
    {"ping": ping, "watch": watch, "request": request}[sys.argv[1]](*sys.argv[2:])
PY

H="$PY $RUN/hostile.py"
C="$PY $RUN/client.py"
daemon_fds() { find "/proc/$DAEMON_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }
rss() { awk '/VmRSS/{print $2}' "/proc/$DAEMON_PID/status"; }
hwm() { awk '/VmHWM/{print $2}' "/proc/$DAEMON_PID/status"; }
ask() {  # ask NAME OP [MARKER DELAY]: one request with id "q", reply in NAME.json (request above)
  rm -f "$W/$1.json" "$W/$1.json.at"
  timeout 600 $C request "$SOCK" "$W/$1.json" "{\"op\":\"$2\",\"id\":\"q\"}" "${@:3}"
}

# --- the daemon -------------------------------------------------------------------------------
cat >"$W/daemon.toml" <<'TOML'
# natural scrolling for every device: a touchscreen cannot take it, so the daemon names it
[input]
natural_scrolling = true

[containers.side]
axes = "both"
containerSize = "400x600"
contentSize = "4000x6000"
touch_frame = { x = 0, y = 0, width = 1, height = 1 }
TOML
"$SCROLLD" run --socket "$SOCK" --config "$W/daemon.toml" --record "$W/daemon.scrolllog" 2>"$W/daemon.log" &
DAEMON_PID=$!
e2e_wait_for "$W/daemon.log" "no usable input device|reading [0-9]+ input device" 90 || fatal "scrolld run started"
$C ping "$SOCK" "$W/ping.json" 2>"$W/ping.err" &
PING_PID=$!
$C watch "$SOCK" "$W/watch.json" "$W/live.jsonl" main side 2>"$W/watch.err" &
WATCH_PID=$!
e2e_wait_for "$W/ping.json" '"pings"' 60 || fatal "the bystander pings"
( while kill -0 "$DAEMON_PID" 2>/dev/null; do echo "$(e2e_uptime) $(rss) $(daemon_fds)"; sleep 0.5; done ) >"$W/rss.txt" 2>/dev/null &
BASE_FDS=$(daemon_fds)
figure "daemon at start: VmRSS $(rss) kB, $BASE_FDS descriptors"

bystander() {  # bystander [SINCE]: the pings so far, the worst since SINCE (uptime, s) and when
  $PY - "$W/ping.json" "${1:-0}" <<'SUM'
import json, sys
p, since = json.load(open(sys.argv[1])), float(sys.argv[2])
slow = [s for s in p["slow"] if s[0] >= since]
worst = max(slow, key=lambda s: s[1]) if slow else None
print("%d pings, worst %.1f ms at %.1f s; since %.1f s: %d over 100 ms%s" % (p["pings"], p["worst_ms"], p["worst_at"], since,
      len(slow), ", the worst %.1f ms at %.1f s" % (worst[1], worst[0]) if worst else ""))
SUM
}

step() {  # step NAME COMMAND...: a `scrolld record` of its own around COMMAND
  local name=$1; shift
  local since; since=$(e2e_uptime)
  e2e_log "=== $name"
  echo "$(e2e_uptime) $name start" >>"$W/steps.txt"
  "$SCROLLD" record "$W/rec-$name.scrolllog" 2>"$W/rec-$name.log" &
  local rec=$!
  e2e_wait_for "$W/rec-$name.scrolllog" '"format":"scrolld-events"' 60 || fatal "scrolld record started for $name"
  "$@"
  sleep 1
  kill -INT "$rec"; wait "$rec"; local status=$?
  echo "$(e2e_uptime) $name end" >>"$W/steps.txt"
  e2e_check "$name: scrolld record exits 0 on SIGINT (got $status)" [ "$status" = 0 ]
  "$SCROLLD" replay "$W/rec-$name.scrolllog" >"$W/replay-$name.jsonl" 2>"$W/replay-$name.err"; status=$?
  "$SCROLLD" replay "$W/rec-$name.scrolllog" >"$W/replay-$name.again.jsonl" 2>/dev/null
  e2e_check "$name: scrolld replay of its recording exits 0 ($status: $(head -c 300 "$W/replay-$name.err"))" [ "$status" = 0 ]
  e2e_check "$name: the replay is the same twice, byte for byte" cmp -s "$W/replay-$name.jsonl" "$W/replay-$name.again.jsonl"
  e2e_check "$name: the daemon still answers" ask "after-$name" ping
  figure "$name: bystander $(bystander "$since"); daemon VmHWM $(hwm) kB"
}

names_step() {
  rm -f "$RUN/names-ready" "$RUN/names-go" "$RUN/names-done"
  $H names 600 2>"$W/hostile-names.err" &
  local pid=$!
  until [ -e "$RUN/names-ready" ]; do sleep 0.2; done
  # the clicks and libinput's "kernel bug" once the daemon has all seven devices open
  local deadline=$((SECONDS + 300))  # a hang only
  until ask devices devices && [ "$(grep -o '"caps"' "$W/devices.json" | wc -l)" -ge 7 ]; do
    [ "$SECONDS" -lt "$deadline" ] || { e2e_log "the daemon did not list the seven named devices"; break; }
    sleep 0.5
  done
  touch "$RUN/names-go"
  sleep 2
  "$SCROLLD" devices >"$W/scrolld-devices.out" 2>&1
  "$BIN_DIR/scrollctl" --socket "$SOCK" devices >"$W/scrollctl-devices.out" 2>&1
  touch "$RUN/names-done"
  wait "$pid"
}
step names names_step
step extreme $H extreme
step touch sh -c "$H touch >'$W/touch.json' 2>'$W/hostile-touch.err'"
step gesture sh -c "$H gesture 10 >'$W/gesture.json' 2>'$W/hostile-gesture.err'"

flood_step() {
  rm -f "$RUN/flood-started"
  local before; before=$(rss)
  # connected and welcomed before the flood; its ping goes 3 s into it
  ask during-flood ping "$RUN/flood-started" 3 &
  local asker=$!
  sleep 2
  ( wait_for_answer() { until [ -s "$W/during-flood.json.at" ]; do sleep 0.2; done; }
    wait_for_answer; touch "$RUN/flood-answered" ) &
  local answer=$!
  $H flood 20 300 >"$W/flood.json" 2>"$W/hostile-flood.err"
  wait "$asker"; kill "$answer" 2>/dev/null; wait "$answer" 2>/dev/null
  rm -f "$RUN/flood-answered"
  figure "flood: $(cat "$W/flood.json"); the ping sent and answered at $(cat "$W/during-flood.json.at" 2>/dev/null); VmRSS before $before kB, VmHWM $(hwm) kB"
}
step flood flood_step
step churn sh -c "$H churn 30 >'$W/churn.json' 2>'$W/hostile-churn.err'"
step many sh -c "$H many 1000 5 >'$W/many.json' 2>'$W/hostile-many.err'"

sleep 2
ask final-devices devices
END_FDS=$(daemon_fds)
figure "after every step: $END_FDS descriptors (at start $BASE_FDS), VmRSS $(rss) kB, VmHWM $(hwm) kB; churn $(cat "$W/churn.json"); many $(cat "$W/many.json"); touch $(cat "$W/touch.json")"
figure "bystander over the whole run: $(bystander)"
kill -TERM "$DAEMON_PID"; wait "$DAEMON_PID"; DAEMON_STATUS=$?
sleep 0.5
kill "$PING_PID" "$WATCH_PID" 2>/dev/null; wait "$PING_PID" "$WATCH_PID" 2>/dev/null
cp "$W/watch.json" "$W/watch-final.json"

# --- checks -----------------------------------------------------------------------------------
e2e_check "the daemon exits 0 on SIGTERM (got $DAEMON_STATUS)" [ "$DAEMON_STATUS" = 0 ]
one_entry_per_line() {  # FILE: every line is one entry, no escape, no carriage return, no forged line
  local bad
  bad=$(grep -anvE '^(scrolld: |libinput (error|info|debug): )' "$1" | head -5)
  [ -z "$bad" ] || { echo "  lines that are no entry of their own in $1:"; echo "$bad" | cat -A | sed 's/^/    /'; return 1; }
  if grep -aq $'\x1b\|\r' "$1"; then echo "  an escape or a carriage return in $1"; grep -an $'\x1b\|\r' "$1" | head -3 | cat -A; return 1; fi
  ! grep -aqE '^(scrolld|libinput): forged' "$1"
}
e2e_check "the daemon's log is one entry per line, with no escape, carriage return or forged line" one_entry_per_line "$W/daemon.log"
for f in "$W"/rec-*.log; do
  e2e_check "$(basename "$f"): one entry per line, no escape, no forged line" one_entry_per_line "$f"
done
printable_listing() {  # FILE: no escape sequence, no carriage return, the forged name quoted escaped
  if grep -aq $'\x1b\|\r' "$1"; then echo "  an escape or a carriage return in $1"; grep -an $'\x1b\|\r' "$1" | head -3 | cat -A; return 1; fi
  grep -aqF '"evil\nscrolld: forged' "$1"
}
e2e_check "scrolld devices lists the names escaped (no escape sequence, no carriage return)" printable_listing "$W/scrolld-devices.out"
e2e_check "scrollctl devices lists the names escaped (no escape sequence, no carriage return)" printable_listing "$W/scrollctl-devices.out"
e2e_check "the daemon named the touchscreen it could not give natural scrolling, escaped" \
  grep -aqF 'scrolld: warning: "glass\nscrolld: forged by a touchscreen": natural_scrolling is not configurable on it' "$W/daemon.log"
# libinput shows a name's control characters as "?" itself; its own message about the hi-res
# mouse has a line of its own ("See https://…"), which its default handler wrote as a second line.
e2e_check "libinput's own error about the hi-res mouse that sends low-res events only is one line" \
  grep -aqE '^libinput error: .*hires.*kernel bug: device supports high-resolution scroll.*\\nSee https://' "$W/daemon.log"
valid_devices_reply() {
  $PY - "$W/devices.json" <<'CHECK'
import json, sys
reply = json.loads(open(sys.argv[1], "rb").read().decode("utf-8"), parse_constant=lambda c: 1 / 0)
names = [d["name"] for d in reply["devices"]]
assert any(n.startswith("evil\nscrolld: forged") for n in names), names
assert "A" * 80 in names, names
assert any("\ufffd" in n for n in names), names
CHECK
}
e2e_check "the devices reply is one valid JSON line with the names as the kernel gave them (not UTF-8: U+FFFD)" valid_devices_reply
e2e_check "every state the watcher received is valid JSON with finite numbers ($(cat "$W/watch-final.json" | head -c 300))" \
  $PY -c "import json,sys; a=json.load(open(sys.argv[1])); sys.exit(0 if a['lines'] > 0 and not a['invalid'] and a['nonfinite'] == 0 else 1)" "$W/watch-final.json"
"$SCROLLD" replay "$W/daemon.scrolllog" --container side >"$W/replay-daemon-side.jsonl" 2>"$W/replay-daemon.err"
status=$?
e2e_check "the daemon's own recording replays (exit $status: $(head -c 300 "$W/replay-daemon.err"))" [ "$status" = 0 ]
live_is_replay() {
  $PY - "$W/live.jsonl" "$W/replay-daemon-side.jsonl" <<'CHECK'
import json, sys
live = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
# the first is the reply to subscribe (it carries the id): the state at subscription, no replay's
live = [s for s in live if s.get("type") == "state" and s.get("container") == "side" and "id" not in s]
replay = {s["seq"]: s for s in (json.loads(l) for l in open(sys.argv[2]) if l.strip())}
keys = ("t", "phase", "contentOffset", "velocity")
bad = [s["seq"] for s in live if s["seq"] not in replay or any(s.get(k) != replay[s["seq"]].get(k) for k in keys)]
print("  side: %d live states, %d replayed, %d differ %s" % (len(live), len(replay), len(bad), bad[:5]))
sys.exit(0 if live and not bad else 1)
CHECK
}
e2e_check "every state the watcher got for side is the replay's of the same seq" live_is_replay
ping_within_flood() {
  read -r sent answered <"$W/during-flood.json.at" || return 1
  $PY -c "
import json, sys
f, sent, answered = json.load(open(sys.argv[1])), float(sys.argv[2]), float(sys.argv[3])
print('  flood %.3f to %.3f; ping sent at %.3f, answered at %.3f' % (f['start'], f['end'], sent, answered))
sys.exit(0 if f['start'] <= sent and answered < f['end'] else 1)" "$W/flood.json" "$sent" "$answered"
}
e2e_check "a ping sent 3 s into the flood (by a client connected before it) is answered while it floods (the flood goes on until the answer, 300 s at most)" ping_within_flood
e2e_check "after the churn and the thousand devices the daemon lists no device ($(head -c 200 "$W/final-devices.json"))" \
  grep -q '"devices":\[\]' "$W/final-devices.json"
e2e_check "after every step the daemon holds no more descriptors than at start ($END_FDS, at start $BASE_FDS)" [ "$END_FDS" -le "$BASE_FDS" ]
e2e_checks_done
