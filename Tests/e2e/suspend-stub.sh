#!/bin/bash
# systemd-suspend.service's ExecStart in systemd-guest.sh's sleep step, in place of
# systemd-sleep (the kernel's sleep does not work under TCG: the guest never wakes). It runs
# where the kernel would suspend: logind has sent PrepareForSleep(true) and released the
# delay inhibitors, so a daemon that honours sleep has closed its devices by now.
#
#   suspend-stub.sh PID OUTFILE
#
# Writes one line to OUTFILE: "PID TOTAL INPUT", the descriptors process PID holds and how many
# of them resolve to /dev/input/*; "PID gone" when /proc/PID/fd cannot be listed (no such
# process), so that a vanished daemon never reads as one holding no device.
set -u
pid=$1 out=$2
if listing=$(ls -l "/proc/$pid/fd" 2>/dev/null); then
  total=$(grep -c ' -> ' <<<"$listing")
  input=$(grep -c ' -> /dev/input/' <<<"$listing")
  echo "$pid $total $input" >"$out.tmp"
else
  echo "$pid gone" >"$out.tmp"
fi
mv "$out.tmp" "$out"
exit 0
