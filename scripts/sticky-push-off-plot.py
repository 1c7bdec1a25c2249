#!/usr/bin/env python3
"""Draws docs/images/sticky-push-off.svg from states scrolld computes (docs/design.md §21).

A touchpad drag scrolls a list of 30 rows of 50 px whose sections start at rows 0, 5, 12 and 20
from the top to the bottom; `scrolld replay` prints every state, and the chart shows where the
pinned row's top is on screen (`stickyRow.top − contentOffset.y`) at each offset: 0 while it
sticks, then falling by as much as the content moves while the next section pushes it off.

    python3 scripts/sticky-push-off-plot.py [SCROLLD] > docs/images/sticky-push-off.svg

SCROLLD defaults to $SCROLLD_BIN, else .build/debug/scrolld. The output is the same bytes on
every run (a test checks the committed picture against it)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

ROWS, ROW, STICKY = 30, 50, [0, 5, 12, 20]
CONFIG = f"""[containers.main]
containerSize = {{ width = 400, height = 300 }}
rows = {{ count = {ROWS}, height = {ROW}, sticky = {STICKY} }}
"""


def log_lines():
    yield json.dumps({"format": "scrolld-events", "version": 1, "created": "2026-11-27T00:00:00Z",
                      "source": "scripts/sticky-push-off-plot.py: a slow drag through every section"})
    yield json.dumps({"t": 1_000_000, "dev": 2, "type": "device_added", "name": "Touchpad", "caps": ["finger"]})
    t = 1_000_000
    for _ in range(300):  # 4 px every 8 ms: from 0 to hi = 30 × 50 − 300 = 1200
        t += 8_000
        yield json.dumps({"t": t, "dev": 2, "type": "finger", "delta": {"y": 4}})


def states(binary):
    with tempfile.TemporaryDirectory() as directory:
        log = os.path.join(directory, "drag.scrolllog")
        config = os.path.join(directory, "sections.toml")
        with open(log, "w") as f:
            f.write("\n".join(log_lines()) + "\n")
        with open(config, "w") as f:
            f.write(CONFIG)
        out = subprocess.run([binary, "replay", log, "--config", config], check=True,
                             capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def svg(samples):
    width, height, left, top, plot_w, plot_h = 760, 330, 70, 50, 640, 200
    y_min, y_max, x_max = -ROW, 10, (ROWS * ROW - 300)

    def sx(offset):
        return left + offset / x_max * plot_w

    def sy(value):
        return top + (y_max - value) / (y_max - y_min) * plot_h

    colors = ["#2563eb", "#dc2626", "#059669", "#d97706"]
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14">The pinned section header on screen: '
           f'rows.sticky = {STICKY}, rows of {ROW} px, no header</text>']
    for value in range(y_min, y_max + 1, 10):
        out.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{sy(value):.1f}" y2="{sy(value):.1f}" stroke="#e5e7eb"/>')
        out.append(f'<text x="{left - 8}" y="{sy(value) + 4:.1f}" text-anchor="end">{value}</text>')
    for offset in range(0, x_max + 1, 200):
        out.append(f'<text x="{sx(offset):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{offset}</text>')
    tops = [k * ROW for k in STICKY]
    for k, (row, start) in enumerate(zip(STICKY, tops)):
        out.append(f'<line x1="{sx(start):.1f}" x2="{sx(start):.1f}" y1="{top}" y2="{top + plot_h}" '
                   f'stroke="{colors[k]}" stroke-dasharray="4 3"/>')
        out.append(f'<text x="{sx(start) + 3:.1f}" y="{top + 12}" fill="{colors[k]}">row {row} at {start}</text>')
    runs = []
    for state in samples:
        sticky = state.get("stickyRow")
        if sticky is None:
            continue
        y = state["contentOffset"]["y"]
        point = (sx(y), sy(sticky["top"] - y))
        if runs and runs[-1][0] == sticky["row"]:
            runs[-1][1].append(point)
        else:
            runs.append((sticky["row"], [point]))
    for row, points in runs:
        color = colors[STICKY.index(row)]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#6b7280"/>')
    out.append(f'<text x="{left + plot_w / 2}" y="{top + plot_h + 36}" text-anchor="middle">'
               f'contentOffset.y (px)</text>')
    out.append(f'<text transform="translate(20 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">'
               f'stickyRow.top − y (px, on screen)</text>')
    out.append(f'<text x="{left}" y="{top + plot_h + 62}" fill="#374151">Each row sticks at the top (0) until the '
               f'next one comes within its height ({ROW} px),')
    out.append(f'<tspan x="{left}" dy="16">then moves up with the content, pushed off: T = min(p, r_next − h_k).</tspan></text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    binary = (sys.argv[1] if len(sys.argv) > 1 else None) or os.environ.get("SCROLLD_BIN") \
        or os.path.join(REPO, ".build", "debug", "scrolld")
    sys.stdout.write(svg(states(binary)))


if __name__ == "__main__":
    main()
