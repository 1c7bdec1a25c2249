#!/usr/bin/env bash
# Proof that `make test` is green every time, not most times: clones this repository's HEAD
# (what is committed, nothing else) into a fresh temporary directory and runs `make test` there
# RUNS times (default 10) while `yes > /dev/null` keeps one core busy. Prints one line per run
# (result, duration, load average at its end), the load, then the closing line
# `RUNS passed, 0 failed`. Exits 1 if any run failed; the logs of failed runs are kept and
# named. The first run builds everything from nothing, as a newcomer's does.
#
# Usage: scripts/soak-tests.sh [RUNS]      (KEEP=1 keeps the clone and every log)
set -uo pipefail
runs=${1:-10}
case $runs in '' | *[!0-9]* | 0) echo "usage: $0 [RUNS] (a positive number)" >&2; exit 64 ;; esac
repo=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse HEAD)
work=$(mktemp -d /tmp/scrolld-soak.XXXXXX)
clone=$work/scrolld

git clone -q --no-checkout "$repo" "$clone" && git -C "$clone" checkout -q --detach "$commit" || {
    echo "soak: cannot clone $repo at $commit into $clone" >&2
    exit 1
}

yes >/dev/null &
busy=$!
cleanup() {
    kill "$busy" 2>/dev/null
    wait "$busy" 2>/dev/null
    if [ "${KEEP:-}" != 1 ] && [ "${failed:-1}" = 0 ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "soak: $runs runs of 'make test' on a fresh clone of $commit ($clone), one core kept busy by yes(1) (pid $busy); $(nproc) cores"
passed=0 failed=0
loads=()
started=$SECONDS
for run in $(seq "$runs"); do
    log=$work/run-$run.log
    begin=$SECONDS
    if (cd "$clone" && make test) >"$log" 2>&1; then
        passed=$((passed + 1)) result=passed
        [ "${KEEP:-}" = 1 ] || rm -f "$log"
    else
        failed=$((failed + 1)) result="FAILED (log: $log)"
    fi
    load=$(cut -d' ' -f1-3 /proc/loadavg)
    loads+=("${load%% *}")
    elapsed=$((SECONDS - begin))
    printf 'run %d: %s in %dm%02ds, load average %s\n' "$run" "$result" $((elapsed / 60)) $((elapsed % 60)) "$load"
done
total=$((SECONDS - started))
sorted=$(printf '%s\n' "${loads[@]}" | sort -n)
printf 'load: 1-minute load average %s to %s at the runs'"'"' ends (yes(1) on one core throughout); %dm%02ds in all\n' \
    "$(head -1 <<<"$sorted")" "$(tail -1 <<<"$sorted")" $((total / 60)) $((total % 60))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
