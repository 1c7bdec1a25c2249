# The demo fallback on a real seat (`run --fallback-replay`, docs/design.md §11), sourced by
# scrolld-guest.sh after its main daemon has stopped (shellcheck shell=bash). A daemon of its own
# on seat `seat-e2e-demo` (XDG_SEAT), where no device is: it serves examples/demo.scrolllog in a
# loop. A udev rule puts a mouse hotplugged for it on that seat: the demo ends before the mouse
# goes in (the log's device numbers and libinput's both count from 1, and must never meet in the
# engine), `devices` lists the mouse alone, its click moves `main`; unplugged, the demo serves
# again and `devices` lists the log's devices.
# Uses scrolld-guest.sh's SCROLLD, BIN_DIR, REPO, RUN, W, inject, fatal and check.
# shellcheck disable=SC2154  # the variables above are scrolld-guest.sh's

DEMO_SEAT=seat-e2e-demo
DEMO_SOCK=$RUN/demo.sock
DEMO_LOG=$W/demo-daemon.log
DEMO_MOUSE="scrolld-e2e demo-seat mouse"
DEMO_RULE=/run/udev/rules.d/90-scrolld-e2e-demo-seat.rules
DEMO_PID=
DEMO_RC=

# `scrollctl devices` of the demo daemon into FILE.
demo_devices() { "$BIN_DIR/scrollctl" devices --socket "$DEMO_SOCK" --timeout 30 >"$1" 2>&1; }

fallback_scenario() {
  rm -f "$DEMO_LOG" "$W"/demo-devices-*.txt "$W"/demo-get-*.json
  mkdir -p "${DEMO_RULE%/*}"
  printf 'SUBSYSTEM=="input", ATTRS{name}=="%s", ENV{ID_SEAT}="%s"\n' "$DEMO_MOUSE" "$DEMO_SEAT" >"$DEMO_RULE"
  udevadm control --reload || fatal "udevadm control --reload (the demo seat's rule)"
  : >"$W/demo.toml"
  XDG_SEAT=$DEMO_SEAT "$SCROLLD" run --socket "$DEMO_SOCK" --config "$W/demo.toml" \
    --fallback-replay "$REPO/examples/demo.scrolllog" 2>"$DEMO_LOG" &
  DEMO_PID=$!
  e2e_wait_for "$DEMO_LOG" "DEMO: serving" 90 || fatal "the demo daemon serves its fallback log on an empty seat"
  e2e_wait_for "$DEMO_LOG" "listening on" 30 || fatal "the demo daemon listens"
  demo_devices "$W/demo-devices-before.txt"
  inject add mouse --id mouse3 --name "$DEMO_MOUSE"
  e2e_wait_for "$DEMO_LOG" "DEMO ends: \"$DEMO_MOUSE\" arrived" 60 || e2e_log "the demo did not end when the mouse arrived"
  demo_devices "$W/demo-devices-during.txt"
  # Once what the demo set moving has come to rest, two clicks towards the far side of main.
  local deadline=$((SECONDS + 60))
  until "$BIN_DIR/scrollctl" get main --socket "$DEMO_SOCK" --timeout 30 >"$W/demo-get-before.json" 2>&1 \
    && grep -q '"phase":"idle"' "$W/demo-get-before.json"; do
    [ "$SECONDS" -lt "$deadline" ] || { e2e_log "main did not come to rest after the demo ended"; break; }
    sleep 0.3
  done
  if "$PY" -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["contentOffset"]["y"] < 100 else 1)' "$W/demo-get-before.json"; then
    inject wheel -2 --device mouse3   # down
  else
    inject wheel 2 --device mouse3    # up
  fi
  "$BIN_DIR/scrollctl" get main --socket "$DEMO_SOCK" --timeout 30 >"$W/demo-get-after.json" 2>&1
  inject remove mouse3
  e2e_wait_for "$DEMO_LOG" "DEMO: serving .* \(the last input device left\)" 60 || e2e_log "the demo did not come back when the mouse left"
  demo_devices "$W/demo-devices-after.txt"
  kill -TERM "$DEMO_PID"
  wait "$DEMO_PID"
  DEMO_RC=$?
  DEMO_PID=
  rm -f "$DEMO_RULE"
  udevadm control --reload
}

# The checks, once every process has stopped.
fallback_checks() {
  check "the demo daemon exits 0 on SIGTERM (got $DEMO_RC)" test "$DEMO_RC" = 0
  demo_before() { cat "$W/demo-devices-before.txt"; grep -q "Logitech MX Master 3" "$W/demo-devices-before.txt" && ! grep -q "$DEMO_MOUSE" "$W/demo-devices-before.txt"; }
  check "on an empty seat, devices lists the fallback log's devices" demo_before
  demo_during() {
    cat "$W/demo-devices-during.txt" "$DEMO_LOG"
    grep -q "DEMO ends: \"$DEMO_MOUSE\" arrived" "$DEMO_LOG" \
      && grep -q "$DEMO_MOUSE.*/dev/input/event" "$W/demo-devices-during.txt" \
      && ! grep -q "Logitech MX Master 3\|Generic USB Mouse\|Synaptics" "$W/demo-devices-during.txt"
  }
  check "a mouse hotplugged on the demo's seat ends the demo first: devices lists the mouse alone" demo_during
  demo_moved() {
    cat "$W/demo-get-before.json" "$W/demo-get-after.json"
    "$PY" - "$W/demo-get-before.json" "$W/demo-get-after.json" <<'PYEOF'
import json, sys
before, after = (json.load(open(p))["contentOffset"]["y"] for p in sys.argv[1:])
print("y", before, "->", after)
sys.exit(0 if abs(after - before) >= 1 else 1)
PYEOF
  }
  check "the hotplugged mouse's clicks move main once the demo has ended" demo_moved
  demo_after() {
    cat "$W/demo-devices-after.txt"
    grep -q "DEMO: serving .* (the last input device left)" "$DEMO_LOG" \
      && grep -q "Logitech MX Master 3" "$W/demo-devices-after.txt" && ! grep -q "$DEMO_MOUSE" "$W/demo-devices-after.txt"
  }
  check "unplugged, the mouse gives the seat back to the demo: devices lists the log's devices again" demo_after
}
