"""examples/appbars_demo.py in a real window (Xvfb), against a daemon fed by a replay log: a
touchpad pull past the top starts a refresh and the window shows the indicator in the gap the
state says; `end_refresh` takes it away; far down the feed, a scroll back brings the app bar back
by as much, and the section header being pushed off is on screen exactly where `stickyRow` says
(docs/design.md §21). Screenshots are measured in pixels and compared with the daemon's state.

Needs Xvfb, xwd and pygame: `make test-python-deps` installs them. With SCROLLD_SCREENSHOTS=DIR
the two screenshots are kept as the PNGs in docs/images."""
import json
import os
import queue
import subprocess
import sys
import threading

import scrolld
from daemon import DEADLINE, REPO, Daemon, wait_for, write_log
from screenshot import grab, run_length
from test_kiosk_demo import display, keep, require  # noqa: F401  (the Xvfb fixture)

DEMO = os.path.join(REPO, "examples", "appbars_demo.py")
sys.path.insert(0, os.path.join(REPO, "examples"))
WIDTH, HEIGHT, BAR_MIN, BAR_MAX = 480, 640, 56, 120
SECTION_H, ITEM_H, ITEMS = 40, 56, 8
BAR_BLUE, INDICATOR, STRIPE_X = (32, 96, 200), (255, 196, 40), 4
SECTION_LENGTH = SECTION_H + ITEMS * ITEM_H  # 488
HEIGHTS = ", ".join(str(h) for h in ([SECTION_H] + [ITEM_H] * ITEMS) * 12)
STICKY = ", ".join(str(k * (ITEMS + 1)) for k in range(12))
CONFIG = f"""[containers.feed]
containerSize = "480x640"
header = {{ min_height = {BAR_MIN}, max_height = {BAR_MAX}, mode = "enterAlways" }}
rows = {{ heights = [{HEIGHTS}], sticky = [{STICKY}] }}
refresh = {{ threshold = 90, height = 64 }}
"""
# A touchpad pull: 10 × 30 px down past the top (raw 300, shown −b(300) = −131.2 beyond the
# 90 px threshold), then the fingers rest 200 ms and lift: released at rest, a refresh.
LOG = [{"t": 1_000_000, "dev": 2, "type": "device_added", "name": "Touchpad", "caps": ["finger"]}] + [
    {"t": 2_000_000 + k * 10_000, "dev": 2, "type": "finger", "delta": {"y": -30}} for k in range(10)
] + [{"t": 2_300_000, "dev": 2, "type": "finger", "delta": {"y": 0}}]


class Demo:
    """The demo process; its --report lines (one per idle state drawn) arrive on a queue."""

    def __init__(self, display, socket_path, directory):
        env = dict(os.environ, DISPLAY=display, SDL_VIDEO_WINDOW_POS="0,0")
        self.stderr_path = os.path.join(directory, "demo.stderr")
        self.process = subprocess.Popen(
            [sys.executable, DEMO, "--socket", socket_path, "--report", "--refresh-seconds", "3600"],
            env=env, stdout=subprocess.PIPE, stderr=open(self.stderr_path, "wb"))
        self.reports = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.reports.put(json.loads(line))
        self.reports.put(None)

    def drew(self, seq):
        """Waits until the demo reports it drew state `seq` or a later one; the latest report."""
        while True:
            try:
                report = self.reports.get(timeout=DEADLINE)
            except queue.Empty:
                raise AssertionError(f"the demo did not draw state {seq} within {DEADLINE} s")
            if report is None:
                with open(self.stderr_path) as f:
                    raise AssertionError(f"the demo exited ({self.process.poll()}): {f.read()}")
            if report["seq"] >= seq:
                while not self.reports.empty():
                    later = self.reports.get_nowait()
                    if later is not None:
                        report = later
                return report

    def stop(self):
        self.process.terminate()
        self.process.wait(DEADLINE)


def shown(client, demo, condition, what):
    """The daemon's state at rest once the demo has drawn it (and nothing newer came since)."""
    while True:
        def settled():
            state = client.get("feed")
            return state if state.phase == "idle" and condition(state) else None
        state = wait_for(settled, what)
        report = demo.drew(state.seq)
        current = client.get("feed")
        if report["seq"] == current.seq and condition(current):
            return current


def row_at(image, y):
    r, g, b = image.pixel(STRIPE_X, y)
    assert b == 200, f"no row stripe at y={y}: {(r, g, b)}"
    return r + 256 * g


def test_appbars_demo_shows_refresh_quick_return_and_push_off(tmp_path, display):
    require("xwd")
    config = tmp_path / "feed.toml"
    config.write_text(CONFIG)
    log = write_log(tmp_path / "pull.scrolllog", LOG, source="a pull past the top")
    daemon = Daemon(tmp_path, replay=log, config=str(config))
    daemon.start()
    demo = Demo(display, daemon.socket, str(tmp_path))
    try:
        with scrolld.Client(daemon.socket, timeout=DEADLINE) as client:
            # The pull started a refresh: at rest at lo − r = −64, the indicator fills the 64 px
            # between the content's top (the whole bar, 120) and row 0.
            state = shown(client, demo, lambda s: s.refreshing and s.content_offset.y == -64,
                          "the pull to rest refreshing at y = -64")
            image = grab(display)
            assert run_length(image, WIDTH - 40, 0, BAR_BLUE) == BAR_MAX == state.header.height
            assert run_length(image, WIDTH // 2, BAR_MAX, INDICATOR) == 64
            assert row_at(image, BAR_MAX + 64) == 0
            assert state.sticky_row is None  # the pin line (−64 + 120) lies above row 0 (120)
            keep(image, "appbars-demo-refreshing.png")

            # The app ends it: back to lo with the bounce spring, no indicator.
            client.end_refresh("feed")
            state = shown(client, demo, lambda s: not s.refreshing and s.content_offset.y == 0, "the end of the refresh")
            image = grab(display)
            assert image.pixel(WIDTH // 2, BAR_MAX) != INDICATOR
            assert row_at(image, BAR_MAX) == 0 and state.sticky_row == (0, BAR_MAX)

            # Far down, collapsed; a scroll back by 30 brings the bar back by 30 (56 → 86). The pin
            # line y + 86 = 1564 lies within 40 px of section 3's top (120 + 3 × 488 = 1584):
            # section 2's header (row 18) is pushed off, drawn at 1584 − 40 = 1544, on screen
            # 1544 − 1478 = 66, under the bar down to 86 and visible from 86 to 106, where
            # section 3's header (row 27) begins.
            client.scroll_to("feed", y=1508, animation="none")
            client.scroll_by("feed", dy=-30, animation="none")
            state = shown(client, demo, lambda s: s.content_offset.y == 1478, "y = 1478")
            assert state.header.height == 86 and state.sticky_row == (18, 1544)
            image = grab(display)
            assert run_length(image, WIDTH - 40, 0, BAR_BLUE) == 86
            top = round(state.sticky_row.top - state.content_offset.y)
            assert top == 66
            assert row_at(image, 86) == 18
            assert run_length(image, STRIPE_X, 86, image.pixel(STRIPE_X, 86)) == top + SECTION_H - 86
            assert row_at(image, top + SECTION_H) == 27
            keep(image, "appbars-demo-pushed-off.png")
    finally:
        demo.stop()
        daemon.stop()
