#!/usr/bin/env bash
# CPU per second of scrolling (docs/performance.md): the daemon's CPU time for 10 s of 1 kHz
# two-finger input (0.5 s drags, 0.5 s pauses: 5000 events through `scrolld run --replay`)
# with N unthrottled subscribers, beside the C floor server (Benchmarks/floor/scroll-cpu.c)
# publishing the very states the daemon published in that run (their instants and sizes, as
# its first subscriber received them) to N subscribers, one write(2) per state per subscriber.
#
#   Benchmarks/scripts/scroll-cpu.sh SCROLLD [SUBSCRIBER_COUNTS] [RUNS]   (default "1 5 50", 3)
#
# CPU time is the process' own (the sum of /proc/PID/task/*/schedstat's run time, ns, from
# when every subscriber is in to when the stream has been quiet for 1.5 s), so it does not
# depend on what else the shared machine runs; it is given as % of one core over the 10 s of
# input. Prints a Markdown table (one row per count and run) and the load average beside each.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCROLLD=$(realpath "$1")
COUNTS=${2:-1 5 50}
RUNS=${3:-3}
LEAD_MS=3000
W=$(mktemp -d /tmp/scroll-cpu.XXXXXX)
trap 'rm -rf "$W"' EXIT

cc -O2 -o "$W/scroll-cpu" "$ROOT/Benchmarks/floor/scroll-cpu.c"
cp "$ROOT/Benchmarks/list.toml" "$W/scrolld.toml"
# 10 drags of 500 events 1 ms apart, each ending in a fling, 500 ms pauses (drag-log.py).
python3 "$ROOT/Benchmarks/scripts/drag-log.py" 10 "$LEAD_MS" >"$W/drag.scrolllog"

cpu_ns() {  # the run time of every thread of process $1, ns
    local total=0 f v
    for f in /proc/"$1"/task/*/schedstat; do
        read -r v _ <"$f" 2>/dev/null || continue
        total=$((total + v))
    done
    echo "$total"
}

wait_for() {  # file $1, process $2
    local i
    for i in $(seq 1200); do
        [ -e "$1" ] && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

daemon_run() {  # N, extra environment (or ""), states file: prints "cpu_ns states lines"
    rm -f "$W"/ready "$W"/s.sock
    env $2 "$SCROLLD" run --config "$W/scrolld.toml" --socket "$W/s.sock" --replay "$W/drag.scrolllog" >"$W/scrolld.log" 2>&1 &
    local daemon=$!
    "$W/scroll-cpu" subscribe "$W/s.sock" "$1" "$W/ready" "$3" >"$W/counts" &
    local subscribers=$!
    wait_for "$W/ready" "$subscribers" || { echo "subscribers never connected" >&2; cat "$W/scrolld.log" >&2; exit 1; }
    local before after
    before=$(cpu_ns "$daemon")
    wait "$subscribers"
    after=$(cpu_ns "$daemon")
    kill -TERM "$daemon"; wait "$daemon" || true
    echo "$((after - before)) $(cat "$W/counts")"
}

floor_run() {  # N: prints "cpu_ns"
    rm -f "$W"/ready "$W"/floor.sock
    "$W/scroll-cpu" floor "$W/floor.sock" "$1" "$W/states" "$LEAD_MS" &
    local floor=$!
    "$W/scroll-cpu" subscribe "$W/floor.sock" "$1" "$W/ready" "$W/floor-states" >/dev/null &
    local subscribers=$!
    wait_for "$W/ready" "$subscribers" || { echo "floor subscribers never connected" >&2; exit 1; }
    local before after
    before=$(cpu_ns "$floor")
    wait "$subscribers"
    after=$(cpu_ns "$floor")
    wait "$floor" || true
    echo "$((after - before))"
}

# Each run: scrolld as built, the same binary with SCROLLD_NIO_WRITES=1 (every write through
# NIO's channel, as before the fan-out wrote sockets directly), and the floor server publishing what
# scrolld published.
echo "| subscribers | run | scrolld | through NIO (\`SCROLLD_NIO_WRITES=1\`) | floor server (C) | scrolld / floor | states | load average |"
echo "|---|---|---|---|---|---|---|---|"
for n in $COUNTS; do
    for run in $(seq "$RUNS"); do
        load=$(cut -d' ' -f1-3 /proc/loadavg)
        read -r direct states lines < <(daemon_run "$n" "" "$W/states")
        read -r nio _ _ < <(daemon_run "$n" "SCROLLD_NIO_WRITES=1" "$W/nio-states")
        floor=$(floor_run "$n")
        python3 - "$n" "$run" "$direct" "$nio" "$floor" "$states" "$lines" "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'PY'
import sys
n, run, direct, nio, floor, states, lines, load, load_after = sys.argv[1:]
pct = lambda ns: f"{int(ns) / 1e6:.0f} ms ({int(ns) / 1e8:.2f} %)"
print(f"| {n} | {run} | {pct(direct)} | {pct(nio)} | {pct(floor)} | {int(direct) / int(floor):.2f}× | {states} per subscriber, {lines} lines | {load} → {load_after} |")
PY
    done
done
