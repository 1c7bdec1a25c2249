#!/usr/bin/env python3
"""How long a healthy client's ping waits while a hostile client loads the daemon.

Three loads from docs/design.md "Limits" (W1–W3 of the hostile-client findings), each against
a fresh `scrolld run`: 20 pipelined resizes of the deepest container of a 32-deep chain among
1000 containers; 1000 containers moving under wheel input from a replayed log; 40 000
pipelined `get`s. A benchmark figure, never a pass/fail test: it prints the worst and median
ping round trip during each load.

    Benchmarks/scripts/hostile-latency.py [SCROLLD_BIN]
"""
import json, os, socket, statistics, subprocess, sys, tempfile, threading, time

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/debug/scrolld"


def start(extra=()):
    folder = tempfile.mkdtemp(prefix="sd-hl-")
    path = os.path.join(folder, "s.sock")
    process = subprocess.Popen([BIN, "run", "--socket", path, "--config", "/dev/null",
                                "--set", "daemon.realtime_priority=0", *extra],
                               stderr=open(os.path.join(folder, "stderr.log"), "w"))
    for _ in range(600):
        if os.path.exists(path):
            break
        time.sleep(0.05)
    return process, path


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.file = self.sock.makefile("rwb")
        self.file.readline()

    def request(self, obj):
        self.file.write((json.dumps(obj) + "\n").encode())
        self.file.flush()
        while True:
            line = json.loads(self.file.readline())
            if line.get("id") == obj.get("id"):
                return line


def pings_during(path, load):
    """Runs `load` in a thread; meanwhile a second client pings; returns round trips (ms)."""
    healthy = Client(path)
    done = threading.Event()
    thread = threading.Thread(target=lambda: (load(), done.set()))
    thread.start()
    trips, n = [], 0
    while not done.is_set():
        n += 1
        t0 = time.monotonic()
        healthy.request({"op": "ping", "id": n})
        trips.append((time.monotonic() - t0) * 1000)
    thread.join()
    return trips


def report(name, trips):
    print(f"{name}: {len(trips)} pings, median {statistics.median(trips):.1f} ms, worst {max(trips):.1f} ms", flush=True)


def chain_resizes(path):
    c = Client(path)
    parent = "main"
    for depth in range(1, 32):
        c.request({"op": "configure", "container": f"c{depth}", "parent": parent, "id": depth})
        parent = f"c{depth}"
    for i in range(967):
        c.request({"op": "configure", "container": f"m{i}", "id": 100 + i})

    def load():
        lines = b"".join((json.dumps({"op": "configure", "container": "c31",
                                      "containerSize": {"width": 800, "height": 500 + k}, "id": 5000 + k}) + "\n").encode()
                         for k in range(20))
        c.sock.sendall(lines)
        for _ in range(20):
            c.file.readline()
    return load


def many_gets(path):
    c = Client(path)

    def load():
        def reader():
            for _ in range(40000):
                c.file.readline()
        thread = threading.Thread(target=reader)
        thread.start()
        c.sock.sendall(b"".join(b'{"op":"get","container":"main","id":%d}\n' % k for k in range(40000)))
        thread.join()
    return load


def main():
    process, path = start()
    try:
        report("20 pipelined resizes in a 32-deep chain, 1000 containers", pings_during(path, chain_resizes(path)))
        report("40000 pipelined gets", pings_during(path, many_gets(path)))
    finally:
        process.terminate()
        process.wait()
    process, path = start(["--replay", "examples/demo.scrolllog"])
    try:
        c = Client(path)
        for i in range(999):
            c.request({"op": "configure", "container": f"m{i}", "id": i})
        report("1000 containers under the demo's input (10 s)",
               pings_during(path, lambda: time.sleep(10)))
    finally:
        process.terminate()
        process.wait()


main()
