#!/bin/bash
# scrolld's systemd units under a real systemd (docs/systemd.md): the guest half. Boot with
#   E2E_INIT=systemd Tests/e2e/run-guest.sh Tests/e2e/systemd-guest.sh WORKDIR
# and judge with Tests/e2e/check-systemd.py WORKDIR on the host (README.md, "What
# systemd-guest.sh checks").
#
# systemd is PID 1 (guest-systemd-init.sh); this script runs as root in e2e-run.service. It
#   1. creates a regular user in the `input` group,
#   2. installs systemd/scrolld.{socket,service} into /etc/systemd/user, the service's
#      ExecStart pointing at the build under test instead of /usr/local/bin/scrolld, starts
#      that user's manager and root's (user@UID, user@0) and creates a uinput wheel mouse,
#   3. as the user, starts scrolld.socket,
#   4. connects with scrollctl (ping, get, devices) - socket activation starts the Type=notify
#      service - and records what systemd and the kernel say about the sandboxed process,
#   5. scrolls the mouse, hotplugs a second one, reloads, kills the daemon (Restart=on-failure),
#      runs `systemd-analyze --user security`, stops service and socket,
#   6. does the socket activation and device listing once more under root's manager (user@0),
#      where systemd can enforce the device policy that a user manager cannot.
# It only observes: facts go to WORKDIR/facts.txt as KEY=VALUE lines, longer outputs to files
# beside it, and the host decides. Exit status 0 when it got to the end (1 on a setup failure).
# shellcheck disable=SC2317  # functions called indirectly
set -u
W=${1:?usage: systemd-guest.sh WORKDIR}
# shellcheck disable=SC1091
. "$E2E_DIR/guest-lib.sh"

REPO=$(cd "$E2E_DIR/../.." && pwd)
BIN_DIR=$(e2e_bin_dir "$W" "$REPO")
SCROLLD=$BIN_DIR/scrolld
SCROLLCTL=$BIN_DIR/scrollctl
FACTS=$W/facts.txt
TEST_USER=scrolld-e2e
rm -rf "$FACTS" "$W/units" "$W"/*.out "$W/journal.txt" "$W/security-live.txt" "$W"/mountinfo*.txt
mkdir -p "$W/units"
: >"$FACTS"

fact() {  # fact KEY VALUE (newlines in VALUE become "\n")
  local value=${2//$'\n'/\\n}
  printf '%s=%s\n' "$1" "$value" >>"$FACTS"
  e2e_log "$1=$value"
}
# run KEY COMMAND...: facts KEY.rc, and the output in WORKDIR/KEY.out
run() {
  local key=$1 rc
  shift
  "$@" >"$W/$key.out" 2>&1
  rc=$?
  fact "$key.rc" "$rc"
  return "$rc"
}
# show KEY UNIT PROPS: `systemctl --user show` as facts KEY.Prop=value (MANAGER_UID picks the manager)
show() {
  local key=$1 unit=$2 props=$3 line
  while IFS= read -r line; do
    [ -n "$line" ] && fact "$key.${line%%=*}" "${line#*=}"
  done < <(as_manager_user systemctl --user show "$unit" -p "$props" 2>&1)
}
# The user's manager is reached through $XDG_RUNTIME_DIR/systemd/private, as that user.
as_manager_user() {
  if [ "$MANAGER_UID" = 0 ]; then
    XDG_RUNTIME_DIR=/run/user/0 "$@"
  else
    XDG_RUNTIME_DIR=/run/user/$MANAGER_UID HOME=/home/$TEST_USER \
      setpriv --reuid="$TEST_USER" --regid="$TEST_USER" --init-groups "$@"
  fi
}
ctl() {  # ctl SUBCOMMAND [ARGS...]
  local command=$1
  shift
  as_manager_user "$SCROLLCTL" "$command" --socket "/run/user/$MANAGER_UID/scrolld/scrolld.sock" "$@"
}
# wait_until SECONDS COMMAND...: retries COMMAND every 0.3 s; false when it never succeeded
wait_until() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@"; do
    [ "$SECONDS" -lt "$deadline" ] || return 1
    sleep 0.3
  done
}
words() {  # the words of $1, one space between them
  local -a w
  read -r -d '' -a w <<<"$1"
  echo "${w[*]}"
}
main_pid() { as_manager_user systemctl --user show scrolld.service -p MainPID --value; }
# facts about the sandboxed process as the kernel sees it
sandbox_facts() {
  local key=$1 pid=$2 line
  [ "$pid" -gt 0 ] 2>/dev/null || { fact "$key.pid" "none"; return; }
  fact "$key.pid" "$pid"
  while IFS= read -r line; do
    case $line in
      NoNewPrivs:* | Seccomp:* | CapEff:* | CapBnd:* | Groups:* | Uid:*)
        fact "$key.status.${line%%:*}" "$(words "${line#*:}")" ;;
    esac
  done <"/proc/$pid/status"
  fact "$key.uid_map" "$(words "$(<"/proc/$pid/uid_map")")"
  fact "$key.gid_map" "$(words "$(<"/proc/$pid/gid_map")")"
  local ns
  for ns in user mnt net uts ipc; do
    if [ "/proc/$pid/ns/$ns" -ef "/proc/1/ns/$ns" ]; then fact "$key.ns.$ns" shared; else fact "$key.ns.$ns" own; fi
  done
  cp "/proc/$pid/mountinfo" "$W/mountinfo-$key.txt"
  # Each thread's scheduling: "comm policy rt_priority" (stat fields 41 and 40), and the
  # RLIMIT_RTTIME the unit sets.
  local task stat threads=() w
  for task in /proc/"$pid"/task/*; do
    stat=$(<"$task/stat")
    read -r -a w <<<"${stat##*) }"
    threads+=("$(<"$task/comm"):${w[38]}:${w[37]}")
  done
  fact "$key.threads" "${threads[*]}"
  fact "$key.rttime" "$(words "$(sed -n 's/^Max realtime timeout *//p' "/proc/$pid/limits")")"
}

# When guest-init.sh's time limit stops this script, the journal still comes back.
trap 'journalctl -b --no-pager -o short-monotonic >"$W/journal.txt" 2>&1; exit 124' TERM

e2e_log "systemd-guest: $(systemctl --version | head -n1), scrolld from $BIN_DIR"
fact systemd.version "$(systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p')"
{ [ -x "$SCROLLD" ] && [ -x "$SCROLLCTL" ]; } || e2e_fail "no scrolld build in $BIN_DIR"

# --- 1. a user in the input group, a mouse --------------------------------------------------
useradd --create-home --groups input --shell /bin/bash "$TEST_USER" || e2e_fail "useradd $TEST_USER"
MANAGER_UID=$(id -u "$TEST_USER")
fact user.uid "$MANAGER_UID"
fact user.groups "$(id -nG "$TEST_USER")"
fact input.gid "$(getent group input | cut -d: -f3)"
# The build (and a Swift runtime under /root, say) may sit below folders only root may enter:
# open them in the overlay (nothing changes on the host). A closed folder fails the service with
# 203/EXEC "Permission denied", even where setpriv alone still gets through.
open_paths() {  # open_paths FILE...: every folder above each FILE searchable by all
  local -A dirs=()
  local file dir closed
  for file in "$@"; do
    dir=${file%/*}
    while [ -n "$dir" ]; do dirs[$dir]=1; dir=${dir%/*}; done
  done
  closed=$(stat -c '%A %n' "${!dirs[@]}" | awk 'substr($1, 10, 1) == "-" { print $2 }')
  if [ -n "$closed" ]; then
    # shellcheck disable=SC2086  # one folder a word: the paths the harness uses have no spaces
    chmod o+x $closed
    fact build.opened "$(words "$closed")"
  fi
}
mapfile -t LIBS < <(ldd "$SCROLLD" | grep -o '/[^ ]*')
open_paths "$SCROLLD" "$SCROLLCTL" "${LIBS[@]}"

# --- 2. the units, as installed -------------------------------------------------------------
mkdir -p /etc/systemd/user
cp "$REPO/systemd/scrolld.socket" /etc/systemd/user/scrolld.socket
# The build under test goes where the unit expects it, in the guest's overlay: the build tree
# may be anywhere, /tmp included (a CI clone), which the unit's PrivateTmp= hides from the
# service (203/EXEC "Failed to locate executable").
install -D -m 755 "$SCROLLD" /usr/local/bin/scrolld
UNIT_SCROLLD=/usr/local/bin/scrolld
cmp -s "$SCROLLD" "$UNIT_SCROLLD" && fact unit.binary.matches yes
sed "s|^ExecStart=/usr/local/bin/scrolld |ExecStart=$UNIT_SCROLLD |" "$REPO/systemd/scrolld.service" \
  >/etc/systemd/user/scrolld.service
cp /etc/systemd/user/scrolld.socket /etc/systemd/user/scrolld.service "$W/units/"

# Real time for the input group, as docs/systemd.md tells an administrator to permit it:
# pam_limits gives it to the user manager (PAM service systemd-user), which passes it on.
echo '@input - rtprio 20' >/etc/security/limits.d/90-scrolld-e2e.conf

# Both user managers boot while the device server starts (each takes seconds under TCG).
systemctl start --no-block "user@$MANAGER_UID.service" user@0.service
e2e_devices_start mouse
fact mouse.name "$DEV_MOUSE_NAME"
fact mouse.node "$DEV_MOUSE_NODE"
fact mouse.mode "$(stat -c '%a %G' "$DEV_MOUSE_NODE")"

# --- 2b. two users at seat0 (docs/design.md §15)
# ----------------------------------------------------- Real logind sessions on two VTs, opened
# through PAM ("login", with pam_systemd) as a getty's login would open them: the test user's on
# tty2, another user's on tty3. The daemon follows them: it reads input only while the test user's
# session is the seat's active one.
OTHER_USER=scrolld-e2e-b
useradd --create-home --shell /bin/bash "$OTHER_USER" || e2e_fail "useradd $OTHER_USER"
vt_session() {  # vt_session USER VT
  systemd-run --quiet --unit="e2e-vt$2" -p PAMName=login -p User="$1" -p TTYPath="/dev/tty$2" \
    -E XDG_SEAT=seat0 -E XDG_VTNR="$2" -E XDG_SESSION_TYPE=tty -E XDG_SESSION_CLASS=user /bin/sleep infinity
}
# chvt(1), as kbd's does it: VT_ACTIVATE then VT_WAITACTIVE on /dev/tty0 (kbd is not installed).
chvt() {
  /usr/bin/python3 -c 'import fcntl, os, sys
fd = os.open("/dev/tty0", os.O_RDWR); n = int(sys.argv[1])
fcntl.ioctl(fd, 0x5606, n); fcntl.ioctl(fd, 0x5607, n)' "$1"
}
active_user() {  # the user name of seat0's active session (empty: none)
  local id
  id=$(loginctl show-seat seat0 -p ActiveSession --value 2>/dev/null)
  [ -n "$id" ] && loginctl show-session "$id" -p Name --value 2>/dev/null
}
is_active_user() { [ "$(active_user)" = "$1" ]; }
vt_session "$TEST_USER" 2
fact vt.session.a.rc $?
vt_session "$OTHER_USER" 3
fact vt.session.b.rc $?
chvt 2
fact vt.chvt2.rc $?
wait_until 30 is_active_user "$TEST_USER"
fact vt.a.active $?
loginctl list-sessions --no-legend >"$W/vt-sessions.out" 2>&1
loginctl show-seat seat0 >"$W/vt-seat0.out" 2>&1

# --- 3. the user's manager, the socket ------------------------------------------------------
run user-manager systemctl start "user@$MANAGER_UID.service"  # returns once it is up
fact user-manager.state "$(systemctl show "user@$MANAGER_UID.service" -p ActiveState --value)"
# The user's session bus is up with their manager (dbus-user-session), and scrolld follows
# GNOME's settings there (docs/design.md §23). GNOME's touchpads scroll naturally by default: the
# steps before 5f expect libinput's default, as a user who turned it off in GNOME has it.
as_user_bus() { as_manager_user env "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/$MANAGER_UID/bus" "$@"; }
run gnome-setup as_user_bus gsettings set org.gnome.desktop.peripherals.touchpad natural-scroll false
SOCK=/run/user/$MANAGER_UID/scrolld/scrolld.sock
run socket-start as_manager_user systemctl --user start scrolld.socket
show socket scrolld.socket ActiveState,SubState
fact socket.file "$(stat -c '%a %U %F' "$SOCK" 2>&1)"
fact socket.dir "$(stat -c '%a %U' "${SOCK%/*}" 2>&1)"
# Nothing started the service yet: the first connection will.
show before scrolld.service ActiveState

# --- 4. socket activation, the sandbox ------------------------------------------------------
run ping ctl ping --timeout 60
# The ping is answered as soon as the socket is served; the service is ready (READY=1) once
# libinput has added the seat's devices too. `systemctl start` returns when it is.
run ready as_manager_user systemctl --user start scrolld.service
show after-ping scrolld.service ActiveState,SubState,MainPID,NRestarts,Type,StatusText
PID1=$(main_pid)
sandbox_facts sandbox "$PID1"
# SIGXCPU, as the kernel sends it when a real-time thread passes RLIMIT_RTTIME's soft limit:
# both threads go back to SCHED_OTHER, without privileges, and the daemon serves on (the steps
# below use it). A restart (the SIGKILL step) asks for real time anew.
# Under TCG a real-time thread can pass RLIMIT_RTTIME on its own, so the daemon may have logged
# the same line before (and then asks for real time again 10 s later). Only a line of this
# daemon's (_PID=) logged after a cursor taken just before the signal answers this signal. A
# re-entry into real time logged after the cursor (a retry still pending from an earlier
# SIGXCPU, which the new one does not postpone) and not left again before the journal is read
# makes the sample stale: then the signal is sent again, up to three times; the facts are those
# of the last try. (On a busy host the daemon re-enters and passes RLIMIT_RTTIME on its own
# again and again: what counts is that its last word is leaving real time.)
journal_cursor() { journalctl --no-pager -q -n 1 -o export | sed -n 's/^__CURSOR=//p'; }
since_xcpu() { journalctl --no-pager -q -o cat --after-cursor="$xcpu_cursor" _PID="$PID1"; }
left_real_time() { since_xcpu | grep -q 'without sleeping (RLIMIT_RTTIME)'; }
for xcpu_try in 1 2 3; do
  sed -i '/^sandbox-xcpu\./d; /^xcpu\.logged=/d' "$FACTS"  # a stale try's facts
  xcpu_cursor=$(journal_cursor)
  as_manager_user kill -XCPU "$PID1"
  wait_until 30 left_real_time
  fact xcpu.logged $?
  sandbox_facts sandbox-xcpu "$PID1"
  since_xcpu >"$W/xcpu-journal.out" 2>&1
  last_word=$(grep -E 'runs at real-time priority|without sleeping \(RLIMIT_RTTIME\)' "$W/xcpu-journal.out" | tail -n 1)
  case "$last_word" in *'without sleeping (RLIMIT_RTTIME)'*) break ;; esac
done
fact xcpu.tries "$xcpu_try"
fact xcpu.cursor "$xcpu_cursor"
run get ctl get main
lists() {  # lists OUTFILE NODE...: `scrollctl devices --json` names every NODE
  local out=$1 node
  shift
  ctl devices --json >"$W/$out" 2>&1 || return 1
  for node in "$@"; do grep -qF "\"path\":\"$node\"" "$W/$out" || return 1; done
}
# READY=1 came once libinput had added the seat's devices: the mouse is listed at once.
lists devices.out "$DEV_MOUSE_NODE"
fact devices.listed $?

# --- 5. input, hotplug, reload, security, crash, stop ---------------------------------------
e2e_dev wheel -3 >/dev/null || e2e_fail "wheel"
at_rest() { ctl get main >"$W/get-wheel.out" 2>&1 && grep -q '"phase":"idle"' "$W/get-wheel.out" && ! grep -q '"y":0,' "$W/get-wheel.out"; }
wait_until 30 at_rest
fact get-wheel.rc $?

e2e_dev add mouse --id mouse2 >/dev/null || e2e_fail "hotplug a second mouse"
fact mouse2.node "$DEV_MOUSE2_NODE"
wait_until 30 lists devices-hotplug.out "$DEV_MOUSE_NODE" "$DEV_MOUSE2_NODE"
fact devices-hotplug.listed $?

run reload as_manager_user systemctl --user reload scrolld.service
reloaded() { journalctl -b --no-pager -o cat _SYSTEMD_USER_UNIT=scrolld.service | grep -q '^configuration reloaded'; }
wait_until 20 reloaded
fact reload.logged $?

as_manager_user systemd-analyze --user security --no-pager scrolld.service >"$W/security-live.txt" 2>&1
fact security.live "$(sed -n 's/.*Overall exposure level for scrolld.service: \([0-9.]*\).*/\1/p' "$W/security-live.txt")"

[ "$PID1" -gt 0 ] 2>/dev/null && kill -KILL "$PID1"  # never "kill 0": that is this script's group
restarted() {  # (systemctl show prints properties in its own order, not the order asked)
  local state
  state=$(as_manager_user systemctl --user show scrolld.service -p ActiveState,SubState,NRestarts | sort | tr '\n' ' ')
  [ "$state" = "ActiveState=active NRestarts=1 SubState=running " ]
}
wait_until 30 restarted
show after-crash scrolld.service ActiveState,SubState,MainPID,NRestarts
run ping-after-crash ctl ping --timeout 60
sandbox_facts sandbox-after-crash "$(main_pid)"

# --- 5b. the user leaves the seat and comes back (docs/design.md §15)
# -------------------------------
PID2=$(main_pid)
input_fds() {  # the /dev/input descriptors the daemon holds, from /proc (two forks: each costs under TCG)
  ls -l /proc/"$PID2"/fd 2>/dev/null | grep -c ' /dev/input/'
}
no_input_fds() { [ "$(input_fds)" = 0 ]; }
some_input_fds() { [ "$(input_fds)" -gt 0 ]; }
watch_lines() { wc -l <"$W/session-watch.out"; }
more_lines_than() { [ "$(watch_lines)" -gt "$1" ]; }
last_phase_idle() { tail -n 1 "$W/session-watch.out" | grep -q '"phase":"idle"'; }
e2e_dev add touchpad --id tp >/dev/null || e2e_fail "add a touchpad"
wait_until 30 lists session-devices-active.out "$DEV_MOUSE_NODE" "$DEV_TP_NODE"
fact session.active.listed $?
fact session.active.input "$(grep -o '"input":{[^}]*}' "$W/session-devices-active.out")"
fact session.active.fds "$(input_fds)"
# A subscriber of the user's: every state line the daemon sends to it.
ctl watch main --json >"$W/session-watch.out" 2>&1 &
WATCH=$!
wait_until 30 more_lines_than 0
n=$(watch_lines)
e2e_dev wheel -2 >/dev/null
wait_until 30 more_lines_than "$n"
fact session.active.wheel $?
wait_until 30 last_phase_idle
n=$(watch_lines)
e2e_dev touchpad-scroll --dy -15 >/dev/null
wait_until 30 more_lines_than "$n"
fact session.active.fingers $?
wait_until 30 last_phase_idle
# Fingers down and moving when the VT changes: the gesture ends as a scroll stop does.
e2e_dev touchpad-scroll --dy -20 --frames 20 --no-lift >/dev/null
n=$(watch_lines)
chvt 3
read -r chvt_away _ </proc/uptime  # VT_WAITACTIVE has returned: the switch is done
wait_until 30 no_input_fds
fact session.away.closed $?
fact session.away.active_user "$(active_user)"
wait_until 30 last_phase_idle
fact session.away.settled $?
fact session.away.phases "$(tail -n +"$((n + 1))" "$W/session-watch.out" | grep -o '"phase":"[a-z]*"' | uniq | tr '\n' ' ')"
ctl devices --json >"$W/session-devices-away.out" 2>&1
fact session.away.input "$(grep -o '"input":{[^}]*}' "$W/session-devices-away.out")"
# Input while away reaches no subscriber: the devices are closed.
n=$(watch_lines)
e2e_dev wheel 3 >/dev/null
e2e_dev remove tp >/dev/null
# A mouse plugged in while away, used once the user is back.
e2e_dev add mouse --id mouse3 >/dev/null || e2e_fail "hotplug a third mouse"
fact mouse3.node "$DEV_MOUSE3_NODE"
ctl ping >/dev/null 2>&1
fact session.away.lines_after_input $(($(watch_lines) - n))
fact session.away.fds "$(input_fds)"
# Back on the user's VT.
chvt 2
read -r chvt_back _ </proc/uptime
wait_until 30 some_input_fds
fact session.back.opened $?
wait_until 30 lists session-devices-back.out "$DEV_MOUSE_NODE" "$DEV_MOUSE3_NODE"
fact session.back.listed $?
fact session.back.input "$(grep -o '"input":{[^}]*}' "$W/session-devices-back.out")"
wait_until 30 last_phase_idle
n=$(watch_lines)
e2e_dev wheel -2 --device mouse3 >/dev/null
wait_until 30 more_lines_than "$n"
fact session.back.hotplugged_wheel $?
wait_until 30 last_phase_idle
kill "$WATCH" 2>/dev/null
wait "$WATCH" 2>/dev/null
journalctl -b --no-pager -o cat _SYSTEMD_USER_UNIT=scrolld.service _PID="$PID2" >"$W/session-journal.out" 2>&1
fact session.log.paused "$(grep -c '^input paused: session_inactive' "$W/session-journal.out")"
fact session.log.resumed "$(grep -c '^input resumed: ' "$W/session-journal.out")"
fact session.log.following "$(grep -c '^following logind sessions of seat0' "$W/session-journal.out")"
# How long after the switch the devices were closed (reopened): the daemon's log line comes
# right after libinput_suspend (libinput_resume), and journald stamps it on arrival.
logged_at() { journalctl -b --no-pager -o short-monotonic _PID="$PID2" | grep -m1 "$1" | sed 's/^\[ *\([0-9.]*\)\].*/\1/'; }
fact session.away.closed_ms "$(awk -v a="$chvt_away" -v b="$(logged_at 'input paused: session_inactive')" 'BEGIN { printf "%d", (b - a) * 1000 }')"
fact session.back.opened_ms "$(awk -v a="$chvt_back" -v b="$(logged_at 'input resumed: this user')" 'BEGIN { printf "%d", (b - a) * 1000 }')"

# --- 5c. sleep: logind's PrepareForSleep --------------------------------------------------------
# The guest cannot really sleep and wake: its default suspend is S3 ("deep" in
# /sys/power/mem_sleep), and a guest that entered it with an RTC alarm set (rtcwake -m no -s 5)
# never woke under TCG (the run timed out: nothing tells qemu to wake it). So the kernel's part
# is left out, and everything else is logind's own: `systemctl suspend` goes through logind,
# which sends PrepareForSleep(true), waits for the delay inhibitors, runs suspend.target with
# systemd-suspend.service (here suspend-stub.sh instead of systemd-sleep writing
# /sys/power/state) and sends PrepareForSleep(false) when that job is done.
# The daemon's log lines say what it meant to do, not what it did: the stub, which runs where
# the kernel would suspend (after the delay inhibitors were released), counts the daemon's
# /dev/input descriptors at that moment, and the judge wants none while "asleep" and some
# before and after.
fact sleep.power_state "$(cat /sys/power/state 2>&1)"
fact sleep.mem_sleep "$(cat /sys/power/mem_sleep 2>&1)"
fact sleep.can_suspend "$(busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager CanSuspend 2>&1)"
fact sleep.inhibitors "$(systemd-inhibit --list --no-pager --no-legend 2>&1 | grep scrolld | tr -s ' ')"
rm -f "$W/sleep-asleep.out"
mkdir -p /etc/systemd/system/systemd-suspend.service.d
printf '[Service]\nExecStart=\nExecStart=/bin/bash %s %s %s\n' "$E2E_DIR/suspend-stub.sh" "$PID2" "$W/sleep-asleep.out" \
  >/etc/systemd/system/systemd-suspend.service.d/e2e-no-kernel-sleep.conf
systemctl daemon-reload
fact sleep.pid "$PID2"
fact sleep.fds_before "$(input_fds)"
run sleep-suspend systemctl suspend
woke() { journalctl -b --no-pager -o cat _PID="$PID2" | grep -q '^input resumed: the system woke up'; }
wait_until 60 woke
fact sleep.woke $?
fact sleep.suspend_result "$(systemctl show systemd-suspend.service -p Result,ExecMainStatus --value 2>&1 | tr '\n' ' ')"
journalctl -b --no-pager -o short-monotonic | grep -E 'input paused: sleep|input resumed: the system woke up|System Suspend|Reached target .*Sleep|suspend.target|Finished systemd-suspend' >"$W/sleep-journal.out" 2>&1
wait_until 30 some_input_fds
fact sleep.fds_after "$(input_fds)"
fact sleep.pid_after "$(main_pid)"
# "PID TOTAL INPUT" (or "PID gone"), written by the stub while the system "slept"
fact sleep.asleep "$(cat "$W/sleep-asleep.out" 2>&1)"
wait_until 30 lists sleep-devices-after.out "$DEV_MOUSE_NODE" "$DEV_MOUSE3_NODE"
fact sleep.listed_after $?

# --- 5d. idle with sd-bus attached ------------------------------------------------------------
# Asleep for good, in one look (quiescence.py, the host tests' ProcessProbe.whatMayWakeIt): every
# thread asleep in a system call with no timeout, no timer armed, no POSIX timer, and no thread
# run between two looks; waited for with a deadline that only catches a daemon that never gets
# there. The daemon runs with realtime_priority = 0: under TCG the real-time threads pass
# RLIMIT_RTTIME's 100 ms, and the retry 10 s after each SIGXCPU (docs/systemd.md) is a timer
# that has nothing to do with logind. Twice: with `WatchdogSec=0` (a drop-in) nothing at all
# may be armed; with the unit's WatchdogSec=30 exactly one timer, due within WATCHDOG_USEC/2
# (the ping), since NIO keeps every scheduled task in that one timerfd: a task of its own would
# hide there, and shows in the first look.
CONFIG_DIR=/home/$TEST_USER/.config/scrolld
mkdir -p "$CONFIG_DIR"
printf '[daemon]\nrealtime_priority = 0\n' >"$CONFIG_DIR/scrolld.toml"
chown -R "$TEST_USER:$TEST_USER" "/home/$TEST_USER/.config"
following() { journalctl -b --no-pager -o cat _PID="$PID2" | grep -q '^following logind sessions of seat0'; }
idle_look() {  # idle_look KEY: the facts of one look at the daemon just restarted
  run "$1-restart" as_manager_user systemctl --user restart scrolld.service
  PID2=$(main_pid)
  wait_until 30 following
  fact "$1.following" $?
  fact "$1.pid" "$PID2"
  /usr/bin/python3 "$E2E_DIR/quiescence.py" "$PID2" "$W/$1-look.json" 120 >"$W/$1-look.out" 2>&1
  fact "$1.asleep" $?
  fact "$1.fds" "$(input_fds)"
}
mkdir -p /etc/systemd/user/scrolld.service.d
printf '[Service]\nWatchdogSec=0\n' >/etc/systemd/user/scrolld.service.d/e2e-idle.conf
as_manager_user systemctl --user daemon-reload
idle_look session.idle
rm -f /etc/systemd/user/scrolld.service.d/e2e-idle.conf
as_manager_user systemctl --user daemon-reload
idle_look session.idle_watchdog
rm -f "$CONFIG_DIR/scrolld.toml"

# --- 5f. GNOME's settings, followed live (docs/design.md §23) ---------------------------------
# The user's session bus (dbus-user-session's dbus.socket in their manager) and dconf, as in a
# GNOME session: the real `gsettings` as the user while the daemon started in 5d runs as their
# service. Natural scrolling of touchpads turned on makes the next two-finger drag move the
# content the other way; animations turned off make a smooth scrollTo land at once.
gnome_followed() { journalctl -b --no-pager -o cat _PID="$PID2" | grep -q '^desktop settings looked for.*gnome: GSettings on the session bus'; }
wait_until 30 gnome_followed
fact gnome.followed $?
# A touchpad of this step's own (the one of 5b is gone).
e2e_dev add touchpad --id gnometp >/dev/null || e2e_fail "add a touchpad for GNOME's step"
wait_until 30 lists gnome-devices.out "$DEV_GNOMETP_NODE"
fact gnome.touchpad.listed $?
journalctl -b --no-pager -o cat _PID="$PID2" | grep '^desktop settings looked for' >"$W/gnome-looked-for.out" 2>&1
# devices_say OUTFILE EXPECTED: the touchpad's natural scrolling and the reduced motion, each
# VALUE@SOURCE, as `scrollctl devices --json` says them
devices_say() {
  ctl devices --json >"$W/$1" 2>&1 || return 1
  [ "$(/usr/bin/python3 -c '
import json, sys
reply = json.load(open(sys.argv[1]))
pad = [d for d in reply["devices"] if d.get("path") == sys.argv[2]]
say = lambda v: "%s@%s" % (json.dumps(v.get("value")), v.get("source")) if isinstance(v, dict) else "absent"
print(say(pad[0].get("natural")) if pad else "no-touchpad", say(reply.get("reducedMotion")))
' "$W/$1" "$DEV_GNOMETP_NODE" 2>&1)" = "$2" ]
}
# drag KEY: from y = 1000 at rest, two fingers 15 mm up; the resting offset after it, from a
# subscriber's states (the first rest after the drag's first state)
ctl watch main --json >"$W/gnome-watch.out" 2>&1 &
GNOME_WATCH=$!
gnome_lines() { wc -l <"$W/gnome-watch.out"; }
last_gnome_state() { tail -n 1 "$W/gnome-watch.out"; }
resting_at() { last_gnome_state | grep -q '"phase":"idle"' && last_gnome_state | grep -q "\"y\":$1[,}]"; }
moved_and_resting() { [ "$(gnome_lines)" -gt "$1" ] && last_gnome_state | grep -q '"phase":"idle"'; }
drag() {
  ctl scroll-to main --y 1000 --animation none >/dev/null 2>&1
  wait_until 30 resting_at 1000
  local n
  n=$(gnome_lines)
  e2e_dev touchpad-scroll --dy -15 --device gnometp >/dev/null
  wait_until 60 moved_and_resting "$n"
  fact "$1.rest" $?
  fact "$1.y" "$(last_gnome_state | grep -o '"y":[-0-9.e]*' | head -n 1 | cut -d: -f2)"
}
run gnome-set-natural-off as_user_bus gsettings set org.gnome.desktop.peripherals.touchpad natural-scroll false
wait_until 30 devices_say gnome-devices-off.out 'false@desktop:gnome false@desktop:gnome'
fact gnome.natural.off $?
drag gnome-drag-off
run gnome-set-natural-on as_user_bus gsettings set org.gnome.desktop.peripherals.touchpad natural-scroll true
wait_until 30 devices_say gnome-devices-on.out 'true@desktop:gnome false@desktop:gnome'
fact gnome.natural.on $?
drag gnome-drag-on
run gnome-set-animations-off as_user_bus gsettings set org.gnome.desktop.interface enable-animations false
wait_until 30 devices_say gnome-devices-reduced.out 'true@desktop:gnome true@desktop:gnome'
fact gnome.reduced $?
ctl scroll-to main --y 3000 --animation smooth >"$W/gnome-scroll-to.out" 2>&1
fact gnome.scroll-to.rc $?
ctl get main >"$W/gnome-after-scroll-to.out" 2>&1
fact gnome.after-scroll-to "$(grep -o '"y":[-0-9.e]*\|"phase":"[a-z]*"' "$W/gnome-after-scroll-to.out" | head -n 2 | tr '\n' ' ')"
kill "$GNOME_WATCH" 2>/dev/null
e2e_dev remove gnometp >/dev/null
# As before this step, for the steps after it.
as_user_bus gsettings set org.gnome.desktop.peripherals.touchpad natural-scroll false
as_user_bus gsettings reset org.gnome.desktop.interface enable-animations

# --- 5e. restart without loss: systemd's file descriptor store (docs/design.md §16)
# --------- Two clients stay connected while the daemon is killed three times: SIGKILL, a watchdog
# timeout (SIGSTOP past a shorter WatchdogSec from a drop-in: systemd's SIGABRT waits on the stopped
# process, then TimeoutAbortSec's SIGKILL ends it), and SIGKILL after garbage was written into
# the session's memfd through /proc/PID/fd. restore-client.py records what each saw after each.
mkdir -p /etc/systemd/user/scrolld.service.d
printf '[Service]\nWatchdogSec=5\nTimeoutAbortSec=2\n' >/etc/systemd/user/scrolld.service.d/e2e-watchdog.conf
as_manager_user systemctl --user daemon-reload
run restore-restart as_manager_user systemctl --user restart scrolld.service
R=$W/restore
rm -rf "$R"
mkdir -p "$R"
chown "$TEST_USER" "$R"
CLIENT=$E2E_DIR/restore-client.py
open_paths "$CLIENT"
as_manager_user /usr/bin/python3 "$CLIENT" "$SOCK" "$R" a 3 >"$W/restore-a.out" 2>&1 &
RA=$!
wait_until 60 test -e "$R/a.ready"
fact restore.a.ready $?
as_manager_user /usr/bin/python3 "$CLIENT" "$SOCK" "$R" b 3 >"$W/restore-b.out" 2>&1 &
RB=$!
wait_until 60 test -e "$R/b.ready"
fact restore.b.ready $?
show restore-before scrolld.service MainPID,NRestarts,FileDescriptorStoreMax,NFileDescriptorStore
as_manager_user systemctl --user status --no-pager scrolld.service >"$W/restore-status.out" 2>&1
stamp() {  # stamp FILE: the time now, written whole before FILE appears
  date +%s.%N >"$1.tmp" && mv "$1.tmp" "$1"
}
round_done() { test -e "$R/a.round-$1" && test -e "$R/b.round-$1"; }
new_pid() { local pid; pid=$(main_pid); [ "$pid" -gt 0 ] 2>/dev/null && [ "$pid" != "$1" ] && [ "$(as_manager_user systemctl --user show scrolld.service -p SubState --value)" = running ]; }
# restart_round N SIGNAL TIMEOUT PROPERTIES: the daemon gets SIGNAL; both clients must finish
# round N within TIMEOUT s, and systemd must run a new process; then PROPERTIES are shown.
restart_round() {
  local pid; pid=$(main_pid)
  stamp "$R/round-$1.kill"
  kill -"$2" "$pid"
  wait_until "$3" round_done "$1"
  fact "restore.round$1.done" $?
  wait_until 30 new_pid "$pid"
  show "restore-round$1" scrolld.service "$4"
}
# Round 1: SIGKILL.
restart_round 1 KILL 60 MainPID,NRestarts,NFileDescriptorStore
# A client connecting after the restart sees list in its welcome.
as_manager_user /usr/bin/python3 "$CLIENT" "$SOCK" "$R" c >"$W/restore-c.out" 2>&1
fact restore.c.rc $?
# Input reaches the taken-back subscription of main: client a writes a.round-2.main-moved at
# main's first moving state before round 2's kill.
e2e_dev wheel -2 >/dev/null
wait_until 30 test -e "$R/a.round-2.main-moved"
fact restore.main-moved $?
# Round 2: the watchdog (the daemon stopped past WatchdogSec=5).
restart_round 2 STOP 90 MainPID,NRestarts,Result
journalctl -b --no-pager -o cat _SYSTEMD_USER_UNIT=scrolld.service | grep -iE 'watchdog' >"$W/restore-watchdog.out" 2>&1
journalctl -b --no-pager -o cat | grep -iE 'scrolld.service.*(watchdog|abort)' >>"$W/restore-watchdog.out" 2>&1
# Round 3: garbage in the stored session, then SIGKILL.
PIDR=$(main_pid)
MEMFD=
for fd in /proc/"$PIDR"/fd/*; do
  case $(readlink "$fd") in */memfd:scrolld-session*) MEMFD=$fd ;; esac
done
fact restore.memfd "${MEMFD:-none}"
[ -n "$MEMFD" ] && head -c 4096 /dev/urandom | dd of="$MEMFD" bs=4096 count=1 conv=notrunc status=none
fact restore.garbage.rc $?
touch "$R/round-3.lost"
restart_round 3 KILL 60 MainPID,NRestarts,NFileDescriptorStore
as_manager_user systemctl --user status --no-pager scrolld.service >"$W/restore-status-after.out" 2>&1
journalctl -b --no-pager -o cat _SYSTEMD_USER_UNIT=scrolld.service | grep -E '^restart: ' >"$W/restore-journal.out" 2>&1
kill "$RA" "$RB" 2>/dev/null
wait "$RA" "$RB" 2>/dev/null
for f in a.round-1 a.round-2 a.round-2.main-moved a.round-3 b.round-1 b.round-2 b.round-3 c.welcome; do
  cp "$R/$f" "$W/restore-$f.json" 2>/dev/null
done
rm -f /etc/systemd/user/scrolld.service.d/e2e-watchdog.conf
as_manager_user systemctl --user daemon-reload
run restore-final-restart as_manager_user systemctl --user restart scrolld.service

# Only the daemon's own uid may connect (SO_PEERCRED, docs/design.md §7): root is refused; inside
# the daemon's user namespace it is not even root but the overflow uid.
"$SCROLLCTL" ping --socket "$SOCK" >"$W/ping-as-root.out" 2>&1
fact ping-as-root.rc $?

# The service first: while the socket refers to it, systemd keeps its exit status to show.
run stop as_manager_user systemctl --user stop scrolld.service
show stopped-service scrolld.service ActiveState,Result,ExecMainCode,ExecMainStatus
run stop-socket as_manager_user systemctl --user stop scrolld.socket
show stopped-socket scrolld.socket ActiveState,Result
if [ -e "$SOCK" ]; then fact socket-after-stop present; else fact socket-after-stop absent; fi

# A configuration that does not load, in the user's ~/.config (readable under ProtectHome=
# read-only): exit status 78, and no restart (RestartPreventExitStatus=78). A restart would show
# as SubState=auto-restart at once, so "failed" needs no waiting.
CONFIG_DIR=/home/$TEST_USER/.config/scrolld
mkdir -p "$CONFIG_DIR"
printf '[physics]\nprofile = "no-such-profile"\n' >"$CONFIG_DIR/scrolld.toml"
chown -R "$TEST_USER:$TEST_USER" "/home/$TEST_USER/.config"
run bad-config-start as_manager_user systemctl --user start scrolld.service
show bad-config scrolld.service ActiveState,SubState,Result,ExecMainCode,ExecMainStatus,NRestarts
run bad-config-stop-socket as_manager_user systemctl --user stop scrolld.socket
rm -rf "$CONFIG_DIR"

# --- 6. root's manager: the same units where the device policy is enforced ------------------
MANAGER_UID=0
SOCK=/run/user/0/scrolld/scrolld.sock
# Root's daemon does not follow sessions (follow_session = false): it reads while another
# user's session is the active one.
mkdir -p /root/.config/scrolld
printf '[daemon]\nfollow_session = false\n' >/root/.config/scrolld/scrolld.toml
chvt 3
wait_until 30 is_active_user "$OTHER_USER"
fact root.vt.other_active $?
run root-manager systemctl start user@0.service
run root-socket-start as_manager_user systemctl --user start scrolld.socket
wait_until 60 lists root-devices.out "$DEV_MOUSE_NODE" "$DEV_MOUSE2_NODE" "$DEV_MOUSE3_NODE"
fact root-devices.listed $?
show root scrolld.service ActiveState,SubState,MainPID,NRestarts
PID2=$(main_pid)
fact root.follow.fds "$(input_fds)"
fact root.follow.input "$(grep -o '"input":{[^}]*}' "$W/root-devices.out")"
sandbox_facts root-sandbox "$(main_pid)"
# Root's manager enforces the device policy (a cgroup BPF program): a process moved into the
# service's cgroup may open an input node but not /dev/uinput.
show root scrolld.service DevicePolicy,DeviceAllow
CGROUP=/sys/fs/cgroup$(as_manager_user systemctl --user show scrolld.service -p ControlGroup --value)
probe_open() {  # probe_open NODE: opens NODE for reading from inside the service's cgroup
  (echo "$BASHPID" >"$CGROUP/cgroup.procs" && exec 3<"$1") 2>&1
}
fact root-cgroup.input "$(probe_open "$DEV_MOUSE_NODE" && echo opened)"
fact root-cgroup.uinput "$(probe_open /dev/uinput && echo opened)"
run root-stop as_manager_user systemctl --user stop scrolld.service
show root-stopped scrolld.service ActiveState,Result,ExecMainCode,ExecMainStatus
run root-stop-socket as_manager_user systemctl --user stop scrolld.socket
if [ -e "$SOCK" ]; then fact root-socket-after-stop present; else fact root-socket-after-stop absent; fi

journalctl -b --no-pager -o short-monotonic >"$W/journal.txt" 2>&1
e2e_devices_stop
fact finished yes
