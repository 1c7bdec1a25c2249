#!/bin/bash
# Live benchmarks of a real `scrolld run` (docs/performance-live.md): builds scrolld (release) and
# the harness (Benchmarks/Sources/scrolld-latency), runs them and prints Markdown tables.
#
#   Benchmarks/run-live.sh [host|soak|guest|all]     (default: host)
#
#   host   on this machine: latency to 1, 100, 1000 subscribers of `scrolld run --replay` of a
#          generated log (1000 Hz wheel bursts, 7 ms finger drags), the same schedule through a
#          bare write(2) floor server, the write(2) loop floor, frame jitter, idle wake-ups over
#          10 s, resident memory. Three times: the daemon as shipped (its own SCHED_RR 10 for
#          the event loop and input thread where permitted; subscribers at normal priority), at
#          normal priority everywhere (daemon.realtime_priority = 0), and, when chrt works (root),
#          with daemon, floor server and subscribers under SCHED_FIFO 50.
#   soak   10 million events (a 1 M-event log looped at 200x, ~19 000 events/s) with 4 subscribers, sampling the
#          daemon's RSS every second: memory must stay flat after the first pass.
#   guest  the real-kernel guest (Tests/e2e, root, qemu): uinput mouse -> kernel -> libinput ->
#          scrolld run -> subscribers; latency from the kernel's event timestamp.
#
# Environment: SUBSCRIBERS (default 1,100,1000), EVENTS (host log, default 6000), IDLE (s, 10),
# SOAK_EVENTS (10000000), SOAK_SPEED (200), SOAK_SUBSCRIBERS (4), GUEST_SUBSCRIBERS (1,100,1000),
# GUEST_EVENTS (1500), GUEST_WORKDIR (default a new /tmp/scrolld-live-guest.XXXXXX).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
MODE=${1:-host}
case $MODE in host | soak | guest | all) ;; *) echo "usage: $0 [host|soak|guest|all]" >&2; exit 2;; esac

echo "building scrolld (release) and the harness..." >&2
# The binary `make release` builds and `make install` installs (the Swift runtime linked in):
# what a user runs, and what its resident memory is measured on.
release_flags=(${RELEASE_FLAGS:---static-swift-stdlib -Xlinker -z -Xlinker now})
swift build -c release "${release_flags[@]}" --product scrolld >&2
swift build -c release --package-path Benchmarks --product scrolld-latency >&2
SCROLLD=$ROOT/.build/release/scrolld
HARNESS=$ROOT/Benchmarks/.build/release/scrolld-latency

echo "# Live benchmarks ($(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "Machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2}') GiB, kernel $(uname -r); scrolld $(git describe --always --dirty 2>/dev/null || echo '?'), release build (\`make release\`: ${release_flags[*]})."
echo

if [ "$MODE" = host ] || [ "$MODE" = all ]; then
  args=(host --scrolld "$SCROLLD" --generator Benchmarks/generate-log.py
    --subscribers "${SUBSCRIBERS:-1,100,1000}" --events "${EVENTS:-6000}" --idle "${IDLE:-10}")
  # The daemon as shipped asks for SCHED_RR 10 for its event loop and input thread
  # (daemon.realtime_priority), granted here when the run may (root, CAP_SYS_NICE, RLIMIT_RTPRIO);
  # the subscribers and the floor server stay at normal priority.
  echo "# The daemon as shipped: its own SCHED_RR 10 where permitted (here: $(if chrt -r 10 true 2>/dev/null; then echo granted; else echo "not permitted: normal priority"; fi)); subscribers and floor server at normal priority"
  echo
  "$HARNESS" "${args[@]}"
  echo
  echo "# Normal priority everywhere (daemon.realtime_priority = 0)"
  echo
  "$HARNESS" "${args[@]}" --realtime-priority 0
  if chrt -f 50 true 2>/dev/null; then
    echo
    echo "# SCHED_FIFO 50 (daemon, floor server and subscribers: \`chrt -f 50\`)"
    echo
    chrt -f 50 "$HARNESS" "${args[@]}"
  else
    echo "(chrt -f is not permitted here: no SCHED_FIFO run)" >&2
  fi
fi

if [ "$MODE" = soak ] || [ "$MODE" = all ]; then
  echo
  "$HARNESS" soak --scrolld "$SCROLLD" --generator Benchmarks/generate-log.py \
    --events "${SOAK_EVENTS:-10000000}" --speed "${SOAK_SPEED:-200}" --subscribers "${SOAK_SUBSCRIBERS:-4}"
fi

if [ "$MODE" = guest ] || [ "$MODE" = all ]; then
  W=${GUEST_WORKDIR:-$(mktemp -d /tmp/scrolld-live-guest.XXXXXX)}
  mkdir -p "$W"
  echo "$ROOT/.build/release" >"$W/bin-dir"
  {
    echo "SUBSCRIBERS=${GUEST_SUBSCRIBERS:-1,100,1000}"
    echo "EVENTS=${GUEST_EVENTS:-1500}"
    echo "IDLE=${IDLE:-10}"
  } >"$W/live-guest.env"
  Tests/e2e/setup.sh >&2
  E2E_TIMEOUT=${E2E_TIMEOUT:-1500} Tests/e2e/run-guest.sh Benchmarks/live-guest.sh "$W" >&2 || {
    echo "the guest run failed; see $W (serial.log, live-guest.log)" >&2
    exit 1
  }
  echo
  cat "$W/live-guest.md"
  echo
  echo "(guest work folder: $W)"
fi
