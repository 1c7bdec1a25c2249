#!/usr/bin/env bash
# Runs the fuzz targets one after the other, each for SECONDS (default: $FUZZ_TIME, else 60),
# and fails on the first crash, hang (an input over 10 s), leak or out-of-memory.
#
# Usage: Fuzz/run.sh [SECONDS] [TARGET...]    targets: request event-log debug-events config toml
#        (default: all five). Build first with Fuzz/build.sh (`make fuzz` does both).
#
# Each target starts from its committed seeds, Fuzz/corpus/TARGET, plus what earlier runs
# found, .build/fuzz/corpus/TARGET (new inputs go there, never into the repository), with
# Fuzz/dictionaries/TARGET.dict. A failing input is saved under .build/fuzz/artifacts/TARGET/;
# rerun it alone with
#   SCROLLD_FUZZ_TARGET=TARGET .build/fuzz/scrolld-fuzz FILE
# libFuzzer's full output is in .build/fuzz/logs/TARGET.log; one summary line per target is
# printed here (executions, coverage, corpus size).
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH=${1:-${FUZZ_TIME:-60}}
shift || true
if ! [[ $SECONDS_EACH =~ ^[1-9][0-9]*$ ]]; then
    echo "Fuzz/run.sh: SECONDS must be a whole number of seconds, at least 1 (got \"$SECONDS_EACH\")" >&2
    exit 2
fi
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(request event-log debug-events config toml)

BINARY=.build/fuzz/scrolld-fuzz
if [ ! -x "$BINARY" ]; then
    echo "Fuzz/run.sh: $BINARY is missing; build it with Fuzz/build.sh" >&2
    exit 1
fi

# LeakSanitizer on, with nothing suppressed.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
# Swift's own crash handler would race libFuzzer's for the signal and confuse AddressSanitizer.
export SWIFT_BACKTRACE=enable=no

# libFuzzer checks for leaks after every input whose mallocs and frees differ (-detect_leaks=1,
# every target), naming the input that leaked; LeakSanitizer also checks the whole process
# when it exits. Runs are cut into segments of at most SEGMENT seconds, each a fresh process,
# so that every segment ends with that check too.
SEGMENT=60

for target in "${TARGETS[@]}"; do
    case $target in
        request) max_len=4096 ;;
        event-log | debug-events | config | toml) max_len=8192 ;;
        *) echo "Fuzz/run.sh: unknown target $target (request, event-log, debug-events, config, toml)" >&2; exit 2 ;;
    esac
    work=.build/fuzz/corpus/$target
    artifacts=.build/fuzz/artifacts/$target
    log=.build/fuzz/logs/$target.log
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    : >"$log"
    remaining=$SECONDS_EACH
    runs=0
    segments=0
    while [ "$remaining" -gt 0 ]; do
        seconds=$((remaining < SEGMENT ? remaining : SEGMENT))
        remaining=$((remaining - seconds))
        segments=$((segments + 1))
        status=0
        SCROLLD_FUZZ_TARGET=$target "$BINARY" \
            -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
            -detect_leaks=1 -use_value_profile=1 -dict="Fuzz/dictionaries/$target.dict" \
            -artifact_prefix="$artifacts/" -print_final_stats=1 \
            "$work" "Fuzz/corpus/$target" >>"$log" 2>&1 || status=$?
        segment_runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
        runs=$((runs + ${segment_runs:-0}))
        if [ "$status" -ne 0 ]; then
            echo "fuzz $target: FAILED in segment $segments (libFuzzer exit status $status); the end of $log:" >&2
            tail -60 "$log" >&2
            exit 1
        fi
    done
    coverage=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | tail -1 | sed -E 's/^#[0-9]+[[:space:]]+DONE[[:space:]]+//; s/ exec\/s:.*//')
    echo "fuzz $target: $runs executions in $SECONDS_EACH s ($((runs / SECONDS_EACH))/s, $segments segment(s)), no crash, hang or leak; at the end: ${coverage:-?}"
done
