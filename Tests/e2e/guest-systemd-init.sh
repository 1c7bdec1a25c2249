#!/bin/bash
# Stage 2 of the guest boot when run-guest.sh runs with E2E_INIT=systemd. Not run by hand: the
# initramfs executes it as PID 1 with the boot file as its argument.
#
# Prepares the overlay's /etc (tmpfs over the read-only host root, so nothing reaches the host)
# and execs the host's systemd as PID 1. systemd then boots e2e.target: basic.target (journald,
# udevd, tmpfiles, D-Bus socket, ...) plus e2e-run.service, which runs
# `guest-init.sh --under-systemd`: the input coldplug, the guest script with its time limit,
# WORKDIR/status and the power-off, as in the default mode.
#
# What slows a hardware-less boot under emulation, or waits for hardware that is not there, is
# masked (Tests/e2e/README.md, "Why this recipe" and "systemd as PID 1").
set -u
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

say() { echo "e2e-guest: $* (t=$(cut -d' ' -f1 /proc/uptime)s)"; }
fail() {
  say "FAILED: $*"
  sync
  echo o >/proc/sysrq-trigger
  sleep 60
}

# Files are written with builtins only: every fork costs a good fraction of a second under TCG.
write_file() {  # write_file PATH <<'EOF' ... (stdin becomes the file)
  local content
  IFS= read -r -d '' content || true
  printf '%s' "$content" >"$1" || fail "write $1"
}

BOOT=${1:?usage: guest-systemd-init.sh BOOTFILE}
# shellcheck disable=SC1090
. "$BOOT" || fail "cannot read boot file $BOOT"
say "stage 2 (systemd)"
[ $$ = 1 ] || fail "guest-systemd-init.sh must run as PID 1"
[ -x /lib/systemd/systemd ] || fail "/lib/systemd/systemd missing on the host (package systemd)"

# The overlay shows the host's /run underneath; systemd must start from an empty one (a container
# marker there would make it ignore the kernel command line and skip half the boot).
mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs /run || fail "mount /run"

UNITS=/etc/systemd/system
: >/etc/fstab  # the host's file systems do not exist here: waiting for one costs 90 s
[ ! -e /etc/crypttab ] || : >/etc/crypttab
echo scrolld-e2e >/etc/hostname

MASKED=(
  # generators: each is a process started from 9p before any unit runs, and none has work here
  # (no fstab, disks, encrypted volumes, init scripts, rc.local or gettys)
  system-generators/{systemd-fstab-generator,systemd-getty-generator,systemd-gpt-auto-generator}
  system-generators/{systemd-cryptsetup-generator,systemd-integritysetup-generator}
  system-generators/{systemd-veritysetup-generator,systemd-hibernate-resume-generator}
  system-generators/{systemd-sysv-generator,systemd-rc-local-generator,systemd-run-generator}
  system-generators/{systemd-system-update-generator,systemd-debug-generator,postgresql-generator}
  # a full coldplug (the test triggers the input subsystem only) and the wait for it
  system/{systemd-udev-trigger,systemd-udev-settle}.service
  # consoles: console=ttyS0 would put a getty on the serial log
  system/{getty.target,getty@tty1.service,serial-getty@ttyS0.service,console-getty.service}
  # timers, network, clock
  system/{timers.target,systemd-timesyncd.service,systemd-networkd.service,systemd-resolved.service}
  # first-boot and update work: nothing to do on a throw-away overlay, seconds each under TCG
  system/{systemd-firstboot,systemd-sysusers,systemd-hwdb-update,ldconfig}.service
  system/{systemd-journal-catalog-update,systemd-update-done,systemd-machine-id-commit}.service
  system/{systemd-repart,systemd-pcrphase,systemd-pcrphase-sysinit}.service
  # state that would be written to the host's disk, and the wait for it
  system/{systemd-remount-fs,systemd-journal-flush,systemd-random-seed}.service
  system/{systemd-update-utmp,systemd-pstore}.service
  # modprobe over 9p, for subsystems nothing here uses
  system/{systemd-modules-load,kmod-static-nodes,systemd-binfmt}.service
  system/{proc-sys-fs-binfmt_misc.automount,sys-kernel-config.mount,sys-fs-fuse-connections.mount}
  system/modprobe@{configfs,fuse,drm,efi_pstore,dm_mod,loop}.service
  # a tmpfs on /tmp would hide a work folder below it
  system/tmp.mount
  system/{apparmor,e2scrub_reap}.service
  # a user manager started in the guest: no gpg-agent, autostart or tmpfiles work at its start
  user-environment-generators/90gpg-agent user-generators/systemd-xdg-autostart-generator
  user/{gpg-agent,gpg-agent-browser,gpg-agent-extra,gpg-agent-ssh,dirmngr,pk-debconf-helper}.socket
  user/{systemd-tmpfiles-setup.service,systemd-tmpfiles-clean.timer}
)
# One process for all of them: every fork costs a good fraction of a second under TCG.
perl -e 'use File::Path "make_path"; my $dir = shift;
  for (@ARGV) { my $link = "$dir/$_"; (my $parent = $link) =~ s{/[^/]+$}{}; make_path($parent);
                unlink $link; symlink("/dev/null", $link) or die "mask $link: $!\n" }' \
  /etc/systemd "${MASKED[@]}" || fail "masking units"
mkdir -p /etc/tmpfiles.d
# Debian's tmp.conf empties /tmp at boot, and the work folder may be mounted below it.
printf 'd /tmp 1777 root root -\nd /var/tmp 1777 root root -\n' >/etc/tmpfiles.d/tmp.conf

# The paths go into a script, not into the unit, so no quoting or %-specifier rules apply to them.
printf 'exec /bin/bash %q --under-systemd %q\n' "$E2E_DIR/guest-init.sh" "$BOOT" >/etc/e2e-run.sh
write_file "$UNITS/e2e-run.service" <<'EOF'
[Unit]
Description=scrolld end-to-end guest script
After=basic.target systemd-udevd.service
Wants=systemd-udevd.service

[Service]
Type=exec
ExecStart=/bin/bash /etc/e2e-run.sh
StandardInput=null
StandardOutput=tty
StandardError=tty
TTYPath=/dev/console
# guest-init.sh powers off itself; this is for when it dies first
FailureAction=poweroff-immediate
EOF
write_file "$UNITS/e2e.target" <<'EOF'
[Unit]
Description=scrolld end-to-end test boot
Requires=basic.target
Wants=e2e-run.service
After=basic.target
AllowIsolate=yes
EOF
ln -sfn "$UNITS/e2e.target" "$UNITS/default.target" || fail "set default.target"

say "exec systemd"
exec /lib/systemd/systemd
