#!/usr/bin/env python3
"""A kiosk's list in a real window: 500 rows under a collapsing header, with a scrollbar,
drawn by pygame from the states scrolld publishes — the app computes no scrolling of its own.

    pip install ./clients/python pygame
    python3 examples/kiosk_demo.py [--socket PATH] [--container kiosk]

Scroll with any wheel or touchpad the daemon reads (or `scrolld run --replay LOG`), or with a
finger on a touchscreen: a kiosk's window fills the screen, so the list's `touch_frame` is the
whole glass (--touch-frame X,Y,W,H, normalized, for a window that does not); the keys scroll by
rows through the daemon (Up/Down one row, Page Up/Page Down a screen, Home/End).
Near the end of the list the app hears `observe nearEnd` and appends rows with a `configure`
row insert, as a feed loads more; scroll anchoring keeps the view still while it grows.

--carousel adds a strip of departure cards under the list (the window grows by its height): a
second container, horizontal, that snaps a card's leading edge to the strip's
(`scroll_target = "rows"`) and never lets a fling pass a card (`snap_stop`, CSS
`scroll-snap-stop: always`): however hard the swipe, the next card. Sideways input moves it,
up/down the list; on a touchscreen the window's lower part is its `touch_frame`.

--report prints one JSON line per idle state it has drawn (for tests and screenshots); the
carousel's carry `"container"`.
"""
import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "clients", "python"))  # run from the tree too

import scrolld  # noqa: E402

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # a kiosk list makes no sound
import pygame  # noqa: E402

WIDTH, HEIGHT = 480, 640
HEADER_MIN, HEADER_MAX = 60, 160
ROW_HEIGHT = 56
FIRST_ROWS, MORE_ROWS, MOST_ROWS = 500, 100, 2000
SCROLLBAR = 8
# Row i paints a stripe of this width at the left in the colour (i % 256, i // 256, 200): a
# screenshot then names the row at any pixel (tests measure rows by it).
STRIPE = 8
# --carousel: cards CARD px wide in a strip CAROUSEL_HEIGHT tall under the list. Card i paints
# its top CARD_STRIPE rows, across its whole width, in the colour (i, 120, 40): a screenshot
# names the card at any x of that band.
CARDS, CARD, CAROUSEL_HEIGHT, CARD_STRIPE, CARD_GAP = 12, 240, 160, 8, 6

BACKGROUND = (246, 246, 248)
ROW_COLOURS = ((255, 255, 255), (236, 240, 246))
SEPARATOR = (210, 214, 222)
HEADER = (32, 96, 200)
HEADER_TEXT = (255, 255, 255)
TEXT = (30, 30, 36)
THUMB = (120, 120, 130)
CARD_COLOURS = ((255, 244, 214), (214, 236, 255))


def card_colour(card):
    return (card % 256, 120, 40)


def stripe_colour(row):
    return (row % 256, (row // 256) % 256, 200)


class KioskList:
    """Draws one state: the rows under the header at the state's offset, the header at the
    state's height, the scrollbar from the offset and the content size."""

    def __init__(self, screen):
        self.screen = screen
        self.font = pygame.font.Font(None, 30)
        self.title_big = pygame.font.Font(None, 56)
        self.title_small = pygame.font.Font(None, 34)

    def draw(self, state):
        screen, y = self.screen, state.content_offset.y
        width, height = screen.get_size()
        screen.fill(BACKGROUND)
        header = state.header.height if state.header else 0
        count = int(round((state.content_size.height - HEADER_MAX) / ROW_HEIGHT))
        first = max(0, int((y - HEADER_MAX) // ROW_HEIGHT))
        row = first
        while row < count:
            top = HEADER_MAX + row * ROW_HEIGHT - y  # the row's content top, on screen
            if top >= height:
                break
            rect = pygame.Rect(0, round(top), width - SCROLLBAR, ROW_HEIGHT)
            pygame.draw.rect(screen, ROW_COLOURS[row % 2], rect)
            pygame.draw.rect(screen, stripe_colour(row), (0, rect.top, STRIPE, ROW_HEIGHT))
            pygame.draw.line(screen, SEPARATOR, (STRIPE, rect.bottom - 1), (rect.right, rect.bottom - 1))
            label = self.font.render(f"Row {row + 1}", True, TEXT)
            screen.blit(label, (STRIPE + 16, rect.top + (ROW_HEIGHT - label.get_height()) // 2))
            row += 1
        self._header(state, header, width)
        self._scrollbar(state, header, width, height)

    def _header(self, state, header, width):
        pygame.draw.rect(self.screen, HEADER, (0, 0, width, round(header)))
        progress = state.header.progress if state.header else 1
        font = self.title_big if progress < 0.5 else self.title_small
        title = font.render("Departures", True, HEADER_TEXT)
        top = max(0, round(header) - title.get_height() - 14)
        self.screen.blit(title, (24, top))

    def _scrollbar(self, state, header, width, height):
        # The thumb the daemon computed (docs/design.md §22): its offset runs from under the header
        # and the top inset; a kiosk keeps it shown (SwiftUI's .scrollIndicators(.visible)).
        indicator = state.indicators.y if state.indicators else None
        if indicator is not None:
            top = state.content_insets.top + header + indicator.offset
            pygame.draw.rect(self.screen, THUMB, (width - SCROLLBAR + 2, round(top), SCROLLBAR - 4,
                                                  round(indicator.length)), border_radius=3)
            return
        track = height - header
        visible, total = state.container_size.height, max(state.content_size.height, 1)
        if track <= 0 or visible >= total:
            return
        thumb = max(24, track * visible / total)
        scrollable = total - visible
        fraction = min(max(state.content_offset.y / scrollable, 0), 1)
        top = header + (track - thumb) * fraction
        pygame.draw.rect(self.screen, THUMB, (width - SCROLLBAR + 2, round(top), SCROLLBAR - 4, round(thumb)),
                         border_radius=3)


class Carousel:
    """Draws the card strip at `top` of the window from one state of the carousel: card i's
    leading edge at CARD i - x."""

    def __init__(self, screen, top):
        self.screen, self.top = screen, top
        self.font = pygame.font.Font(None, 34)

    def draw(self, state):
        x = state.content_offset.x
        width = self.screen.get_width()
        pygame.draw.rect(self.screen, BACKGROUND, (0, self.top, width, CAROUSEL_HEIGHT))
        first = max(0, int(x // CARD))
        for card in range(first, CARDS):
            left = CARD * card - x
            if left >= width:
                break
            body = pygame.Rect(round(left) + CARD_GAP, self.top + CARD_STRIPE, CARD - 2 * CARD_GAP,
                               CAROUSEL_HEIGHT - CARD_STRIPE - CARD_GAP)
            pygame.draw.rect(self.screen, CARD_COLOURS[card % 2], body, border_radius=10)
            pygame.draw.rect(self.screen, card_colour(card), (round(left), self.top, CARD, CARD_STRIPE))
            label = self.font.render(f"Gate {card + 1}", True, TEXT)
            self.screen.blit(label, (body.left + 16, body.centery - label.get_height() // 2))


def carousel_settings(touch):
    """The strip: horizontal, a card's edge at rest (rows along x), no fling past a card."""
    return dict(container_size=(WIDTH, CAROUSEL_HEIGHT), axes="horizontal", rows={"count": CARDS, "height": CARD},
                scroll_target="rows", snap_stop=True, touch_frame=touch)


def touch_frames(frame, carousel):
    """The list's and the carousel's touch frames: the window's frame on the glass, split as the
    window is (the strip under the list)."""
    if not carousel:
        return frame, None
    x, y, w, h = frame
    split = h * HEIGHT / (HEIGHT + CAROUSEL_HEIGHT)
    return (x, y, w, split), (x, y + split, w, h - split)


def rows_on_screen(state):
    return max(1, int((state.container_size.height - HEADER_MIN) // ROW_HEIGHT))


def first_row_under_header(state):
    """The first row whose bottom lies below the header: its bottom, HEADER_MAX + 56 (i + 1)
    - y on screen, passes the header's height."""
    header = state.header.height if state.header else 0
    return max(0, int((header + state.content_offset.y - HEADER_MAX) // ROW_HEIGHT))


def on_key(client, container, key, state, count):
    """Row scrolling through the daemon: the app asks for a row, scrolld animates to it."""
    row = first_row_under_header(state)
    target = {
        pygame.K_DOWN: row + 1,
        pygame.K_UP: row - 1,
        pygame.K_PAGEDOWN: row + rows_on_screen(state),
        pygame.K_PAGEUP: row - rows_on_screen(state),
        pygame.K_HOME: 0,
        pygame.K_END: count - 1,
    }.get(key)
    if target is not None:
        client.scroll_to(container, row=min(max(target, 0), count - 1), anchor="top", animation="snappy")


def touch_frame(text):
    """`X,Y,W,H` (normalized) as the tuple `configure(touch_frame=...)` takes."""
    values = tuple(float(v) for v in text.split(","))
    if len(values) != 4:
        raise argparse.ArgumentTypeError("--touch-frame takes X,Y,W,H")
    return values


def connect(path, deadline):
    """The daemon may start after the app (a kiosk's boot): wait for it up to `deadline` s."""
    end = time.monotonic() + deadline
    while True:
        try:
            return scrolld.Client(path, reconnect=True)
        except scrolld.ScrolldError as error:
            if error.code != "not_running" or time.monotonic() > end:
                raise
            time.sleep(0.1)


def arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--socket", help="scrolld's socket (default: where scrollctl looks)")
    parser.add_argument("--container", default="kiosk")
    parser.add_argument("--fps", type=int, default=60, help="the display rate (default 60)")
    parser.add_argument("--wait", type=float, default=30, help="seconds to wait for the daemon")
    parser.add_argument("--report", action="store_true", help="print each idle state drawn as a JSON line")
    parser.add_argument("--touch-frame", default="0,0,1,1", type=touch_frame,
                        help="the window on the touchscreen, normalized: X,Y,W,H (default: the whole glass)")
    parser.add_argument("--carousel", action="store_true", help="a strip of snapping cards under the list")
    return parser.parse_args()


def report(state, container=None):
    """One --report line: what a test compares with the screenshot it takes."""
    line = {"seq": state.seq, "t": state.t, "y": state.content_offset.y,
            "header": state.header.height if state.header else None, "contentHeight": state.content_size.height}
    if container is not None:
        line = {"container": container, "seq": state.seq, "t": state.t, "x": state.content_offset.x}
    print(json.dumps(line), flush=True)


def main():
    args = arguments()
    client = connect(args.socket or scrolld.default_socket(), args.wait)
    container, cards = args.container, args.container + "-cards"
    list_frame, cards_frame = touch_frames(args.touch_frame, args.carousel)
    # A finger on the glass drags and flings the list 1:1 (docs/design.md §25).
    client.configure(container, container_size=(WIDTH, HEIGHT), header=(HEADER_MIN, HEADER_MAX),
                     rows={"count": FIRST_ROWS, "height": ROW_HEIGHT}, touch_frame=list_frame,
                     indicator_min_length=24)
    states = client.subscribe(container, rate=args.fps)
    near_end = client.observe(container, "nearEnd", distance=3 * ROW_HEIGHT)
    if args.carousel:
        client.configure(cards, **carousel_settings(cards_frame))
        card_states = client.subscribe(cards, rate=args.fps)

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption("scrolld kiosk")
    screen = pygame.display.set_mode((WIDTH, HEIGHT + (CAROUSEL_HEIGHT if args.carousel else 0)))
    view, strip = KioskList(screen), Carousel(screen, HEIGHT) if args.carousel else None
    clock = pygame.time.Clock()
    state, reported = next(states), None
    card_state, card_reported = (next(card_states), None) if strip else (None, None)
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                client.close()
                pygame.quit()
                return
            if event.type == pygame.KEYDOWN:
                count = int(round((state.content_size.height - HEADER_MAX) / ROW_HEIGHT))
                on_key(client, container, event.key, state, count)
        change = near_end.poll()
        if change is not None and change.new:
            count = int(round((state.content_size.height - HEADER_MAX) / ROW_HEIGHT))
            if count < MOST_ROWS:
                client.configure(container, rows={"insert": {"at": count, "count": MORE_ROWS}})
        state = states.poll() or state
        view.draw(state)
        if strip:
            card_state = card_states.poll() or card_state
            strip.draw(card_state)
        pygame.display.flip()
        if args.report and state.phase == "idle" and state.seq != reported:
            reported = state.seq
            report(state)
        if args.report and strip and card_state.phase == "idle" and card_state.seq != card_reported:
            card_reported = card_state.seq
            report(card_state, cards)
        clock.tick(args.fps)


if __name__ == "__main__":
    main()
