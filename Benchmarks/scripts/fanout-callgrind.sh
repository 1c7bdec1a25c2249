#!/bin/bash
# The fan-out's cost in instructions (docs/performance-live.md, finding 3):
# `scrolld run --replay` under callgrind with N subscribers, slowed down so that each published
# state is delivered on its own, then the instructions spent in `Publisher.deliver` (inclusive:
# everything a publish does per subscriber, NIO's write path included, the kernel not) divided by
# the subscriber writes it made.
#
#   Benchmarks/scripts/fanout-callgrind.sh SCROLLD [SUBSCRIBERS] [EVENTS] [SPEED]
#
# SCROLLD_NIO_WRITES=1 in the environment measures the same binary with every write through
# NIO's channel (as before the fan-out wrote sockets directly, docs/decisions.md). SCROLLD is a
# release build; valgrind 3.19 cannot read Swift 6.3's DWARF, so a `strip -g` copy is what runs
# (symbols stay). Prints one Markdown row; the callgrind file stays in the work folder for
# callgrind_annotate (pipe it through `swift demangle --simplified`).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SCROLLD=$(realpath "$1")
SUBSCRIBERS=${2:-100}
EVENTS=${3:-300}
SPEED=${4:-0.05}
LEAD_IN=${LEAD_IN:-20}  # s: valgrind starts slowly, and every subscriber must be in first
W=$(mktemp -d /tmp/fanout-callgrind.XXXXXX)

strip -g -o "$W/scrolld" "$SCROLLD"
cp "$ROOT/Benchmarks/list.toml" "$W/scrolld.toml"
# The generated log with its input moved LEAD_IN later (replay time: divided by SPEED).
python3 "$ROOT/Benchmarks/generate-log.py" "$EVENTS" | python3 -c '
import json, sys
lead = int(float(sys.argv[1]) * float(sys.argv[2]) * 1e6)
for line in sys.stdin:
    event = json.loads(line)
    if "t" in event and event.get("type") != "device_added":
        event["t"] += lead
    sys.stdout.write(json.dumps(event, separators=(",", ":")) + "\n")
' "$LEAD_IN" "$SPEED" >"$W/log.scrolllog"
span=$(python3 -c '
import json, sys
ts = [json.loads(l).get("t", 0) for l in open(sys.argv[1])]
print((max(ts) - min(t for t in ts if t)) / 1e6 / float(sys.argv[2]))' "$W/log.scrolllog" "$SPEED")

valgrind --tool=callgrind --callgrind-out-file="$W/callgrind.out" \
  "$W/scrolld" run --config "$W/scrolld.toml" --socket "$W/s.sock" --replay "$W/log.scrolllog" --speed "$SPEED" \
  >"$W/scrolld.log" 2>&1 &
daemon=$!

# N subscribers on one thread; each counts the state lines it gets until the log has played.
python3 "$ROOT/Benchmarks/scripts/count-states.py" "$W/s.sock" "$SUBSCRIBERS" "$span" >"$W/subscribers.txt"
kill -TERM $daemon
wait $daemon || true

read -r fewest most total <"$W/subscribers.txt"
python3 - "$W/callgrind.out" "$SUBSCRIBERS" "$total" "$fewest" "$most" <<'EOF'
import re, subprocess, sys
path, n, total, fewest, most = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
names, inclusive, writes = {}, {}, 0
fn = cfn = None
pending_calls = None
def name(field):
    m = re.match(r"\((\d+)\)(?: (.*))?", field)
    if not m: return field
    if m.group(2): names[m.group(1)] = m.group(2)
    return names.get(m.group(1), "")
total_ir = 0
def is_deliver(fn):
    # Publisher.deliver and deliverObservations (DaemonCore's before the core had parts;
    # mangled, ScrollDaemon.DaemonCore is "12ScrollDaemon0B4Core", the module's "Daemon" reused).
    return "deliver" in fn and ("Publisher" in fn or "DaemonCore" in fn or "12ScrollDaemon0B4Core" in fn)
for line in open(path):
    if line.startswith("fn="): fn = name(line[3:].strip()); continue
    if line.startswith("cfn="): cfn = name(line[4:].strip()); continue
    if line.startswith("calls="):
        pending_calls = int(line[6:].split()[0]); continue
    if line[:1].isdigit() or line[:1] in "+-*":
        parts = line.split()
        cost = int(parts[1]) if len(parts) > 1 else 0
        if pending_calls is not None:
            # A call line: its cost is the callee's inclusive cost from this caller.
            # NIO writes with write/writev, the direct path with send.
            if cfn in ("write", "writev", "__libc_write", "__writev", "send", "__send", "__libc_send"): writes += pending_calls
            if is_deliver(fn) and cfn != fn:
                inclusive[fn] = inclusive.get(fn, 0) + cost
            pending_calls = None
        else:
            if is_deliver(fn):
                inclusive[fn] = inclusive.get(fn, 0) + cost
            total_ir += cost
demangled = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(inclusive), capture_output=True, text=True).stdout.split("\n")
deliver = sum(inclusive.values())
subscriber_writes = writes - 2 * n  # the welcome and the subscribe reply of each
print("functions counted:", "; ".join(d for d in demangled if d), file=sys.stderr)
print(f"| {n} | {total} ({fewest}–{most} per subscriber) | {subscriber_writes} | {total / max(subscriber_writes, 1):.2f} | {deliver:,} | {deliver / max(subscriber_writes, 1):,.0f} | {total_ir:,} |")
EOF
echo "(work folder: $W)" >&2
