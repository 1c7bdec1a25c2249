#!/bin/bash
# shellcheck disable=SC2015  # "a && b || die" is meant: die when either test fails
# Boots Debian's kernel under qemu (TCG) with the host root shared read-only, runs a guest script
# in it and exits with that script's status.
#
#   run-guest.sh GUEST_SCRIPT [WORKDIR]
#
# GUEST_SCRIPT  a bash script on the host; it runs in the guest as root (after uinput, evdev and
#               udevd are up) as `bash GUEST_SCRIPT WORKDIR`, with cwd WORKDIR and these
#               variables: E2E_DIR (this folder), E2E_WORKDIR, E2E_KVER.
# WORKDIR       shared read-write with the guest at the same path (default: a fresh temp dir).
#               Afterwards it holds the guest's files plus `status` (the guest script's exit
#               status) and `serial.log` (kernel + guest console).
#
# Environment:
#   E2E_CACHE     where setup.sh put the kernel and initramfs (default /var/cache/scrolld-e2e)
#   E2E_TIMEOUT   seconds for the whole boot-run-poweroff (default 600); the guest script itself
#                 is stopped ~20 s before that (counted from boot) so its output and status
#                 still come back
#   E2E_VERBOSE   1 = stream the serial console while the guest runs
#   E2E_QEMU_ARGS extra qemu arguments (word-split)
#   E2E_KERNEL_ARGS extra kernel command-line arguments (default "i8042.nokbd i8042.noaux": no
#                 PS/2 keyboard or mouse from the emulated machine, only the test's own devices)
#   E2E_INIT      what runs as PID 1 after the initramfs: "script" (default: guest-init.sh,
#                 a bash script that starts udevd and runs GUEST_SCRIPT) or "systemd" (the host's
#                 systemd boots a test target whose service runs GUEST_SCRIPT: guest-systemd-init.sh)
#
# Exit status: the guest script's status; 125 when the guest never reported one (boot failure,
# timeout, crash) - the serial log is printed whenever the status is not 0.
#
# WORKDIR/run-guest.txt records the run as KEY=VALUE lines (guest script, PID 1, wall time,
# timeout, status, load), which summarize.py reads.
set -euo pipefail

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CACHE=${E2E_CACHE:-/var/cache/scrolld-e2e}
TIMEOUT=${E2E_TIMEOUT:-600}

die() { echo "run-guest: error: $*" >&2; exit 125; }

[ $# -ge 1 ] && [ $# -le 2 ] || { sed -n '3,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
[ -f "$1" ] || die "guest script $1 not found"
GUEST_SCRIPT=$(realpath "$1")
if [ $# -ge 2 ]; then
  mkdir -p "$2"
  WORKDIR=$(realpath "$2")
else
  WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/scrolld-e2e.XXXXXX")
  # mktemp makes it 0700; the guest's unprivileged test user writes its results in it too.
  chmod 0755 "$WORKDIR"
fi
case $TIMEOUT in '' | *[!0-9]*) die "E2E_TIMEOUT must be a number of seconds";; esac
case ${E2E_INIT:=script} in
  script) STAGE2=$E2E_DIR/guest-init.sh ;;
  systemd) STAGE2=$E2E_DIR/guest-systemd-init.sh ;;
  *) die "E2E_INIT must be 'script' or 'systemd' (got '$E2E_INIT')" ;;
esac
[ "$TIMEOUT" -ge 40 ] || die "E2E_TIMEOUT=$TIMEOUT is too short to boot (use 40 or more)"

[ -f "$CACHE/kernel.env" ] || die "no kernel in $CACHE: run $E2E_DIR/setup.sh first"
# shellcheck disable=SC1091
. "$CACHE/kernel.env"
[ -f "$VMLINUZ" ] && [ -f "$INITRD" ] || die "kernel or initramfs missing in $CACHE: run $E2E_DIR/setup.sh"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing: run $E2E_DIR/setup.sh"

# The guest reads its parameters from a boot file on the (shared) host root; only its path,
# which has no spaces, goes on the kernel command line.
BOOTDIR=$(mktemp -d /tmp/scrolld-e2e-boot.XXXXXX)
QEMU_PID=
TAIL_PID=
# shellcheck disable=SC2317  # called through the trap
cleanup() {
  [ -z "$TAIL_PID" ] || kill "$TAIL_PID" 2>/dev/null || true
  [ -z "$QEMU_PID" ] || kill "$QEMU_PID" 2>/dev/null || true
  rm -rf "$BOOTDIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

{
  printf 'E2E_WORKDIR=%q\n' "$WORKDIR"
  printf 'E2E_GUEST_SCRIPT=%q\n' "$GUEST_SCRIPT"
  printf 'E2E_DIR=%q\n' "$E2E_DIR"
  printf 'E2E_STAGE2=%q\n' "$STAGE2"
  printf 'E2E_INIT=%q\n' "$E2E_INIT"
  printf 'E2E_KVER=%q\n' "$KVER"
  printf 'E2E_KERNEL_ROOT=%q\n' "$KERNEL_ROOT"
  printf 'E2E_GUEST_TIMEOUT=%q\n' "$((TIMEOUT - 20))"  # from the guest's boot
} >"$BOOTDIR/boot.env"

SERIAL=$WORKDIR/serial.log
QEMU_LOG=$BOOTDIR/qemu.log
rm -f "$WORKDIR/status" "$WORKDIR/status.tmp" "$SERIAL" "$WORKDIR/run-guest.txt"
: >"$SERIAL"

# qemu option values are comma-separated: a comma in a path is written as two.
qarg() { printf '%s' "${1//,/,,}"; }

echo "run-guest: booting $KVER under TCG ($E2E_INIT as PID 1) for $(basename "$GUEST_SCRIPT"), work dir $WORKDIR (timeout ${TIMEOUT}s)" >&2
start=$(date +%s.%N)
read -r load_start _ </proc/loadavg
if [ "${E2E_VERBOSE:-0}" = 1 ]; then
  tail -n +1 -f "$SERIAL" >&2 &
  TAIL_PID=$!
fi
set +e
# no_timer_check: the kernel's check that the 8254 timer reaches the IO-APIC counts ticks in a
# window that emulation on a busy host misses ("IO-APIC + timer doesn't work", a panic at boot);
# the check is for broken boards, and virtual machines' kernels skip it for that reason.
# shellcheck disable=SC2086
timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
  -accel tcg -m 1024 -smp 2 -nic none -no-reboot -display none -vga none \
  -serial "file:$(qarg "$SERIAL")" -monitor none \
  -kernel "$VMLINUZ" -initrd "$INITRD" \
  -append "console=ttyS0 panic=-1 loglevel=4 no_timer_check e2e.boot=$BOOTDIR/boot.env ${E2E_KERNEL_ARGS-i8042.nokbd i8042.noaux}" \
  -fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap" \
  -device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot \
  -fsdev "local,id=work,path=$(qarg "$WORKDIR"),security_model=none,multidevs=remap" \
  -device virtio-9p-pci,fsdev=work,mount_tag=work \
  ${E2E_QEMU_ARGS:-} >"$QEMU_LOG" 2>&1 &
QEMU_PID=$!
wait "$QEMU_PID"
qemu_rc=$?
QEMU_PID=
set -e
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN {printf "%.1f", e - s}')
read -r load_end _ </proc/loadavg
# What summarize.py needs, whatever the outcome (status "none": the guest never reported one).
{
  echo "script=$(basename "$GUEST_SCRIPT")"
  echo "init=$E2E_INIT"
  echo "kernel=$KVER"
  echo "started=$(date -u -d "@${start%.*}" +%Y-%m-%dT%H:%M:%SZ)"
  echo "elapsed_s=$elapsed"
  echo "timeout_s=$TIMEOUT"
  echo "status=$(cat "$WORKDIR/status" 2>/dev/null || echo none)"
  echo "load_start=$load_start"
  echo "load_end=$load_end"
  echo "cpus=$(nproc)"
} >"$WORKDIR/run-guest.txt"
if [ -n "$TAIL_PID" ]; then
  sleep 0.3
  kill "$TAIL_PID" 2>/dev/null || true
  wait "$TAIL_PID" 2>/dev/null || true
  TAIL_PID=
fi

show_logs() {
  if [ "${E2E_VERBOSE:-0}" != 1 ]; then
    echo "----- guest serial log ($SERIAL) -----" >&2
    cat "$SERIAL" >&2
    echo "----- end of guest serial log -----" >&2
  fi
  if [ -s "$QEMU_LOG" ]; then
    echo "----- qemu output -----" >&2
    cat "$QEMU_LOG" >&2
  fi
}

if [ -f "$WORKDIR/status" ]; then
  status=$(cat "$WORKDIR/status")
  case $status in '' | *[!0-9]*) show_logs; die "guest wrote a malformed status '$status'";; esac
  if [ "$status" != 0 ]; then
    show_logs
    echo "run-guest: FAILED: $(basename "$GUEST_SCRIPT") exited with status $status in the guest (${elapsed}s, work dir $WORKDIR)" >&2
  else
    echo "run-guest: ok: $(basename "$GUEST_SCRIPT") passed in the guest (${elapsed}s, work dir $WORKDIR)" >&2
  fi
  exit "$status"
fi

show_logs
case $qemu_rc in
  124 | 137) why="timed out after ${TIMEOUT}s (E2E_TIMEOUT)";;
  0) why="the guest powered off without reporting a status (boot failure?)";;
  *) why="qemu exited with status $qemu_rc";;
esac
echo "run-guest: FAILED: no status from the guest: $why (${elapsed}s, work dir $WORKDIR)" >&2
exit 125
