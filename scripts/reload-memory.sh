#!/usr/bin/env bash
# Measures the resident memory of a real `scrolld run` across many configuration reloads: the
# daemon replays examples/demo.scrolllog (no input devices needed) with config/scrolld.toml,
# a client sends `reload` requests over the socket, and VmRSS is read from /proc after each
# batch. A reader that leaks on every parse shows as RSS growing with the count.
#
# Usage: scripts/reload-memory.sh [SCROLLD] [RELOADS] [BATCH]
#        (default: .build/debug/scrolld, 5000 reloads, batches of 500)
set -euo pipefail
cd "$(dirname "$0")/.."
SCROLLD=${1:-.build/debug/scrolld}
RELOADS=${2:-5000}
BATCH=${3:-500}
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
socket=$dir/scrolld.sock
XDG_CONFIG_HOME=$dir "$SCROLLD" run --socket "$socket" --config config/scrolld.toml \
    --replay examples/demo.scrolllog >"$dir/log" 2>&1 &
pid=$!
for _ in $(seq 100); do [ -S "$socket" ] && break; sleep 0.1; done
[ -S "$socket" ] || { echo "scrolld did not start:" >&2; cat "$dir/log" >&2; exit 1; }
python3 - "$socket" "$pid" "$RELOADS" "$BATCH" <<'PY'
import json, socket, sys
path, pid, total, batch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
s = socket.socket(socket.AF_UNIX); s.connect(path); f = s.makefile("rwb")
f.readline()  # hello
def rss():
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"): return int(line.split()[1])
def reload(n):
    f.write(json.dumps({"op": "reload", "id": n}).encode() + b"\n"); f.flush()
    while True:
        reply = json.loads(f.readline())
        if reply.get("id") == n:
            assert reply["type"] == "reloaded" and reply["ok"], reply
            return
for n in range(50): reload(n)  # warm up: allocator pools, first-use caches
print(f"after {50:5d} reloads: VmRSS {rss()} kB")
done = 50
while done < total:
    for n in range(done, min(done + batch, total)): reload(n)
    done = min(done + batch, total)
    print(f"after {done:5d} reloads: VmRSS {rss()} kB")
PY
