# The directional lock on real input (docs/design.md §22), sourced by scrolld-guest.sh after its
# main daemon has stopped (shellcheck shell=bash). A daemon of its own (`lock.scrolllog`, its
# own socket) and a subscriber that configures container `lock`: both axes, content far larger
# than the container on each, `directional_lock = true`, and the whole glass as its
# `touch_frame` (400 px per unit). On a touchpad hotplugged for it, three two-finger swipes in
# 50 frames (about 4 px of travel each, so the first one or two are held), lifted with velocity,
# each waited for until its fling has come to rest:
#   1. a diagonal (45°: 14 mm right, 14 mm down): both axes move, the drag and its fling;
#   2. a nearly vertical one (10° off vertical: 3.5 mm right, 20 mm down): x never moves;
#   3. one 20° off vertical (7.3 mm right, 20 mm down), still within 22.5°: x never moves.
# libinput's own constraint on two-finger scrolling zeroes the minor axis of a scroll close to
# an axis (every run here: no x at all at 10° and at 20°), so a finger on the touchscreen then
# drags the container nearly vertically too (12 px across for 120 px up): positions libinput
# does not constrain, where only the lock keeps x still.
# Then the touchpad is removed (the fault recorders that follow never see it), and
# check-lock.py holds the states (the replay of the daemon's recording, itself held to the live
# subscriber byte for byte) to the rule computed from the events the daemon recorded.
# Uses scrolld-guest.sh's SCROLLD, RUN, PY, W, inject, fatal, json_t and result.
# shellcheck disable=SC2154  # the variables above are scrolld-guest.sh's

LOCK_SOCK=$RUN/lock.sock
LOCK_REC=$W/lock.scrolllog
LOCK_LIVE=$W/live-lock.jsonl
LOCK_TOUCHPAD="scrolld-e2e lock touchpad"
LOCK_CONFIG='{"axes":"both","containerSize":{"width":400,"height":400},"contentSize":{"width":100000,"height":100000},"directional_lock":true,"touch_frame":{"x":0,"y":0,"width":1,"height":1}}'
LOCK_PID=
LOCK_SUB_PID=

# Until the last swipe's fling has rested and the indicators have hidden: the container's last
# live state is idle, shows no indicator and is later than the last finger event recorded.
lock_wait_for_rest() {
  local last last_finger= deadline=$((SECONDS + 60)) l
  while :; do
    while IFS= read -r l; do case $l in *'"type":"finger"'* | *'"type":"touch_up"'*) last_finger=$(json_t "$l") ;; esac; done <"$LOCK_REC"
    last=
    while IFS= read -r l; do last=$l; done <"$LOCK_LIVE"
    case $last in *'"visible":true'*) ;; *'"phase":"idle"'*) [ -n "$last_finger" ] && [ "$(json_t "$last")" -gt "$last_finger" ] && return 0 ;; esac
    [ "$SECONDS" -lt "$deadline" ] || { e2e_log "the lock container did not come to rest within 60 s"; return 1; }
    sleep 0.3
  done
}

lock_scenario() {
  rm -f "$LOCK_REC" "$LOCK_LIVE" "$W/lock.toml" "$W/lock-daemon.log" "$W/subscriber-lock.log" "$W"/replay-lock.*
  : >"$W/lock.toml"  # the defaults: no per-device rule, fingerScale 1
  inject add touchpad --id touchpad3 --name "$LOCK_TOUCHPAD"
  "$SCROLLD" run --socket "$LOCK_SOCK" --config "$W/lock.toml" --record "$LOCK_REC" 2>"$W/lock-daemon.log" &
  LOCK_PID=$!
  e2e_wait_for "$LOCK_REC" "\"type\":\"device_added\",\"name\":\"$LOCK_TOUCHPAD\"" 90 \
    || fatal "the lock daemon recorded the lock touchpad"
  "$PY" "$RUN/subscriber.py" "$LOCK_SOCK" "$LOCK_LIVE" lock "$LOCK_CONFIG" 2>"$W/subscriber-lock.log" &
  LOCK_SUB_PID=$!
  e2e_wait_for "$LOCK_LIVE" '"type":"state"' 60 || fatal "the lock subscriber received its subscription's state"
  PAUSE=0 inject touchpad-scroll --device touchpad3 --dx 14 --dy 14 --frames 50
  lock_wait_for_rest || fatal "the diagonal swipe's fling came to rest"
  PAUSE=0 inject touchpad-scroll --device touchpad3 --dx 3.5 --dy 20 --frames 50
  lock_wait_for_rest || fatal "the nearly vertical swipe's fling came to rest"
  PAUSE=0 inject touchpad-scroll --device touchpad3 --dx 7.3 --dy 20 --frames 50
  lock_wait_for_rest || fatal "the swipe 20° off vertical came to rest"
  PAUSE=0 inject touch-drag 0.5 0.8 0.03 -0.3 --frames 30 --interval-ms 12
  lock_wait_for_rest || fatal "the touch drag's fling came to rest"
  kill -TERM "$LOCK_PID"
  wait "$LOCK_PID"
  LOCK_RC=$?
  LOCK_PID=
  for _ in $(seq 50); do kill -0 "$LOCK_SUB_PID" 2>/dev/null || break; sleep 0.1; done
  kill -TERM "$LOCK_SUB_PID" 2>/dev/null
  wait "$LOCK_SUB_PID" 2>/dev/null
  LOCK_SUB_PID=
  inject remove touchpad3
}

# The checks, once every process has stopped.
lock_checks() {
  check "the lock daemon exits 0 on SIGTERM (got $LOCK_RC)" test "$LOCK_RC" = 0
  "$SCROLLD" replay "$LOCK_REC" --container lock >"$W/replay-lock.jsonl" 2>"$W/replay-lock.err"
  LOCK_REPLAY_RC=$?
  lock_replay_clean() { cat "$W/replay-lock.err"; [ "$LOCK_REPLAY_RC" = 0 ] && ! [ -s "$W/replay-lock.err" ]; }
  check "scrolld replay of the lock daemon's recording for container lock exits 0 with no warning (got $LOCK_REPLAY_RC)" lock_replay_clean
  PYTHONDONTWRITEBYTECODE=1 "$PY" "$E2E_DIR/check-lock.py" "$W" "$LOCK_TOUCHPAD" >"$W/check-lock.log" 2>&1
  local rc=$?
  cat "$W/check-lock.log"
  [ "$rc" = 0 ] || result FAIL "the lock checker itself ran (exit $rc)" "$(tail -n 20 "$W/check-lock.log")"
}
