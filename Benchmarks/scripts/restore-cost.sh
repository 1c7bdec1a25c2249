#!/bin/bash
# What keeping the session for a restart costs (docs/design.md §16): the same
# replay under a stand-in for systemd's notify socket (it takes the FDSTORE messages and their
# descriptors), once with the store off ($FDSTORE=0, as systemd ≥ 254 says when
# FileDescriptorStoreMax=0) and once attached. Per mode: the daemon's CPU time (utime + stime
# from /proc) and resident memory with N subscribers, and the system calls by name (strace -f
# -c) with one subscriber that takes every state, divided by the states it received.
#
#   Benchmarks/scripts/restore-cost.sh SCROLLD [SUBSCRIBERS] [EVENTS] [SPEED]
#
# Prints a Markdown table; the work folder keeps the strace summaries.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCROLLD=$(realpath "$1")
SUBSCRIBERS=${2:-100}
EVENTS=${3:-3000}
SPEED=${4:-1}
W=$(mktemp -d /tmp/restore-cost.XXXXXX)
cp "$ROOT/Benchmarks/list.toml" "$W/scrolld.toml"
python3 "$ROOT/Benchmarks/generate-log.py" "$EVENTS" >"$W/log.scrolllog"
span=$(python3 -c '
import json, sys
ts = [json.loads(l).get("t", 0) for l in open(sys.argv[1])]
print((max(ts) - min(t for t in ts if t)) / 1e6 / float(sys.argv[2]))' "$W/log.scrolllog" "$SPEED")

# systemd's side of sd_notify: a datagram socket that reads each message with its descriptors.
cat >"$W/notify.py" <<'PY'
import array, os, socket, sys
path, out = sys.argv[1], sys.argv[2]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
held = []
with open(out, "w", buffering=1) as log:
    while True:
        msg, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(64 * 4))
        fds = []
        for level, kind, data in anc:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds += array.array("i", data[: len(data) - len(data) % 4])
        held += fds
        log.write("%s fds=%d\n" % (msg.decode().replace("\n", " "), len(fds)))
PY

# One Markdown row per system call: its count in `strace -c` output OFF and ON; with `changed`,
# only the calls whose counts differ or reach 100.
calls_table() {
  python3 - "$@" <<'PY'
import sys
def load(path):
    calls = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[0][0].isdigit() and f[-1] != "total":
            calls[f[-1]] = int(f[3])
    return calls
off, on = load(sys.argv[1]), load(sys.argv[2])
for name in sorted(set(off) | set(on), key=lambda n: -max(off.get(n, 0), on.get(n, 0))):
    if sys.argv[3] == "all" or off.get(name, 0) != on.get(name, 0) or max(off.get(name, 0), on.get(name, 0)) >= 100:
        print("| %s | %d | %d |" % (name, off.get(name, 0), on.get(name, 0)))
PY
}

# subscribers: connect, subscribe to main, count state lines until the log has played
subscribers() {
  python3 "$ROOT/Benchmarks/scripts/count-states.py" "$W/s.sock" "$SUBSCRIBERS" "$span"
}

# run MODE STRACE: one replay; prints "states cpu_ticks vmrss_kb vmhwm_kb"
run() {
  local mode=$1 traced=$2 env=() pid daemon
  rm -f "$W/s.sock" "$W/notify.sock"
  python3 "$W/notify.py" "$W/notify.sock" "$W/notify-$mode-$traced.log" &
  notify=$!
  while [ ! -S "$W/notify.sock" ]; do sleep 0.05; done
  env=(NOTIFY_SOCKET="$W/notify.sock")
  [ "$mode" = store ] || env+=(FDSTORE=0)
  if [ "$traced" = strace ]; then
    env "${env[@]}" strace -f -c -o "$W/strace-$mode.txt" "$SCROLLD" run --config "$W/scrolld.toml" --socket "$W/s.sock" \
      --replay "$W/log.scrolllog" --speed "$SPEED" >"$W/scrolld-$mode-$traced.log" 2>&1 &
  else
    env "${env[@]}" "$SCROLLD" run --config "$W/scrolld.toml" --socket "$W/s.sock" \
      --replay "$W/log.scrolllog" --speed "$SPEED" >"$W/scrolld-$mode-$traced.log" 2>&1 &
  fi
  daemon=$!
  read -r fewest most _ < <(subscribers)
  pid=$(pgrep -n -P "$daemon" scrolld || echo "$daemon")
  [ "$traced" = strace ] || pid=$daemon
  local stat ticks rss hwm
  stat=$(<"/proc/$pid/stat"); read -r -a f <<<"${stat##*) }"; ticks=$((f[11] + f[12]))
  rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status"); hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
  kill -TERM "$pid" 2>/dev/null || true
  wait "$daemon" || true
  kill "$notify" 2>/dev/null || true
  wait "$notify" 2>/dev/null || true
  echo "$fewest $most $ticks $rss $hwm"
}

echo "| mode | states per subscriber | CPU (ticks of 10 ms) | VmRSS / VmHWM (kB) | system calls (strace -f) | of them per state |"
echo "|---|---|---|---|---|---|"
# MODES (default "none store"): the plain runs, in this order ("none store store none" alternates).
for mode in ${MODES:-none store}; do
  read -r fewest most ticks rss hwm < <(run "$mode" plain)
  if [ ! -e "$W/strace-$mode.txt" ]; then
    read -r sfewest smost _ _ _ < <(SUBSCRIBERS=1 run "$mode" strace)
    calls=$(awk '$NF == "total" { print $(NF-2) }' "$W/strace-$mode.txt")
    per=$(python3 -c "print('%.2f' % ($calls / max($smost, 1)))")
    echo "| $mode | $fewest–$most | $ticks | $rss / $hwm | $calls ($sfewest–$smost states) | $per |"
  else
    echo "| $mode | $fewest–$most | $ticks | $rss / $hwm | | |"
  fi
done
# The exact count: one subscriber of a container the client configures, then REQUESTS scrollBy
# requests one after the other (each publishes exactly one state), under strace -f -c, with the
# replay reduced to its device line (no input, no frames).
REQUESTS=${REQUESTS:-2000}
head -n 2 "$W/log.scrolllog" >"$W/quiet.scrolllog"
exact() {
  local mode=$1 env daemon
  rm -f "$W/s.sock" "$W/notify.sock"
  python3 "$W/notify.py" "$W/notify.sock" "$W/notify-exact-$mode.log" &
  local notify=$!
  while [ ! -S "$W/notify.sock" ]; do sleep 0.05; done
  env=(NOTIFY_SOCKET="$W/notify.sock")
  [ "$mode" = store ] || env+=(FDSTORE=0)
  env "${env[@]}" strace -f -c -o "$W/strace-exact-$mode.txt" "$SCROLLD" run --config "$W/scrolld.toml" --socket "$W/s.sock" \
    --replay "$W/quiet.scrolllog" >"$W/scrolld-exact-$mode.log" 2>&1 &
  daemon=$!
  python3 - "$W/s.sock" "$REQUESTS" <<'PY'
import json, socket, sys, time
path, n = sys.argv[1], int(sys.argv[2])
while True:
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        time.sleep(0.1)
f = s.makefile("rb"); f.readline()
def ask(obj):
    s.sendall((json.dumps(obj) + "\n").encode())
    while True:
        line = json.loads(f.readline())
        if line.get("id") == obj["id"]: return line
ask({"op": "configure", "container": "list", "contentSize": {"width": 800, "height": 1e7}, "id": "c"})
ask({"op": "subscribe", "container": "list", "id": "s"})
for i in range(n):
    ask({"op": "scrollBy", "container": "list", "dy": 1, "animation": "none", "id": i})
PY
  local pid
  pid=$(pgrep -n -P "$daemon" scrolld || true)
  kill -TERM "$pid" 2>/dev/null || true
  wait "$daemon" || true
  kill "$notify" 2>/dev/null || true
  wait "$notify" 2>/dev/null || true
  awk '$NF == "total" { print $(NF-2) }' "$W/strace-exact-$mode.txt"
}
off_calls=$(exact none)
on_calls=$(exact store)
echo
echo "$REQUESTS scrollBy requests, each publishing one state to one subscriber: $off_calls system calls with the store off, $on_calls attached ($(python3 -c "print('%+d, %+.4f per publication' % ($on_calls - $off_calls, ($on_calls - $off_calls) / $REQUESTS))"))"
echo
echo "| system call (exact run) | store off | store attached |"
echo "|---|---|---|"
calls_table "$W/strace-exact-none.txt" "$W/strace-exact-store.txt" changed
echo
echo "| system call (replay run) | store off | store attached |"
echo "|---|---|---|"
calls_table "$W/strace-none.txt" "$W/strace-store.txt" all
echo "(work folder: $W)" >&2
