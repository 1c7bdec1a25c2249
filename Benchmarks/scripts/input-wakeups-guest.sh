#!/bin/bash
# What reading real input costs the daemon (docs/performance.md, "Input flow control"): a uinput
# wheel mouse turned 1000 detents 10 ms apart (a loop that keeps up) and 1 ms apart (a debug
# build under TCG falls behind), read by `scrolld run` with one subscriber; for each scrolld
# binary named in WORKDIR/binaries (one path a line), the input thread's voluntary context
# switches (its sleeps in poll(2)) and the daemon's CPU time over the stream, from /proc. Runs in the real-kernel guest:
#   Tests/e2e/setup.sh && Tests/e2e/run-guest.sh Benchmarks/scripts/input-wakeups-guest.sh WORKDIR
# Prints a Markdown table to WORKDIR/wakeups.md. A figure, not a check.
set -u
W=${1:?usage: input-wakeups-guest.sh WORKDIR}
# shellcheck disable=SC1091
. "$E2E_DIR/guest-lib.sh"
RUN=/run/scrolld-wakeups
mkdir -p "$RUN"
E2E_UINPUT_CTL=$RUN/ctl
mkdir -p "$E2E_UINPUT_CTL"
e2e_devices_start mouse
CONFIG=$(cd "$E2E_DIR/../.." && pwd)/Benchmarks/list.toml   # the live benchmarks' list

thread_switches() {  # pid, thread name
  local t
  for t in /proc/"$1"/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = "$2" ] && { awk '/^voluntary_ctxt_switches/ {print $2}' "$t/status"; return; }
  done
  echo 0
}
cpu_ns() {
  local total=0 f v
  for f in /proc/"$1"/task/*/schedstat; do read -r v _ <"$f" 2>/dev/null || continue; total=$((total + v)); done
  echo "$total"
}

echo "| binary | interval, ms | run | detents | input thread sleeps | per detent | daemon CPU, ms |" >"$W/wakeups.md"
echo "|---|---|---|---|---|---|---|" >>"$W/wakeups.md"
while read -r binary; do
  [ -n "$binary" ] || continue
  for interval in 10 1; do
  for run in 1 2; do
    rm -f "$RUN/s.sock"
    "$binary" run --config "$CONFIG" --socket "$RUN/s.sock" --device "$DEV_MOUSE_NODE" 2>"$W/daemon.log" &
    daemon=$!
    until [ -S "$RUN/s.sock" ]; do sleep 0.1; done
    "$E2E_PYTHON" -c "
import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
s.sendall(b'{\"op\":\"subscribe\",\"container\":\"main\",\"id\":1}\n')
while s.recv(65536): pass" "$RUN/s.sock" &
    subscriber=$!
    sleep 2
    before_sw=$(thread_switches "$daemon" scrolld-input) before_cpu=$(cpu_ns "$daemon")
    e2e_dev wheel 1000 --interval-ms "$interval" >/dev/null
    sleep 2
    after_sw=$(thread_switches "$daemon" scrolld-input) after_cpu=$(cpu_ns "$daemon")
    kill "$subscriber" "$daemon"; wait "$daemon" 2>/dev/null
    sleeps=$((after_sw - before_sw))
    printf '| %s | %d | %d | 1000 | %d | %s | %s |\n' "$binary" "$interval" "$run" "$sleeps" \
      "$(awk -v s="$sleeps" 'BEGIN { printf "%.2f", s / 1000 }')" \
      "$(awk -v c="$((after_cpu - before_cpu))" 'BEGIN { printf "%.0f", c / 1e6 }')" >>"$W/wakeups.md"
  done
  done
done <"$W/binaries"
cat "$W/wakeups.md"
