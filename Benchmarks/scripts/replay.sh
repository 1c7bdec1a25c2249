#!/usr/bin/env bash
# Replay throughput (docs/performance.md, "Replay"): `scrolld replay` of a generated 1 000 000-event
# log to /dev/null, end to end (parse, model, encode), beside `wc -l` on the same file in the same
# run. Prints one Markdown table row per measurement; the best of RUNS runs counts (page cache
# warm).
set -euo pipefail
cd "$(dirname "$0")/../.."
SCROLLD=${SCROLLD:-.build/release/scrolld}
EVENTS=${EVENTS:-1000000}
RUNS=${RUNS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/bench.scrolllog"
python3 Benchmarks/generate-log.py "$EVENTS" > "$log"
lines=$(wc -l < "$log")
states=$("$SCROLLD" replay "$log" | wc -l)

best() { # best wall, user and system seconds of RUNS runs of "$@" > /dev/null
    local b=""
    for _ in $(seq "$RUNS"); do
        local t
        t=$( { /usr/bin/time -f "%e %U %S" "$@" > /dev/null; } 2>&1 | tail -1)
        if [ -z "$b" ] || awk -v a="${t%% *}" -v b="${b%% *}" 'BEGIN { exit !(a < b) }'; then b=$t; fi
    done
    echo "$b"
}

read -r rw ru rs <<< "$(best "$SCROLLD" replay "$log")"
read -r ww _ _ <<< "$(best wc -l "$log")"
read -r aw au as <<< "$(best "$SCROLLD" replay --at 0 "$log")"
rss=$( { /usr/bin/time -f "%M" "$SCROLLD" replay "$log" > /dev/null; } 2>&1 | tail -1)
rate=$(awk -v n="$EVENTS" -v t="$rw" 'BEGIN { printf "%.2f", n / t / 1e6 }')
cpu_rate=$(awk -v n="$EVENTS" -v u="$ru" -v s="$rs" 'BEGIN { printf "%.2f", n / (u + s) / 1e6 }')
echo "| replay of $EVENTS events ($lines lines, $(du -m "$log" | cut -f1) MB, $states state lines) to /dev/null | ${rw} s wall, ${ru} s user + ${rs} s sys | **${rate} M events/s** (${cpu_rate} M/s of CPU time) |"
echo "| \`wc -l\` on the same file, same run | ${ww} s | |"
echo "| \`replay --at 0\` (parse and model, one state printed) | ${aw} s wall, ${au} s user | |"
echo "| maximum resident memory of the replay | $((rss / 1024)) MB | |"
