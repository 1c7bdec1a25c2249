#!/usr/bin/env python3
"""App bars in a real window (docs/design.md §21): a feed of sections under a quick-return app
bar (`header.mode = "enterAlways"`), each section's header sticking under the bar until the next
pushes it off (`rows.sticky`), and pull to refresh with an indicator (`refresh`). pygame draws
the states scrolld publishes; the app computes no scrolling of its own.

    pip install ./clients/python pygame
    python3 examples/appbars_demo.py [--socket PATH] [--container feed]

Scroll with any touchpad the daemon reads (or `scrolld run --replay LOG`); pull down past the
top and let go to refresh. The app "loads" for --refresh-seconds, then sends `endRefresh`
(R ends it at once). --report prints one JSON line per idle state it has drawn (for tests).
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
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
import pygame  # noqa: E402

WIDTH, HEIGHT = 480, 640
BAR_MIN, BAR_MAX = 56, 120
SECTIONS, ITEMS, SECTION_HEIGHT, ITEM_HEIGHT = 12, 8, 40, 56
REFRESH_THRESHOLD, REFRESH_HEIGHT = 90, 64
# Row i paints a stripe of this width at the left in the colour (i % 256, i // 256, 200), so a
# screenshot names the row at any pixel; the sticky copy of a section header paints its own.
STRIPE = 8

BACKGROUND = (246, 246, 248)
ITEM = (255, 255, 255)
SECTION = (222, 230, 242)
SEPARATOR = (210, 214, 222)
BAR = (32, 96, 200)
BAR_TEXT = (255, 255, 255)
TEXT = (30, 30, 36)
INDICATOR = (255, 196, 40)
PULL = (200, 204, 212)


def stripe_colour(row):
    return (row % 256, (row // 256) % 256, 200)


def heights():
    """Each section: its header row, then its items."""
    return ([SECTION_HEIGHT] + [ITEM_HEIGHT] * ITEMS) * SECTIONS


def sticky_rows():
    return [k * (ITEMS + 1) for k in range(SECTIONS)]


def settings():
    return dict(container_size=(WIDTH, HEIGHT),
                header={"min_height": BAR_MIN, "max_height": BAR_MAX, "mode": "enterAlways"},
                rows={"heights": heights(), "sticky": sticky_rows()},
                refresh=(REFRESH_THRESHOLD, REFRESH_HEIGHT))


class Feed:
    """Draws one state: rows at the state's offset, the pinned section header where the state
    says, the refresh indicator in the gap above the first row, the app bar at its height."""

    def __init__(self, screen):
        self.screen = screen
        self.font = pygame.font.Font(None, 28)
        self.title = pygame.font.Font(None, 44)
        self.tops = [BAR_MAX]
        for h in heights():
            self.tops.append(self.tops[-1] + h)

    def row(self, index, top):
        height = heights()[index]
        section = index % (ITEMS + 1) == 0
        rect = pygame.Rect(0, round(top), WIDTH, height)
        pygame.draw.rect(self.screen, SECTION if section else ITEM, rect)
        pygame.draw.rect(self.screen, stripe_colour(index), (0, rect.top, STRIPE, height))
        pygame.draw.line(self.screen, SEPARATOR, (STRIPE, rect.bottom - 1), (rect.right, rect.bottom - 1))
        number = index // (ITEMS + 1)
        text = f"Section {number + 1}" if section else f"Item {number + 1}.{index % (ITEMS + 1)}"
        label = self.font.render(text, True, TEXT)
        self.screen.blit(label, (STRIPE + 16, rect.top + (height - label.get_height()) // 2))

    def draw(self, state):
        y = state.content_offset.y
        bar = state.header.height if state.header else 0
        self.screen.fill(BACKGROUND)
        for index in range(len(heights())):
            top = self.tops[index] - y
            if top + heights()[index] > 0 and top < HEIGHT:
                self.row(index, top)
        if state.sticky_row is not None:
            self.row(state.sticky_row.row, state.sticky_row.top - y)
        self.indicator(state, y)
        pygame.draw.rect(self.screen, BAR, (0, 0, WIDTH, round(bar)))
        title = self.title.render("Feed", True, BAR_TEXT)
        self.screen.blit(title, (24, max(0, round(bar) - title.get_height() - 12)))

    def indicator(self, state, y):
        """The gap between the content's top (BAR_MAX) and the first row when pulled past the
        top: the refresh indicator while refreshing, a hint while pulled."""
        gap = -y
        if gap <= 0:
            return
        refreshing = bool(state.refreshing)
        pygame.draw.rect(self.screen, INDICATOR if refreshing else PULL, (0, BAR_MAX, WIDTH, round(gap)))
        words = "Refreshing…" if refreshing else ("Release to refresh" if gap >= REFRESH_THRESHOLD else "Pull to refresh")
        label = self.font.render(words, True, TEXT)
        if gap >= label.get_height():
            self.screen.blit(label, ((WIDTH - label.get_width()) // 2, BAR_MAX + (round(gap) - label.get_height()) // 2))


def connect(path, deadline):
    end = time.monotonic() + deadline
    while True:
        try:
            return scrolld.Client(path, reconnect=True)
        except scrolld.ScrolldError as error:
            if error.code != "not_running" or time.monotonic() > end:
                raise
            time.sleep(0.1)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--socket", help="scrolld's socket (default: where scrollctl looks)")
    parser.add_argument("--container", default="feed")
    parser.add_argument("--fps", type=int, default=60)
    parser.add_argument("--wait", type=float, default=30, help="seconds to wait for the daemon")
    parser.add_argument("--refresh-seconds", type=float, default=1.5, help="how long a refresh 'loads'")
    parser.add_argument("--report", action="store_true", help="print each idle state drawn as a JSON line")
    args = parser.parse_args()

    client = connect(args.socket or scrolld.default_socket(), args.wait)
    container = args.container
    client.configure(container, **settings())
    states = client.subscribe(container, rate=args.fps)
    refreshing = client.observe(container, "refreshing")

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_caption("scrolld app bars")
    view = Feed(pygame.display.set_mode((WIDTH, HEIGHT)))
    clock = pygame.time.Clock()
    state, reported, loading_until = next(states), None, None
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                client.close()
                pygame.quit()
                return
            if event.type == pygame.KEYDOWN and event.key == pygame.K_r and state.refreshing:
                client.end_refresh(container)
        change = refreshing.poll()
        if change is not None:
            loading_until = time.monotonic() + args.refresh_seconds if change.new else None
        if loading_until is not None and time.monotonic() >= loading_until:
            loading_until = None
            client.end_refresh(container)
        state = states.poll() or state
        view.draw(state)
        pygame.display.flip()
        if args.report and state.phase == "idle" and state.seq != reported:
            reported = state.seq
            sticky = state.sticky_row
            print(json.dumps({"seq": state.seq, "y": state.content_offset.y,
                              "header": state.header.height if state.header else None,
                              "sticky": [sticky.row, sticky.top] if sticky else None,
                              "refreshing": state.refreshing}), flush=True)
        clock.tick(args.fps)


if __name__ == "__main__":
    main()
