#!/usr/bin/env bash
# `make bench`: every measurement of issue 7, one table. Writes Benchmarks/results.md (and
# prints it). Builds release binaries of the project and the benchmark package first.
# The figures in docs/performance.md come from runs of this script.
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
    echo "## Replay (issue 7.2)"
    echo
    echo "| what | time | rate |"
    echo "|---|---|---|"
    Benchmarks/scripts/replay.sh
    if [ -x Benchmarks/run-live.sh ]; then
        echo
        echo "## Live daemon (issue 7.3–7.5)"
        echo
        Benchmarks/run-live.sh host
    fi
} | tee "$out"
