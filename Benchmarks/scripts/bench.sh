#!/usr/bin/env bash
# `make bench`: every measurement of docs/performance.md's budgets, one table. Writes
# Benchmarks/results.md (and prints it). Builds release binaries of the project and the benchmark
# package first. The figures in docs/performance.md come from runs of this script.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=Benchmarks/results.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The binaries `make release` builds and `make install` installs: the Swift runtime linked in.
release_flags=(${RELEASE_FLAGS:---static-swift-stdlib -Xlinker -z -Xlinker now})
swift build -c release "${release_flags[@]}" --product scrolld >&2
swift build -c release "${release_flags[@]}" --product scrollctl >&2
(cd Benchmarks && swift build -c release >&2)

{
    echo "# scrolld benchmark results"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%MZ), $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB,"
    echo "$(uname -sr), $(swift --version 2>/dev/null | head -1), load average before: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    echo "## Model (package-benchmark; per input event or frame, one container)"
    echo
    (cd Benchmarks && swift package benchmark --no-progress --format markdown --path stdout 2>/dev/null) \
        | sed -n '/^## /,$p' | sed 's/^## /### /'
    echo
    echo "## Instructions per event (callgrind, deterministic)"
    echo
    echo "| workload | instructions per event |"
    echo "|---|---|"
    cp Benchmarks/.build/release/model-loop "$tmp/model-loop" && strip -g "$tmp/model-loop"
    for w in wheel finger frames list-wheel list-finger nested-wheel nested-finger; do
        total=$(valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$tmp/model-loop" "$w" 100000 2>&1 >/dev/null \
            | sed -n 's/.*Collected : //p')
        echo "| $w | $((total / 100000)) |"
    done
    echo
    echo "## CPU per second of scrolling"
    echo
    echo "10 s of 1 kHz two-finger drags (0.5 s drags, 0.5 s pauses) through \`scrolld run --replay\`, unthrottled"
    echo "subscribers; the daemon's CPU time beside the C floor server publishing the same states in the same run"
    echo "(Benchmarks/scripts/scroll-cpu.sh, ${SCROLL_CPU_RUNS:-3} runs per count)."
    echo
    Benchmarks/scripts/scroll-cpu.sh .build/release/scrolld "1 5 50" "${SCROLL_CPU_RUNS:-3}"
    echo
    echo "## Instructions per subscriber write (callgrind)"
    echo
    echo "Benchmarks/scripts/fanout-callgrind.sh, 100 subscribers, 300 events at 0.05× speed: the fan-out's"
    echo "instructions (\`Publisher.deliver\`, inclusive) per subscriber write."
    echo
    echo "| writes | subscribers | state lines read | subscriber writes | states per write | instructions in deliver | per subscriber write | whole run |"
    echo "|---|---|---|---|---|---|---|---|"
    echo -n "| direct (as built) " && Benchmarks/scripts/fanout-callgrind.sh .build/release/scrolld 100 300 0.05 2>/dev/null
    echo -n "| through NIO (\`SCROLLD_NIO_WRITES=1\`) " && SCROLLD_NIO_WRITES=1 Benchmarks/scripts/fanout-callgrind.sh .build/release/scrolld 100 300 0.05 2>/dev/null
    echo
    echo "## Instructions per published state (callgrind)"
    echo
    echo "Benchmarks/scripts/loop-callgrind.sh: one 1 kHz drag and its fling, one subscriber; the event loop's"
    echo "instructions (\`runOneLoopTick\`, inclusive) per state."
    echo
    Benchmarks/scripts/loop-callgrind.sh .build/release/scrolld 1 2>/dev/null
    echo
    echo "## Replay"
    echo
    echo "| what | time | rate |"
    echo "|---|---|---|"
    Benchmarks/scripts/replay.sh
    echo
    echo "## Input to message: WebSocket beside the Unix socket"
    echo
    echo "Benchmarks/scripts/web-latency.mjs: ${WEB_LATENCY_DRAGS:-10} drags of 500 events at 1 kHz through \`scrolld run --replay\`,"
    echo "one Unix socket and one WebSocket subscriber (Node) in the same run; each input state's arrival minus its"
    echo "\`t\` (the event's instant), CLOCK_MONOTONIC."
    echo
    websocket_flag=""; node --experimental-websocket -e 0 >/dev/null 2>&1 && websocket_flag=--experimental-websocket
    node $websocket_flag Benchmarks/scripts/web-latency.mjs .build/release/scrolld "${WEB_LATENCY_DRAGS:-10}"
    if [ -x Benchmarks/run-live.sh ]; then
        echo
        echo "## Live daemon"
        echo
        Benchmarks/run-live.sh host
    fi
} | tee "$out"
