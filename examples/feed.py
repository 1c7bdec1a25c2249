#!/usr/bin/env python3
"""An endless feed on scrolld, in standard-library Python: requests sent while subscribed.

Creates an owned container `feed` (it goes away when this program does) with a collapsing
header and rows, subscribes to it, observes `nearEnd`, and loads more rows with a plain
`configure` row insert each time the list comes near its end — while the list moves, without
stopping a fling (docs/design.md §19). Prints one line per state it draws and per load. Usage:

    python3 examples/feed.py [--socket PATH] [--loads N]

`--loads N` exits after N loads (default: run until interrupted).
"""
import argparse
import json
import os
import socket

BATCH = 20        # rows per load
ROW_HEIGHT = 44
NEAR_END = 600    # px from the end at which more is loaded


def default_socket():
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "scrolld", "scrolld.sock")
    return f"/tmp/scrolld-{os.getuid()}/scrolld.sock"


class Connection:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.lines = self.sock.makefile("r", encoding="utf-8")
        self.next_id = 1

    def send(self, **request):
        request.setdefault("id", self.next_id)
        self.next_id += 1
        self.sock.sendall((json.dumps(request) + "\n").encode())

    def __iter__(self):
        for line in self.lines:
            yield json.loads(line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", default=default_socket())
    parser.add_argument("--loads", type=int, default=0)
    args = parser.parse_args()

    daemon = Connection(args.socket)
    rows = 2 * BATCH
    daemon.send(op="configure", container="feed", owned=True,
                containerSize={"width": 400, "height": 600},
                header={"minHeight": 60, "maxHeight": 200},
                rows={"count": rows, "height": ROW_HEIGHT})
    daemon.send(op="subscribe", container="feed", rate=60)
    daemon.send(op="observe", container="feed", of="nearEnd", distance=NEAR_END, id="more")
    loads = 0
    for message in daemon:
        kind = message["type"]
        if kind == "error":
            raise SystemExit(f"scrolld: {message['code']}: {message['message']}")
        if kind == "state":
            rows_shown = message.get("visibleRows") or {}
            print(f"y={message['contentOffset']['y']:.1f} {message['phase']} "
                  f"rows {rows_shown.get('first')}…{rows_shown.get('last')} of {rows}", flush=True)
        elif kind == "observation" and message["id"] == "more" and message["new"]:
            # Near the end: append a batch (K = the row count appends). The rows on screen
            # keep their place, and a running fling goes on to its own end.
            daemon.send(op="configure", container="feed", rows={"insert": {"at": rows, "count": BATCH}})
            rows += BATCH
            loads += 1
            print(f"loaded {BATCH} more rows: {rows} in all", flush=True)
            if args.loads and loads >= args.loads:
                return


if __name__ == "__main__":
    main()
