#!/bin/bash
# Live latency in the real-kernel guest (guest script for Tests/e2e/run-guest.sh; run-live.sh
# starts it):  Tests/e2e/run-guest.sh Benchmarks/live-guest.sh WORKDIR
#
# In the booted guest (qemu TCG, 2 vCPUs) it creates a touchpad through the e2e device server,
# then runs the host-built harness: `scrolld-latency guest` makes its own uinput wheel mouse,
# starts `scrolld run` on the udev seat (libinput, as in production) for each subscriber count,
# injects the generated log's wheel events on their schedule (1000 Hz bursts) while a few
# two-finger flings run on the touchpad, and measures arrival − t, where t is the kernel's evdev
# timestamp. Results: WORKDIR/live-guest.md (the tables), WORKDIR/live-guest.log (progress).
#
# WORKDIR/live-guest.env may set SUBSCRIBERS (default 1,100,1000), EVENTS (default 1500), IDLE
# (seconds, default 10). The binaries: WORKDIR/bin-dir (scrolld's folder, default
# <repo>/.build/release) and <repo>/Benchmarks/.build/release/scrolld-latency.
set -u
W=${1:?usage: live-guest.sh WORKDIR}
# shellcheck disable=SC1091
. "$E2E_DIR/guest-lib.sh"
REPO=$(cd "$E2E_DIR/../.." && pwd)
BIN_DIR=
[ -s "$W/bin-dir" ] && read -r BIN_DIR <"$W/bin-dir"
[ -n "$BIN_DIR" ] || BIN_DIR=$REPO/.build/release
SUBSCRIBERS=1,100,1000
EVENTS=1500
IDLE=10
# shellcheck disable=SC1091
[ -s "$W/live-guest.env" ] && . "$W/live-guest.env"
HARNESS=$REPO/Benchmarks/.build/release/scrolld-latency
[ -x "$HARNESS" ] || e2e_fail "no harness at $HARNESS (run Benchmarks/run-live.sh, which builds it)"
[ -x "$BIN_DIR/scrolld" ] || e2e_fail "no scrolld in $BIN_DIR"

e2e_devices_start touchpad
RUN=/run/scrolld-latency        # guest-local: sockets (9p refuses them)
mkdir -p "$RUN"
# Two-finger flings during the wheel schedule, for frames in the decelerating phase. The hook
# is a new bash that talks to this device server like e2e_dev does.
cat >"$RUN/flings.sh" <<HOOK
. "$E2E_DIR/guest-lib.sh"
E2E_UINPUT_PID=$E2E_UINPUT_PID
for i in 1 2 3 4; do
  sleep 2
  e2e_dev touchpad-scroll --dy 25 --frames 8 >/dev/null
done
HOOK
export E2E_DIR E2E_WORKDIR

e2e_log "scrolld-latency guest: subscribers $SUBSCRIBERS, $EVENTS events"
"$HARNESS" guest --scrolld "$BIN_DIR/scrolld" --generator "$REPO/Benchmarks/generate-log.py" \
  --work "$RUN" --subscribers "$SUBSCRIBERS" --events "$EVENTS" --idle "$IDLE" \
  --evdev "$DEV_TOUCHPAD_NODE" --hook "bash $RUN/flings.sh" \
  >"$W/live-guest.md" 2>"$W/live-guest.log"
status=$?
e2e_log "scrolld-latency guest exited with $status"
[ $status = 0 ] || tail -30 "$W/live-guest.log"
cp "$RUN"/scrolld-latency.*/scrolld-*.log "$W/" 2>/dev/null
e2e_devices_stop
exit $status
