#!/bin/bash
# Guest script proving the harness: real uinput devices reach libinput in the guest.
#   Tests/e2e/setup.sh && Tests/e2e/run-guest.sh Tests/e2e/smoke-guest.sh [WORKDIR]
#
# Creates the devices, records `libinput debug-events` (libinput-tools, a reference only: it is
# not scrolld) while injecting every scenario, and checks the transcript. Leaves in WORKDIR:
#   debug-events.txt       the transcript (a real libinput 1.22 capture, usable as a fixture)
#   devices.json / .env    the devices (nodes, sysnames), including removed ones
#   uinput-devices.log     what the device server did, with guest monotonic timestamps
#   injected.txt           the scenarios in order, with the guest uptime at which each ran
#   results.txt            one PASS/FAIL line per check, then "N passed, M failed"
set -u
W=${1:?usage: smoke-guest.sh WORKDIR}
# shellcheck disable=SC1091
. "$E2E_DIR/guest-lib.sh"

T=$W/debug-events.txt
rm -f "$T" "$W/injected.txt" "$W/uinput-devices.log"
E2E_RESULTS=$W/results.txt
: >"$E2E_RESULTS"

e2e_devices_start mouse,touchpad,keyboard,full-keyboard

stdbuf -oL libinput debug-events >"$T" 2>&1 &
DE=$!
# debug-events lists the devices present when it starts; the last one added means it is ready.
e2e_wait_for "$T" "DEVICE_ADDED +scrolld-e2e full keyboard " 60 || e2e_fail "debug-events did not start"
e2e_log "debug-events recording"

inject() {
  echo "$(e2e_uptime) $*" >>"$W/injected.txt"
  e2e_dev "$@" >/dev/null || e2e_fail "inject $*"
  sleep 0.3  # keeps scenarios apart (libinput's wheel and gesture timeouts)
}

inject wheel -2                        # two classic clicks, wheel toward the user (down)
inject wheel 2                         # and back (up)
inject hires-wheel -120 --step 30      # one detent in four hi-res quarter steps, down
inject hires-wheel 120 --step 30       # up
inject hwheel 1                        # horizontal wheel, right
inject hwheel -1                       # left
inject touchpad-scroll --dy -20        # two fingers 20 mm up in 25 frames, lifted
inject touchpad-scroll --dx 15 --dy 0  # two fingers 15 mm right, lifted
inject type abc                        # letters-only keyboard
inject type abc --device full-keyboard
inject add mouse --id mouse2           # hotplug: a device added while recording
e2e_wait_for "$T" "^[- ]$DEV_MOUSE2_SYSNAME +DEVICE_ADDED" 30 || e2e_fail "debug-events did not see mouse2"
inject wheel -1 --device mouse2
inject touchpad-remove-mid-scroll      # two fingers down and moving, then unplugged
e2e_wait_for "$T" "^[- ]$DEV_TOUCHPAD_SYSNAME +DEVICE_REMOVED" 30 || true

sleep 0.5
kill -INT "$DE"
wait "$DE"
e2e_devices_stop
e2e_log "debug-events stopped; transcript: $(wc -l <"$T") lines"
echo "----- $T -----"
cat "$T"
echo "----- end of $T -----"

# --- checks -------------------------------------------------------------------------------
# Lines look like (1.22): "-event0   POINTER_SCROLL_WHEEL    +0.968s<TAB>vert -15.00/-120.0* ..."
# "-" starts a run of lines from one device, " " continues it.
has() { grep -Eq -- "$1" "$T"; }
of() { grep -E -- "^[- ]$1 +" "$T"; }  # lines of one device (event sysname)
mouse=$DEV_MOUSE_SYSNAME
touchpad=$DEV_TOUCHPAD_SYSNAME
added() { of "$1" | grep -E " DEVICE_ADDED " | head -n 1; }
matches() { grep -Eq -- "$2" <<<"$1"; }

e2e_check "mouse added as a pointer" matches "$(added "$mouse")" "scrolld-e2e hi-res wheel mouse .* cap:p( |$)"
e2e_check "touchpad added as a pointer with gestures" matches "$(added "$touchpad")" "scrolld-e2e touchpad .* cap:pg( |$)"
e2e_check "letters-only keyboard added as a keyboard device (cap:k)" \
  matches "$(added "$DEV_KEYBOARD_SYSNAME")" "scrolld-e2e keyboard .* cap:k( |$)"
e2e_check "full keyboard added as a keyboard device (cap:k)" \
  matches "$(added "$DEV_FULL_KEYBOARD_SYSNAME")" "scrolld-e2e full keyboard .* cap:k( |$)"
keys=$( { of "$DEV_KEYBOARD_SYSNAME"; of "$DEV_FULL_KEYBOARD_SYSNAME"; } | grep -c " KEYBOARD_KEY ")
e2e_check "both keyboards produced key events (12 expected, got $keys)" test "$keys" = 12
others=$(grep -E " DEVICE_ADDED " "$T" | grep -vE " DEVICE_ADDED +scrolld-e2e " || true)
e2e_check "no device other than the test's ones${others:+: $others}" test -z "$others"

wheel=$(of "$mouse" | grep -E "POINTER_SCROLL_WHEEL" || true)
V="POINTER_SCROLL_WHEEL +[+][0-9.]+s[[:space:]]+"
e2e_check "classic clicks down: v120 +120 (x2)" \
  test "$(grep -cE -- "${V}vert 15\.00/120\.0\* horiz 0\.00/0\.0 \(wheel\)" <<<"$wheel")" = 2
e2e_check "classic clicks up: v120 -120 (x2)" \
  test "$(grep -cE -- "${V}vert -15\.00/-120\.0\* horiz 0\.00/0\.0 \(wheel\)" <<<"$wheel")" = 2
# libinput (>= 1.20) holds hi-res movement back until it reaches half a detent, then passes
# every event on: 4 x 30 arrive as 60, 30, 30.
e2e_check "hi-res partial clicks down: v120 60, 30, 30" \
  matches "$wheel" "${V}vert 7\.50/60\.0\*.*"$'\n'".*${V}vert 3\.75/30\.0\*.*"$'\n'".*${V}vert 3\.75/30\.0\*"
e2e_check "hi-res partial clicks up: v120 -60, -30, -30" \
  matches "$wheel" "${V}vert -7\.50/-60\.0\*.*"$'\n'".*${V}vert -3\.75/-30\.0\*.*"$'\n'".*${V}vert -3\.75/-30\.0\*"
e2e_check "horizontal wheel right: v120 +120" matches "$wheel" "${V}vert 0\.00/0\.0 horiz 15\.00/120\.0\* \(wheel\)"
e2e_check "horizontal wheel left: v120 -120" matches "$wheel" "${V}vert 0\.00/0\.0 horiz -15\.00/-120\.0\* \(wheel\)"

finger=$(of "$touchpad" | grep -E "POINTER_SCROLL_FINGER" || true)
F="POINTER_SCROLL_FINGER +[+][0-9.]+s[[:space:]]+"
STOP="${F}vert 0\.00/0\.0\* horiz 0\.00/0\.0\* \(finger\)"
e2e_check "two-finger scroll up: negative vertical finger values" \
  matches "$finger" "${F}vert -[0-9.]*[1-9][0-9.]*/0\.0\* horiz 0\.00/0\.0 \(finger\)"
e2e_check "two-finger scroll right: positive horizontal finger values" \
  matches "$finger" "${F}vert 0\.00/0\.0 horiz [0-9.]*[1-9][0-9.]*/0\.0\* \(finger\)"
# Three finger scrolls (up, right, cut by the removal), each: movement, then one stop.
runs=$(awk -v stop="$STOP" '
  $0 ~ stop { if (moving >= 3) runs++; moving = 0; next }
  { moving++ }
  END { print runs + 0 }' <<<"$finger")
e2e_check "each finger scroll ends with a stop, both axes 0.00 and marked * (3 expected, got $runs)" \
  test "$runs" = 3
e2e_check "hotplugged mouse2 added while recording, and scrolled" \
  matches "$(of "$DEV_MOUSE2_SYSNAME")" "DEVICE_ADDED.*"$'\n'".*${V}vert 15\.00/120\.0\*"
e2e_check "touchpad removed mid-scroll: libinput ends the gesture with a stop, then DEVICE_REMOVED" \
  matches "$(of "$touchpad" | tail -n 2)" "${STOP}"$'\n'"[- ]$touchpad +DEVICE_REMOVED "

e2e_checks_done
