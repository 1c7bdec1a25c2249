"""examples/kiosk_demo.py in a real window (Xvfb), against a daemon fed by a replay log: each
screenshot, taken of the X display once the demo reports it drew the daemon's current state, is
measured in pixels — the header's height, the first visible row and where it ends — and
compared with that state, which is itself compared with `scrolld replay --at` for the same
time. Then the keys scroll by rows (docs/design.md §12's formula gives the exact rest), and End
loads more rows through `observe nearEnd` and a row insert.

Needs Xvfb, xwd, xdotool and pygame: `make test-python-deps` installs them."""
import json
import os
import queue
import shutil
import subprocess
import sys
import threading

import pytest

import scrolld
from daemon import DEADLINE, REPO, Daemon, scrolld_bin, wait_for, write_log
from screenshot import grab, run_length, xvfb

DEMO = os.path.join(REPO, "examples", "kiosk_demo.py")
WIDTH, HEIGHT, HEADER_MIN, HEADER_MAX, ROW, ROWS = 480, 640, 60, 160, 56, 500
HEADER_BLUE = (32, 96, 200)
THUMB, SCROLLBAR = (120, 120, 130), 8
STRIPE_X = 4
CONFIG = """[containers.kiosk]
containerSize = "480x640"
[containers.kiosk.header]
min_height = 60
max_height = 160
[containers.kiosk.rows]
count = 500
height = 56
"""
# Five wheel notches down, 50 ms apart, a second after the wheel appears; at rest by t = 3 s.
LOG = [{"t": 1_000_000, "dev": 1, "type": "device_added", "name": "Kiosk Wheel", "caps": ["wheel"]}] + [
    {"t": 2_000_000 + k * 50_000, "dev": 1, "type": "wheel", "v120": {"y": 120}, "deg": {"y": 15}}
    for k in range(5)
]
AT_REST = 4.0  # seconds after the log's first event


def require(tool):
    path = shutil.which(tool)
    assert path, f"{tool} is missing: `make test-python-deps` installs it"
    return path


@pytest.fixture
def display(tmp_path):
    require("Xvfb")
    with xvfb(tmp_path, WIDTH, HEIGHT) as name:
        yield name


class Demo:
    """The demo process; its --report lines (one per idle state drawn) arrive on a queue."""

    def __init__(self, display, socket_path, directory, extra=()):
        env = dict(os.environ, DISPLAY=display, SDL_VIDEO_WINDOW_POS="0,0")
        self.stderr_path = os.path.join(directory, "demo.stderr")
        self.process = subprocess.Popen([sys.executable, DEMO, "--socket", socket_path, "--report", *extra], env=env,
                                        stdout=subprocess.PIPE, stderr=open(self.stderr_path, "wb"))
        self.reports = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.reports.put(json.loads(line))
        self.reports.put(None)

    def drew(self, seq):
        """Waits until the demo reports it drew state `seq` or a later one; the latest report."""
        seen = []
        while True:
            try:
                report = self.reports.get(timeout=DEADLINE)
            except queue.Empty:
                raise AssertionError(f"the demo did not draw state {seq} or a later one within {DEADLINE} s; "
                                     f"it drew, at rest: {seen}")
            if report is None:
                with open(self.stderr_path) as f:
                    raise AssertionError(f"the demo exited ({self.process.poll()}): {f.read()}")
            seen.append(report)
            if report["seq"] >= seq:
                while not self.reports.empty():
                    later = self.reports.get_nowait()
                    if later is not None:
                        report = later
                return report

    def key(self, display, name):
        subprocess.run([require("xdotool"), "key", name], env=dict(os.environ, DISPLAY=display),
                       check=True, timeout=DEADLINE)

    def stop(self):
        self.process.terminate()
        self.process.wait(DEADLINE)


def replayed_state(log, at):
    """The state `scrolld replay` computes for that time: what the daemon publishes."""
    out = subprocess.run([scrolld_bin(), "replay", log, "--container", "kiosk", "--container-size", "480x640",
                          "--header", "60:160", "--rows", "500x56", "--at", str(at)],
                         check=True, stdout=subprocess.PIPE, timeout=DEADLINE).stdout
    return scrolld.State.from_message(json.loads(out.decode().splitlines()[-1]))


def settled(client, condition, what):
    """The daemon's state once idle and `condition` holds."""
    def check():
        state = client.get("kiosk")
        return state if state.phase == "idle" and condition(state) else None
    return wait_for(check, what)


def shown(client, demo, condition, what):
    """The daemon's state at rest, once the demo has drawn it: the daemon may publish again
    with the same values (a wheel going idle, a demo's late configure), so the demo's latest
    drawn state must be the daemon's current one — then the window shows it and goes on
    showing it, for nothing moves."""
    while True:
        state = settled(client, condition, what)
        report = demo.drew(state.seq)
        current = client.get("kiosk")
        if report["seq"] == current.seq and condition(current):
            return current


def measure(image):
    """What the screenshot shows: the header's height, the first row below it (read from its
    stripe's colour) and that row's bottom edge on screen."""
    header = run_length(image, WIDTH - 40, 0, HEADER_BLUE)
    r, g, b = image.pixel(STRIPE_X, header)
    assert b == 200, f"no row stripe below the header at y={header}: {(r, g, b)}"
    row = r + 256 * g
    bottom = header + run_length(image, STRIPE_X, header, (r, g, b))
    return header, row, bottom


def check_screenshot(image, state):
    header, row, bottom = measure(image)
    y = state.content_offset.y
    assert header == round(state.header.height)
    # The first row whose bottom passes the header: HEADER_MAX + ROW (i + 1) - y > header.
    expected_row = int((state.header.height + y - HEADER_MAX) // ROW)
    assert row == expected_row
    assert bottom == round(HEADER_MAX + ROW * row - y) + ROW
    return header, row, bottom


def check_scrollbar(image, state):
    """The thumb where the state's indicator says (docs/design.md §22): it runs along the area under
    the header, and the daemon's offset and length are the formulas'."""
    x = WIDTH - SCROLLBAR // 2
    column = [image.pixel(x, y) == THUMB for y in range(HEIGHT)]
    assert any(column), "no scrollbar thumb"
    top = column.index(True)
    length = sum(column)
    indicator = state.indicators.y
    # Within 2 px: the thumb's rounded corners take a pixel or two off its ends.
    assert abs(top - (state.header.height + indicator.offset)) <= 2
    assert abs(length - indicator.length) <= 2
    track = HEIGHT - state.header.height
    thumb = max(24, track * state.container_size.height / state.content_size.height)
    fraction = state.content_offset.y / (state.content_size.height - state.container_size.height)
    assert indicator.length == pytest.approx(thumb, abs=1e-9)
    assert indicator.offset == pytest.approx((track - thumb) * fraction, abs=1e-9)


def keep(image, name):
    """SCROLLD_SCREENSHOTS=DIR keeps the screenshots as PNG (docs/images has two)."""
    directory = os.environ.get("SCROLLD_SCREENSHOTS")
    if not directory:
        return
    import pygame
    surface = pygame.image.frombuffer(image.rgb_bytes(), (image.width, image.height), "RGB")
    pygame.image.save(surface, os.path.join(directory, name))


def test_kiosk_demo_draws_the_published_states(tmp_path, display):
    require("xwd")
    config = tmp_path / "kiosk.toml"
    config.write_text(CONFIG)
    log = write_log(tmp_path / "kiosk.scrolllog", LOG, source="five wheel notches")
    expected = replayed_state(log, AT_REST)
    assert expected.phase == "idle" and expected.header.height == HEADER_MIN

    daemon = Daemon(tmp_path, replay=log, config=str(config))
    daemon.start()
    demo = Demo(display, daemon.socket, str(tmp_path))
    try:
        with scrolld.Client(daemon.socket, timeout=DEADLINE) as client:
            # The log's rest: the live daemon's state is the replayed one, and the window shows it.
            state = shown(client, demo, lambda s: s.content_offset.y == expected.content_offset.y,
                          f"the daemon to rest at y = {expected.content_offset.y}")
            assert (state.content_offset, state.header, state.visible_rows) == \
                (expected.content_offset, expected.header, expected.visible_rows)
            image = grab(display)
            header, row, bottom = check_screenshot(image, state)
            assert (header, row) == (60, 4)  # row 4 is partly under the collapsed header
            check_scrollbar(image, state)
            keep(image, "kiosk-demo-scrolled.png")

            # Down: the next row to the top of the usable area, docs/design.md §12 with anchor top:
            # y* = r_N - m = HEADER_MAX + ROW N - HEADER_MIN, exactly, when the spring settles.
            demo.key(display, "Down")
            target = HEADER_MAX + ROW * (row + 1) - HEADER_MIN
            state = shown(client, demo, lambda s: s.content_offset.y == target, f"Down to rest at y = {target}")
            header, row_after, bottom = check_screenshot(grab(display), state)
            assert row_after == row + 1 and bottom == HEADER_MIN + ROW  # whole, right under the header

            # End: to the last row; near the end the demo loads 100 more rows (observe nearEnd,
            # a row insert), and the list grows under a still view (scroll anchoring).
            demo.key(display, "End")
            state = shown(client, demo, lambda s: s.content_size.height == HEADER_MAX + (ROWS + 100) * ROW,
                          "100 more rows loaded")
            image = grab(display)
            check_screenshot(image, state)
            last = image.pixel(STRIPE_X, HEIGHT - 1)
            assert last[0] + 256 * last[1] == int((HEIGHT - 1 + state.content_offset.y - HEADER_MAX) // ROW)
            assert last[0] + 256 * last[1] >= ROWS - 1
            check_scrollbar(image, state)

            # Back to the top: the header expanded again, row 0 right under it.
            client.scroll_to("kiosk", edge="top", animation="none")
            state = shown(client, demo, lambda s: s.content_offset.y == 0, "the top")
            image = grab(display)
            assert check_screenshot(image, state) == (HEADER_MAX, 0, HEADER_MAX + ROW)
            check_scrollbar(image, state)
            keep(image, "kiosk-demo.png")
    finally:
        demo.stop()
        daemon.stop()


# A finger on the glass (docs/design.md §25), looped: down at (0.5, 0.8) a second after the
# touchscreen appears, up the glass to y 0.4 in 20 motions 16 ms apart, still for 0.3 s (longer
# than the 0.15 s velocity window: no fling), lifted. The demo's touch_frame is the whole glass,
# so s = 640 px per unit: each whole finger moves the list by 640 · 0.4 − 8 (the slop) px.
TOUCH_START, TOUCH_END, TOUCH_MOTIONS = 0.8, 0.4, 20
TOUCH_LOG = (
    [{"t": 0, "dev": 1, "type": "device_added", "name": "Kiosk Glass", "caps": ["touch"]},
     {"t": 1_000_000, "dev": 1, "type": "touch_down", "slot": 0, "x": 0.5, "y": TOUCH_START}]
    + [{"t": 1_000_000 + k * 16_000, "dev": 1, "type": "touch_motion", "slot": 0, "x": 0.5,
        "y": TOUCH_START + (TOUCH_END - TOUCH_START) * k / TOUCH_MOTIONS} for k in range(1, TOUCH_MOTIONS + 1)]
    + [{"t": 1_000_000 + TOUCH_MOTIONS * 16_000 + 300_000, "dev": 1, "type": "touch_up", "slot": 0}]
)


def touch_rests(passes):
    """Where the list rests after 1, 2, ... whole fingers: each adds docs/design.md §25's
    displacement −s·(P − P₀) + slop·u at its last motion, to the offset at its down (the model's
    order of operations, so the values are exact)."""
    moved = HEIGHT * (TOUCH_END - TOUCH_START)  # s_y (P - P0), the frame 1 unit high
    u = moved / abs(moved)
    step = -moved + 8 * u
    rests, y = [], 0.0
    for _ in range(passes):
        y = y + step
        rests.append(y)
    return rests


def test_kiosk_demo_scrolls_by_touch(tmp_path, display):
    """The demo's touch_frame in use: a recorded finger on the glass, replayed by the daemon,
    moves the list by exactly §25's displacement, and the window shows the daemon's state."""
    require("xwd")
    config = tmp_path / "kiosk.toml"
    config.write_text(CONFIG)  # no touch_frame: the demo's configure gives it
    log = write_log(tmp_path / "touch.scrolllog", TOUCH_LOG, source="a finger up the glass")
    rests = touch_rests(40)
    daemon = Daemon(tmp_path, replay=log, config=str(config), extra=("--loop",))
    daemon.start()
    demo = Demo(display, daemon.socket, str(tmp_path))
    try:
        with scrolld.Client(daemon.socket, timeout=DEADLINE) as client:
            # At rest after a whole finger or more (a finger already down when the demo
            # configured its frame lands on nothing); the loop goes on, so the screenshot counts
            # only if the daemon's state did not change while it was taken.
            while True:
                state = shown(client, demo, lambda s: s.content_offset.y in rests[:-1],
                              f"the list to rest after whole fingers, at one of {rests[:3]}...")
                image = grab(display)
                if client.get("kiosk").seq == state.seq:
                    break
            header, row, bottom = check_screenshot(image, state)
            assert header == HEADER_MIN and row >= 2  # 248 px or more: the header collapsed
            check_scrollbar(image, state)
            keep(image, "kiosk-demo-touch.png")
    finally:
        demo.stop()
        daemon.stop()
