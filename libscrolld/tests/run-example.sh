#!/bin/sh
# Runs examples/scrolld_example.c (built against the shared library) against a real daemon and
# checks what it prints: the worked example of docs/protocol.md, row 50 centred at 2092.
# usage: run-example.sh EXAMPLE_BINARY   ($SCROLLD_BIN: the daemon)
set -eu
example=$1
dir=$(mktemp -d)
pid=
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"; }
trap cleanup EXIT
printf '%s\n%s\n' \
  '{"format":"scrolld-events","version":1,"created":"2026-11-25T00:00:00Z","source":"libscrolld example"}' \
  '{"t":1000000,"dev":1,"type":"device_added","name":"Test Wheel","caps":["wheel"]}' > "$dir/quiet.scrolllog"
"$SCROLLD_BIN" run --replay "$dir/quiet.scrolllog" --socket "$dir/s.sock" --config /dev/null 2>"$dir/stderr" &
pid=$!
# Waits for the socket (a deadline that only catches a hang).
i=0
until [ -S "$dir/s.sock" ]; do
  i=$((i + 1)); [ $i -lt 3000 ] || { echo "scrolld never listened" >&2; cat "$dir/stderr" >&2; exit 1; }
  sleep 0.01
done
"$example" "$dir/s.sock" > "$dir/out"
cat "$dir/out"
head -1 "$dir/out" | grep -qx 'state feed: offset 0.0, header 200.0 px, idle' || { echo "first line is not the state at rest" >&2; exit 1; }
grep -qx 'visible rows: 0-8' "$dir/out" || { echo "no first visibleRows 0-8" >&2; exit 1; }
tail -1 "$dir/out" | grep -qx 'state feed: offset 2092.0, header 60.0 px, idle' || { echo "did not come to rest at 2092" >&2; exit 1; }
grep -qx 'visible rows: 43-56' "$dir/out" || { echo "no visibleRows 43-56" >&2; exit 1; }
echo "ok example: came to rest with row 50 centred"
