#!/usr/bin/env python3
"""N subscribers of container `main` on one thread, for the benchmark scripts: waits until the
daemon listens (2 minutes at most), connects and subscribes them one after another, then counts
the state lines each receives until SPAN seconds (the log's playing time) plus 5 have passed.

    count-states.py SOCKET N SPAN

Prints "FEWEST MOST TOTAL": the lines the least and the most served subscriber got, and all of
them together.
"""
import selectors, socket, sys, time

path, count, span = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
start = time.monotonic()
while True:
    try:
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(path)
        probe.close()
        break
    except OSError:
        if time.monotonic() - start > 120:
            sys.exit("the daemon never listened")
        time.sleep(0.1)
clients = []
for _ in range(count):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    f = s.makefile("rb")
    f.readline()  # welcome
    s.sendall(b'{"op":"subscribe","container":"main","id":1}\n')
    f.readline()  # the subscription's state
    clients.append((s, f))
sel = selectors.DefaultSelector()
lines = [0] * count
for i, (s, _) in enumerate(clients):
    s.setblocking(False)
    sel.register(s, selectors.EVENT_READ, i)
deadline = time.monotonic() + span + 5
while time.monotonic() < deadline:
    for key, _ in sel.select(timeout=0.5):
        lines[key.data] += key.fileobj.recv(1 << 20).count(b"\n")
print(min(lines), max(lines), sum(lines))
