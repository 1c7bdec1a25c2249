#!/usr/bin/env python3
"""Writes a synthetic scrolld event log of N events (default 1 000 000) to stdout.

The mix is what a busy desktop produces: bursts of hi-res wheel clicks 1 ms apart (a 1000 Hz
mouse) and two-finger drags with events 7 ms apart that end in a scroll stop, with pauses in
between long enough for flings and bounces to come to rest. Deterministic for a given seed.
"""
import random
import sys

def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    out = sys.stdout
    w = out.write
    w('{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"Benchmarks/generate-log.py"}\n')
    w('{"t":1000000,"dev":1,"type":"device_added","name":"Bench Mouse","caps":["wheel"]}\n')
    w('{"t":1000000,"dev":2,"type":"device_added","name":"Bench Touchpad","caps":["finger","hold"]}\n')
    t = 1_000_000
    emitted = 0
    while emitted < n:
        t += rng.randint(50_000, 400_000)
        if rng.random() < 0.5:
            sign = rng.choice((-1, 1))
            for _ in range(min(rng.randint(5, 60), n - emitted)):
                t += 1000
                v = sign * rng.choice((30, 60, 120))
                w('{"t":%d,"dev":1,"type":"wheel","v120":{"y":%d},"deg":{"y":%s}}\n' % (t, v, repr(v / 8)))
                emitted += 1
        else:
            count = min(rng.randint(10, 80), n - emitted)
            for i in range(count):
                t += 7000
                if i == count - 1:
                    w('{"t":%d,"dev":2,"type":"finger","delta":{"x":0,"y":0}}\n' % t)
                else:
                    d = round(rng.uniform(-25, 25), 3)
                    w('{"t":%d,"dev":2,"type":"finger","delta":{"x":0,"y":%s}}\n' % (t, repr(d)))
                emitted += 1

main()
