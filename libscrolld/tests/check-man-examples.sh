#!/bin/sh
# The EXAMPLE sections of libscrolld(3) and scrolld_connect(3), taken from the pages as they are
# installed, built with the warnings the tests use and run against a real daemon:
#   libscrolld(3): with no daemon it says why and exits 1 (not a poll on descriptor -1 for
#     ever); with one it prints the states of "feed";
#   scrolld_connect(3): started before the daemon, it says it waits, and connects once the
#     daemon is there.
# usage: check-man-examples.sh BUILD_DIR   ($SCROLLD_BIN: the daemon; $CC)
set -eu
build=$(cd "$1" && pwd)
CC=${CC:-cc}
dir=$(mktemp -d)
pids=
cleanup() { for p in $pids; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$dir"; }
trap cleanup EXIT
printf '%s\n%s\n' \
  '{"format":"scrolld-events","version":1,"created":"2026-11-25T00:00:00Z","source":"libscrolld man examples"}' \
  '{"t":1000000,"dev":1,"type":"device_added","name":"Test Wheel","caps":["wheel"]}' > "$dir/quiet.scrolllog"

# The first .nf ... .fi block after .SH EXAMPLE, troff escapes undone.
example() {
    sed -n '/^\.SH EXAMPLE/,/^\.SH /p' "man/$1" | sed -n '/^\.nf/,/^\.fi/p' | sed '1d;$d' |
        sed -e 's/\\-/-/g' -e 's/\\(dq/"/g' -e 's/\\e/\\/g' > "$dir/$1.inc"
    [ -s "$dir/$1.inc" ] || { echo "man/$1 has no EXAMPLE" >&2; exit 1; }
}
example libscrolld.3
cat > "$dir/libscrolld.c" <<'C'
#include <poll.h>
#include <stdio.h>
#include <scrolld.h>
static void on_state(scrolld *client, const scrolld_state *state, void *app) {
    (void)client, (void)app;
    printf("state %s %.1f\n", state->container, state->content_offset.y);
    fflush(stdout);
}
int main(void) {
    void *app = NULL;
#include "libscrolld.3.inc"
}
C
cat > "$dir/connect.c" <<'C'
#include <poll.h>
#include <stdio.h>
#include <scrolld.h>
int main(void) {
#include "scrolld_connect.3.inc"
    printf("connected: %s\n", scrolld_server(client));
    scrolld_close(client);
    return 0;
}
C
build_example() {
    $CC -std=c11 -Wall -Wextra -Werror -pedantic -Iinclude -I"$dir" -o "$dir/$1" "$dir/$1.c" \
        -L"$build" -Wl,-rpath,"$build" -lscrolld
}
build_example libscrolld

# Waits until file $1 has a line matching $2 (a deadline that only catches a hang).
wait_for() {
    i=0
    until grep -q "$2" "$1" 2>/dev/null; do
        i=$((i + 1)); [ $i -lt 6000 ] || { echo "no \"$2\" in $1:" >&2; cat "$1" >&2; exit 1; }
        sleep 0.01
    done
}
start_daemon() {  # in the runtime directory $1
    mkdir -p -m 700 "$1/scrolld"
    "$SCROLLD_BIN" run --replay "$dir/quiet.scrolllog" --socket "$1/scrolld/scrolld.sock" --config /dev/null 2>>"$dir/daemon.stderr" &
    pids="$pids $!"
}

# libscrolld(3) with no daemon: exits 1 with the reason.
mkdir -m 700 "$dir/none"
status=0
XDG_RUNTIME_DIR="$dir/none" timeout 60 "$dir/libscrolld" > /dev/null 2> "$dir/none.err" || status=$?
[ "$status" != 124 ] || { echo "libscrolld(3) EXAMPLE: still running after 60 s with no daemon" >&2; exit 1; }
[ "$status" = 1 ] || { echo "libscrolld(3) EXAMPLE: exit $status with no daemon, expected 1" >&2; exit 1; }
grep -q '^not_running: ' "$dir/none.err" || { echo "libscrolld(3) EXAMPLE did not say not_running:" >&2; cat "$dir/none.err" >&2; exit 1; }
echo "ok libscrolld(3) EXAMPLE with no daemon: $(cat "$dir/none.err")"

# ...and with one: the states of feed.
mkdir -m 700 "$dir/up"
start_daemon "$dir/up"
i=0; until [ -S "$dir/up/scrolld/scrolld.sock" ]; do i=$((i + 1)); [ $i -lt 6000 ] || { echo "scrolld never listened" >&2; exit 1; }; sleep 0.01; done
XDG_RUNTIME_DIR="$dir/up" "$dir/libscrolld" > "$dir/up.out" 2>&1 &
pids="$pids $!"
wait_for "$dir/up.out" '^state feed 0.0$'
echo "ok libscrolld(3) EXAMPLE with a daemon: $(head -1 "$dir/up.out")"

# scrolld_connect(3): started first, it waits; the daemon comes; it connects.
example scrolld_connect.3
build_example connect
mkdir -m 700 "$dir/late"
XDG_RUNTIME_DIR="$dir/late" "$dir/connect" > "$dir/late.out" 2> "$dir/late.err" &
app=$!
wait_for "$dir/late.err" '^waiting for scrolld (scrolld is not running'
start_daemon "$dir/late"
i=0
while kill -0 "$app" 2>/dev/null; do
    i=$((i + 1)); [ $i -lt 6000 ] || { echo "scrolld_connect(3) EXAMPLE never connected" >&2; kill "$app"; exit 1; }
    sleep 0.01
done
status=0; wait "$app" || status=$?
[ "$status" = 0 ] || { echo "scrolld_connect(3) EXAMPLE: exit $status" >&2; cat "$dir/late.err" >&2; exit 1; }
grep -q '^connected: scrolld ' "$dir/late.out" || { echo "scrolld_connect(3) EXAMPLE: no connection" >&2; exit 1; }
echo "ok scrolld_connect(3) EXAMPLE started before the daemon: $(head -1 "$dir/late.err"), then $(cat "$dir/late.out")"
