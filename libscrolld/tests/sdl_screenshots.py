#!/usr/bin/env python3
"""examples/sdl_demo.c (libscrolld in an SDL2 window) under Xvfb against a real daemon: each
screenshot (`xwd -root`) is measured in pixels — the header's height, the first row below it
(read from its stripe's colour) and where that row ends — against the state the daemon
published, as the Python kiosk demo's test does (clients/python/tests/test_kiosk_demo.py).

usage: sdl_screenshots.py SDL_DEMO   ($SCROLLD_BIN: the daemon). Waits have deadlines that only
catch a hang; nothing is judged by time."""
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "clients", "python"))
sys.path.insert(0, os.path.join(REPO, "clients", "python", "tests"))

import scrolld  # noqa: E402
from daemon import Daemon, QUIET_LOG, write_log, wait_for  # noqa: E402
from screenshot import grab, run_length  # noqa: E402

DEADLINE = 60
WIDTH, HEIGHT, HEADER_MIN, HEADER_MAX, ROW, STRIPE_X = 480, 640, 60, 160, 56, 8
HEADER_BLUE = (33, 99, 196)


def require(tool):
    path = shutil.which(tool)
    assert path, f"{tool} is missing: `make test-c` installs it (apt: xvfb x11-apps xdotool)"
    return path


class Xvfb:
    def __init__(self, directory):
        read, write = os.pipe()
        self.process = subprocess.Popen([require("Xvfb"), "-displayfd", str(write), "-screen", "0",
                                         f"{WIDTH}x{HEIGHT}x24", "-nolisten", "tcp"],
                                        pass_fds=(write,), stderr=open(os.path.join(directory, "xvfb.log"), "wb"))
        os.close(write)
        with os.fdopen(read) as f:
            number = f.readline().strip()
        assert number, "Xvfb did not start"
        self.display = f":{number}"

    def stop(self):
        self.process.terminate()
        self.process.wait(DEADLINE)


class Demo:
    """The demo; its --report lines (one per idle state drawn) arrive on a queue."""

    def __init__(self, binary, display, socket_path, directory):
        env = dict(os.environ, DISPLAY=display, SDL_VIDEODRIVER="x11")
        self.stderr_path = os.path.join(directory, "demo.stderr")
        self.process = subprocess.Popen([binary, "--socket", socket_path, "--report"], env=env,
                                        stdout=subprocess.PIPE, stderr=open(self.stderr_path, "wb"))
        self.reports = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.reports.put(json.loads(line))
        self.reports.put(None)

    def drew(self, seq):
        """Waits until the demo drew state `seq` or a later one at rest; the latest report."""
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
    """The daemon's state at rest once the demo's latest drawn state is the daemon's current one."""
    while True:
        state = wait_for(lambda: (lambda s: s if s.phase == "idle" and condition(s) else None)(client.get("kiosk")), what)
        report = demo.drew(state.seq)
        current = client.get("kiosk")
        if report["seq"] == current.seq and condition(current):
            return current


def measure(image):
    header = run_length(image, WIDTH - 40, 0, HEADER_BLUE)
    r, g, b = image.pixel(STRIPE_X, header)
    assert b == 200, f"no row stripe below the header at y={header}: {(r, g, b)}"
    row = r + 256 * g
    bottom = header + run_length(image, STRIPE_X, header, (r, g, b))
    return header, row, bottom


def check(image, state):
    """The screenshot against the state (docs/protocol.md, "Drawing a state")."""
    header, row, bottom = measure(image)
    y = state.content_offset.y
    assert header == round(state.header.height), (header, state.header)
    expected_row = int((state.header.height + y - HEADER_MAX) // ROW)
    assert row == expected_row, (row, expected_row, y)
    assert bottom == round(HEADER_MAX + ROW * row - y) + ROW, (bottom, y)
    return header, row, bottom


def keep(image, name):
    """SCROLLD_SCREENSHOTS=DIR keeps the screenshots as PNG (docs/images has two)."""
    directory = os.environ.get("SCROLLD_SCREENSHOTS")
    if not directory:
        return
    import struct
    import zlib
    rgb = image.rgb_bytes()
    stride = 3 * image.width
    raw = b"".join(b"\0" + rgb[y * stride:(y + 1) * stride] for y in range(image.height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", image.width, image.height, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
    with open(os.path.join(directory, name), "wb") as f:
        f.write(png)


def main():
    binary = os.path.abspath(sys.argv[1])
    require("xwd")
    require("xdotool")
    directory = tempfile.mkdtemp(prefix="libscrolld-sdl-")
    daemon = Daemon(directory, replay=write_log(os.path.join(directory, "quiet.scrolllog"), QUIET_LOG))
    xvfb = demo = None
    try:
        daemon.start()
        xvfb = Xvfb(directory)
        demo = Demo(binary, xvfb.display, daemon.socket, directory)
        client = scrolld.Client(daemon.socket)
        wait_for(lambda: _exists(client), "the demo's container")

        state = shown(client, demo, lambda s: s.content_offset.y == 0, "the list at the top")
        image = grab(xvfb.display)
        assert check(image, state) == (HEADER_MAX, 0, HEADER_MAX + ROW)
        keep(image, "sdl-demo.png")
        print("ok at the top: header 160 px, row 0 right under it")

        # Keys go to the demo, which scrolls through the daemon.
        env = dict(os.environ, DISPLAY=xvfb.display)
        subprocess.run(["xdotool", "key", "Next"], env=env, check=True, timeout=DEADLINE)
        state = shown(client, demo, lambda s: s.content_offset.y == HEIGHT - HEADER_MIN, "a page down")
        header, row, bottom = check(grab(xvfb.display), state)
        assert header == HEADER_MIN
        print(f"ok a page down (Page Down): offset {state.content_offset.y}, header {header} px, row {row} ends at {bottom}")

        # A request from another client: the demo draws what the daemon publishes, whoever moved it.
        client.scroll_to("kiosk", row=50, anchor="top", animation="none")
        state = shown(client, demo, lambda s: s.content_offset.y == HEADER_MAX + 50 * ROW - HEADER_MIN, "row 50 at the top")
        image = grab(xvfb.display)
        assert check(image, state) == (HEADER_MIN, 50, HEADER_MIN + ROW)
        keep(image, "sdl-demo-scrolled.png")
        print("ok row 50 anchored under the collapsed header")

        # The end: nearEnd loads 100 more rows, and the list keeps its place.
        subprocess.run(["xdotool", "key", "End"], env=env, check=True, timeout=DEADLINE)
        state = shown(client, demo, lambda s: s.content_size.height > HEADER_MAX + 500 * ROW, "more rows loaded")
        check(grab(xvfb.display), state)
        print(f"ok End: more rows loaded (content {state.content_size.height} px), drawn as published")

        subprocess.run(["xdotool", "key", "Home"], env=env, check=True, timeout=DEADLINE)
        state = shown(client, demo, lambda s: s.content_offset.y == 0, "back at the top")
        assert check(grab(xvfb.display), state) == (HEADER_MAX, 0, HEADER_MAX + ROW)
        print("ok Home: back at the top, header expanded")
        client.close()
    finally:
        if demo is not None:
            demo.stop()
        if xvfb is not None:
            xvfb.stop()
        daemon.stop()
        shutil.rmtree(directory, ignore_errors=True)
    print("sdl demo: all passed")


def _exists(client):
    try:
        client.get("kiosk")
        return True
    except scrolld.ScrolldError:
        return False


if __name__ == "__main__":
    main()
