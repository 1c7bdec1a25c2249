#!/usr/bin/env python3
"""The Python client's cost per state for the same line as bench_states.c: decode (json.loads
and the message check) + State.from_message, in-process (no socket: a lower bound)."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
from scrolld._types import State  # noqa: E402
from scrolld._wire import decode  # noqa: E402

LINE = (b'{"type":"state","container":"list","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},'
        b'"velocity":{"x":0,"y":812.25},"contentSize":{"width":400,"height":4600},"containerSize":{"width":400,"height":600},'
        b'"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":76.5,"progress":0.8821},'
        b'"visibleRows":{"first":0,"last":9}}')
n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
start = time.process_time()
for _ in range(n):
    State.from_message(decode(LINE))
used = time.process_time() - start
print(f"python-client per-state: {used / n * 1e9:.0f} ns ({n} states; decode + State.from_message, CPU time, no socket)")
