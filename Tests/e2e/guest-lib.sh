# Helpers for guest scripts (bash). Source it:  . "$E2E_DIR/guest-lib.sh"
# shellcheck shell=bash disable=SC2015
#
#   e2e_log MESSAGE...                 a timestamped line on the console (serial log)
#   e2e_fail MESSAGE...                logs FAIL and exits 1
#   e2e_check DESCRIPTION COMMAND...   runs COMMAND; logs "ok"/"FAIL" (failures are counted);
#                                      with E2E_RESULTS set (a file), also appends a "PASS: ..."
#                                      or "FAIL: ..." line to it, as summarize.py reads them
#   e2e_checks_done                    exits 1 if any e2e_check failed; with E2E_RESULTS, first
#                                      appends the final "N passed, M failed" line
#   e2e_devices_start [KINDS]          starts uinput-devices.py (default: all kinds) serving
#                                      commands; waits until the devices are ready; sources
#                                      $E2E_WORKDIR/devices.env (DEV_MOUSE_NODE, ...)
#   e2e_dev COMMAND [ARGS...]          one command to the device server (see
#                                      `uinput-devices.py commands`), waits until it is done,
#                                      prints its JSON result, refreshes the DEV_* variables
#   e2e_devices_stop                   destroys the devices, stops the server
#   e2e_wait_for FILE ERE [SECONDS]    waits until a line of FILE matches ERE (default 30 s)
#
# The command client is plain bash builtins on one reply FIFO per shell (no python start-up and
# no fork per command: each costs 0.1-1 s under TCG).

E2E_UINPUT_CTL=${E2E_UINPUT_CTL:-/run/e2e-uinput}  # guest-local: 9p shares refuse FIFOs
E2E_PYTHON=${E2E_PYTHON:-/usr/bin/python3}
E2E_UINPUT_PID=
_e2e_failures=0
_e2e_passes=0
_e2e_reply_pid=
_e2e_reply_fd=
_e2e_reply=

# The build a guest script runs: the folder WORKDIR/bin-dir names (a release build, a copy), else
# REPO's debug build.
e2e_bin_dir() { local dir=; [ -s "$1/bin-dir" ] && read -r dir <"$1/bin-dir"; echo "${dir:-$2/.build/debug}"; }
e2e_uptime() { local up _; read -r up _ </proc/uptime; echo "$up"; }
e2e_log() { local up _; read -r up _ </proc/uptime; echo "e2e[$up]: $*"; }
e2e_fail() { e2e_log "FAIL: $*"; exit 1; }

e2e_check() {
  local what=$1
  shift
  if "$@"; then
    e2e_log "ok   $what"
    _e2e_passes=$((_e2e_passes + 1))
    [ -z "${E2E_RESULTS:-}" ] || echo "PASS: $what" >>"$E2E_RESULTS"
  else
    e2e_log "FAIL $what"
    _e2e_failures=$((_e2e_failures + 1))
    [ -z "${E2E_RESULTS:-}" ] || echo "FAIL: $what" >>"$E2E_RESULTS"
  fi
}

e2e_checks_done() {
  [ -z "${E2E_RESULTS:-}" ] || echo "$_e2e_passes passed, $_e2e_failures failed" >>"$E2E_RESULTS"
  if [ "$_e2e_failures" -gt 0 ]; then
    e2e_log "$_e2e_failures check(s) failed"
    exit 1
  fi
  e2e_log "all checks passed"
}

e2e_wait_for() {
  local file=$1 re=$2 limit=${3:-30}
  local deadline=$((SECONDS + limit))
  while ! grep -Eq -- "$re" "$file" 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || { e2e_log "timed out after ${limit}s waiting for /$re/ in $file"; return 1; }
    sleep 0.2
  done
}

e2e_devices_start() {
  local kinds=${1:-mouse,touchpad,keyboard,full-keyboard}
  rm -f "$E2E_WORKDIR/devices.json" "$E2E_WORKDIR/devices.env"
  "$E2E_PYTHON" "$E2E_DIR/uinput-devices.py" create --devices "$kinds" --ctl "$E2E_UINPUT_CTL" \
    --json "$E2E_WORKDIR/devices.json" 2>>"$E2E_WORKDIR/uinput-devices.log" &
  E2E_UINPUT_PID=$!
  # devices.json appears once every device is ready and the command FIFO exists
  local deadline=$((SECONDS + ${E2E_DEVICES_TIMEOUT:-120}))
  until [ -s "$E2E_WORKDIR/devices.json" ]; do
    if ! kill -0 "$E2E_UINPUT_PID" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      cat "$E2E_WORKDIR/uinput-devices.log"
      e2e_fail "the uinput device server did not start"
    fi
    sleep 0.2
  done
  # shellcheck disable=SC1091
  . "$E2E_WORKDIR/devices.env"
  e2e_log "devices ready: $DEV_IDS"
}

e2e_dev() {
  local line status
  [ -n "$E2E_UINPUT_PID" ] && kill -0 "$E2E_UINPUT_PID" 2>/dev/null \
    || { e2e_log "e2e_dev $*: the device server is not running"; return 1; }
  if [ "$_e2e_reply_pid" != "$BASHPID" ]; then  # one reply FIFO per (sub)shell, kept open
    _e2e_reply=$E2E_UINPUT_CTL/reply.$BASHPID.$RANDOM
    mkfifo -m 600 "$_e2e_reply" || return 1
    exec {_e2e_reply_fd}<>"$_e2e_reply"  # read-write: the open does not block
    _e2e_reply_pid=$BASHPID
  fi
  printf '@%s %s\n' "$_e2e_reply" "${*@Q}" >"$E2E_UINPUT_CTL/cmd"
  if ! read -r -t "${E2E_DEV_TIMEOUT:-120}" -u "$_e2e_reply_fd" line; then
    line="err no answer within ${E2E_DEV_TIMEOUT:-120}s"
    # a late answer must not be taken for the next command's: use a new FIFO next time
    exec {_e2e_reply_fd}<&-
    rm -f "$_e2e_reply"
    _e2e_reply_pid=
  fi
  status=${line%% *}
  line=${line#"$status"}
  line=${line# }
  # shellcheck disable=SC1091
  . "$E2E_WORKDIR/devices.env"
  if [ "$status" = ok ]; then
    [ "$line" = null ] || printf '%s\n' "$line"
    return 0
  fi
  e2e_log "e2e_dev $*: $line" >&2
  return 1
}

e2e_devices_stop() {
  if [ "$_e2e_reply_pid" = "$BASHPID" ]; then
    exec {_e2e_reply_fd}<&-
    rm -f "$_e2e_reply"
    _e2e_reply_pid=
  fi
  [ -n "$E2E_UINPUT_PID" ] || return 0
  kill -TERM "$E2E_UINPUT_PID" 2>/dev/null
  wait "$E2E_UINPUT_PID" 2>/dev/null
  E2E_UINPUT_PID=
}
