#!/usr/bin/env bash
# The event loop's instructions per published state (docs/performance-live.md,
# finding 8, "Fewer instructions per event"): one 1 kHz drag of drag-log.py (500 finger events
# and the fling after them) through `scrolld run --replay --speed 0.1` under callgrind, with N
# unthrottled subscribers; prints the loop's instructions (`SelectableEventLoop.runOneLoopTick`
# inclusive, which also holds the subscribers' connection set-up), the states each subscriber
# got, and the quotient. Callgrind counts are deterministic: one run is the figure.
#
#   Benchmarks/scripts/loop-callgrind.sh SCROLLD [SUBSCRIBERS]   (default 1)
#
# SCROLLD is a release build; valgrind 3.19 cannot read Swift 6.3's DWARF, so a `strip -g` copy
# is what runs (symbols stay).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCROLLD=$(realpath "$1")
SUBSCRIBERS=${2:-1}
W=$(mktemp -d /tmp/loop-callgrind.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT

strip -g -o "$W/scrolld" "$SCROLLD"
cp "$ROOT/Benchmarks/list.toml" "$W/scrolld.toml"
# 1.5 s of log time (15 s at speed 0.1) before the drag: valgrind starts slowly.
python3 "$ROOT/Benchmarks/scripts/drag-log.py" 1 1500 >"$W/drag.scrolllog"
valgrind --tool=callgrind --callgrind-out-file="$W/callgrind.out" \
  "$W/scrolld" run --config "$W/scrolld.toml" --socket "$W/s.sock" --replay "$W/drag.scrolllog" --speed 0.1 \
  >"$W/scrolld.log" 2>&1 &
daemon=$!
read -r fewest _ _ < <(python3 "$ROOT/Benchmarks/scripts/count-states.py" "$W/s.sock" "$SUBSCRIBERS" 40)
kill -TERM $daemon
wait $daemon || true

loop=$(callgrind_annotate --inclusive=yes --threshold=100 "$W/callgrind.out" 2>/dev/null | swift demangle --simplified \
  | awk '/SelectableEventLoop.runOneLoopTick\(selfIdentifier:\)/ && !found { gsub(",", "", $1); print $1; found = 1 }')
echo "loop ${loop} instructions, ${fewest} states per subscriber, $((loop / fewest)) per state (${SUBSCRIBERS} subscriber(s))"
