#!/bin/bash
# Stage 2 of the guest boot: PID 1 after the initramfs switched root into the overlay of the host
# root. Not run by hand: run-guest.sh names it in the boot file, the initramfs executes it.
#
#   guest-init.sh BOOTFILE                   as PID 1 (E2E_INIT=script, the default)
#   guest-init.sh --under-systemd BOOTFILE   as the test service when systemd is PID 1
#                                            (E2E_INIT=systemd, see guest-systemd-init.sh)
#
# Mounts the runtime file systems, checks uinput + evdev are loaded, starts udevd for the input
# subsystem (under systemd: systemd did all that, and udevd is its service), runs the guest script
# with the work folder as its argument, records its exit status in WORKDIR/status and powers the
# machine off.
set -u
under_systemd=0
if [ "${1:-}" = --under-systemd ]; then
  under_systemd=1
  shift
fi
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8 TERM=dumb
umask 022

say() { echo "e2e-guest: $* (t=$(cut -d' ' -f1 /proc/uptime)s)"; }
power_off() {
  sync
  echo o >/proc/sysrq-trigger
  sleep 60
}
fail() {
  say "FAILED: $*"
  power_off
}

# shellcheck disable=SC1090
. "$1" || fail "cannot read boot file $1"
say "stage 2${E2E_INIT:+ ($E2E_INIT)}"

if [ "$under_systemd" = 0 ]; then
  mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /run || fail "mount /run"
  mkdir -p /dev/pts /dev/shm
  mount -t devpts -o gid=5,mode=0620,ptmxmode=0666 devpts /dev/pts
  mount -t tmpfs -o mode=1777,nosuid,nodev tmpfs /dev/shm
  ln -sfn /proc/self/fd /dev/fd
  ln -sfn /proc/self/fd/0 /dev/stdin
  ln -sfn /proc/self/fd/1 /dev/stdout
  ln -sfn /proc/self/fd/2 /dev/stderr
  hostname scrolld-e2e 2>/dev/null || true

  # The initramfs loaded uinput and evdev already (modprobe over 9p costs ~5 s under emulation).
  [ -c /dev/uinput ] || modprobe -a uinput evdev || fail "modprobe uinput evdev"
  /lib/systemd/systemd-udevd --daemon || fail "start systemd-udevd"
  say "udevd started"
else
  # systemd-udevd.service runs; systemd-udev-trigger.service (a full coldplug) is masked
  [ -c /dev/uinput ] || fail "/dev/uinput missing"
fi
# Only the input subsystem: a full coldplug costs seconds under emulation and brings nothing.
udevadm trigger --action=add --subsystem-match=input
udevadm settle --timeout=60 || say "udevadm settle timed out"
say "udev ready"

cd "$E2E_WORKDIR" || fail "cd $E2E_WORKDIR"
export E2E_DIR E2E_WORKDIR E2E_KVER
# E2E_GUEST_TIMEOUT is counted from boot (the host's timeout covers the whole run): the script
# gets what is left, so it is stopped, and reports, before the host gives up on the guest.
read -r up _ </proc/uptime
budget=$((E2E_GUEST_TIMEOUT - ${up%.*}))
[ "$budget" -ge 10 ] || budget=10
say "running $E2E_GUEST_SCRIPT $E2E_WORKDIR (time limit ${budget}s)"
timeout -k 5 "$budget" /bin/bash "$E2E_GUEST_SCRIPT" "$E2E_WORKDIR" </dev/null
rc=$?
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  say "guest script timed out after ${budget}s (E2E_TIMEOUT)"
fi
say "guest script exited with status $rc"
echo "$rc" >"$E2E_WORKDIR/status.tmp" && mv "$E2E_WORKDIR/status.tmp" "$E2E_WORKDIR/status"
power_off
