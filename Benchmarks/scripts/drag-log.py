#!/usr/bin/env python3
"""A log of 1 kHz two-finger drags for the CPU benchmarks (docs/performance.md): DRAGS drags of 500 events
1 ms apart, each ending in a scroll stop (so in a fling), alternating up and down, 500 ms apart;
the first event LEAD_MS after the replay starts, so every subscriber is in by then.

    drag-log.py DRAGS LEAD_MS > LOG
"""
import math
import sys

drags, lead = int(sys.argv[1]), int(sys.argv[2]) * 1000
w = sys.stdout.write
w('{"format":"scrolld-events","version":1,"created":"2026-11-25T00:00:00Z","source":"Benchmarks/scripts/drag-log.py"}\n')
w('{"t":1000000,"dev":2,"type":"device_added","name":"Bench Touchpad","caps":["finger","hold"]}\n')
t = 1_000_000 + lead
for drag in range(drags):
    sign = 1 if drag % 2 == 0 else -1
    for i in range(500):
        t += 1000
        d = 0 if i == 499 else sign * round(2.0 + 1.5 * math.sin(i / 40), 3)
        w('{"t":%d,"dev":2,"type":"finger","delta":{"x":0,"y":%s}}\n' % (t, repr(d)))
    t += 500_000
