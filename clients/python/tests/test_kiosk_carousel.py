"""examples/kiosk_demo.py --carousel in a real window (Xvfb): the strip of cards under the list
snaps with `snap_stop` (docs/design.md §22), so a quick sideways swipe that would glide past
three cards moves exactly one, each time; and the screenshot shows every card where the
daemon's state puts it (card i's leading edge at 240 i − x), read from the colour band each
card paints along its top.

Needs Xvfb, xwd and pygame: `make test-python-deps` installs them. With SCROLLD_SCREENSHOTS=DIR
the screenshot is kept as a PNG."""
import queue

import scrolld
from daemon import DEADLINE, Daemon, wait_for, write_log
from screenshot import grab, xvfb
from test_kiosk_demo import Demo, keep, require

WIDTH, LIST_HEIGHT, STRIP_HEIGHT = 480, 640, 160
CARD, CARDS, BAND = 240, 12, 8
CARDS_CONTAINER = "kiosk-cards"
END = CARD * CARDS - WIDTH  # 2400: the last card's trailing edge at the strip's
# A quick sideways two-finger swipe, looped: 8 moves of 12 px 8 ms apart (1.5 px/ms at the lift,
# 96 px from the card it started on), lifted. Without snap_stop its glide would rest three cards
# on (`scrolld replay` of this log rests at 960); with it, at the next card. The touchpad leaves
# at 3.5 s, long after the rest (2.6 s), so every pass starts from a card at rest.
SWIPE = (
    [{"t": 1_000_000, "dev": 1, "type": "device_added", "name": "Kiosk Touchpad", "caps": ["finger"]}]
    + [{"t": 2_000_000 + k * 8_000, "dev": 1, "type": "finger", "delta": {"x": 12}} for k in range(8)]
    + [{"t": 2_064_000, "dev": 1, "type": "finger", "delta": {"x": 0}},
       {"t": 3_500_000, "dev": 1, "type": "device_removed"}]
)


def carousel_rests(demo, count):
    """The first `count` distinct offsets the demo drew the carousel at rest, after its first."""
    rests = []
    while len(rests) < count + 1:
        try:
            report = demo.reports.get(timeout=DEADLINE)
        except queue.Empty:
            raise AssertionError(f"the demo drew no new carousel rest within {DEADLINE} s; so far {rests}")
        assert report is not None, f"the demo exited: {open(demo.stderr_path).read()}"
        if report.get("container") == CARDS_CONTAINER and (not rests or report["x"] != rests[-1]):
            rests.append(report["x"])
    return rests[1:]


def latest_drawn(demo, seq, latest):
    """The demo's latest carousel report once it has drawn state `seq` or a later one (`latest`:
    the latest seen so far, or None)."""
    while latest is None or latest["seq"] < seq or not demo.reports.empty():
        report = demo.reports.get(timeout=DEADLINE)
        assert report is not None, f"the demo exited: {open(demo.stderr_path).read()}"
        if report.get("container") == CARDS_CONTAINER:
            latest = report
    return latest


def drawn_at_rest(client, demo):
    """The carousel's state at rest past the first card, once the demo drew it and it did not
    change while the screenshot was taken (the loop goes on): (state, screenshot)."""
    latest = None
    while True:
        state = wait_for(lambda: (lambda s: s if s.phase == "idle" and s.content_offset.x > 0 else None)(
            client.get(CARDS_CONTAINER)), "the carousel at rest past its first card")
        latest = latest_drawn(demo, state.seq, latest)
        if latest["seq"] != state.seq:
            continue
        image = grab(demo.display)
        if client.get(CARDS_CONTAINER).seq == state.seq:
            return state, image


def check_cards(image, state):
    """Along the cards' colour band, the pixel at x belongs to card ⌊(x + offset) / 240⌋."""
    x0 = state.content_offset.x
    wrong = []
    for x in range(WIDTH):
        card = int((x + x0) // CARD)
        if image.pixel(x, LIST_HEIGHT + BAND // 2) != (card, 120, 40):
            wrong.append((x, image.pixel(x, LIST_HEIGHT + BAND // 2), card))
    assert not wrong, f"at offset {x0}: (x, drawn, card expected) {wrong[:5]} ... ({len(wrong)} pixels)"


def test_a_fling_moves_the_carousel_exactly_one_card(tmp_path):
    require("Xvfb")
    require("xwd")
    log = write_log(tmp_path / "swipe.scrolllog", SWIPE, source="a quick sideways swipe")
    with xvfb(tmp_path, WIDTH, LIST_HEIGHT + STRIP_HEIGHT) as display:
        daemon = Daemon(tmp_path, replay=log, extra=("--loop",))
        daemon.start()
        demo = Demo(display, daemon.socket, str(tmp_path), extra=("--carousel",))
        demo.display = display
        try:
            with scrolld.Client(daemon.socket, timeout=DEADLINE) as client:
                rests = carousel_rests(demo, 3)
                assert all(x % CARD == 0 and 0 < x <= END for x in rests), rests
                assert [b - a for a, b in zip(rests, rests[1:])] == [CARD, CARD], rests
                state, image = drawn_at_rest(client, demo)
                assert state.content_offset.x % CARD == 0
                check_cards(image, state)
                keep(image, "kiosk-demo-carousel.png")
        finally:
            demo.stop()
            daemon.stop()
