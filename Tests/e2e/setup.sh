#!/bin/bash
# shellcheck disable=SC2015  # "a && b || die" is meant: die when either test fails
# Prepares everything the real-kernel end-to-end harness needs, idempotently:
#   1. the host packages (apt-get update + install only when one is missing),
#   2. Debian's stock kernel (the package linux-image-amd64 depends on), unpacked into the cache
#      with its module dependency files,
#   3. a tiny initramfs (busybox-static as /init + the virtio/9p/overlay modules).
# With everything cached a run takes well under a second (no network, no apt query).
#
# Environment:
#   E2E_CACHE    cache folder (default /var/cache/scrolld-e2e); never inside the repository
#   E2E_REFRESH  1 = fetch the kernel again even if one is cached (picks up a newer Debian kernel)
#
# Writes $E2E_CACHE/kernel.env, which run-guest.sh reads:
#   KVER, KERNEL_PKG, KERNEL_ROOT (unpacked package), VMLINUZ, INITRD
set -euo pipefail

CACHE=${E2E_CACHE:-/var/cache/scrolld-e2e}
# dbus: with systemd as PID 1 in the guest (E2E_INIT=systemd), a user manager's runtime directory
# is made by systemd-user-runtime-dir, which asks logind over the system bus.
# dbus-user-session, dconf and GNOME's schemas: the user's session bus and GSettings, which the
# systemd guest's GNOME step writes with the real gsettings while scrolld follows (docs/design.md §23).
PACKAGES=(qemu-system-x86 busybox-static kmod cpio udev python3-libevdev libinput-tools dbus
  dbus-user-session dconf-service dconf-gsettings-backend gsettings-desktop-schemas libglib2.0-bin)
# Modules the initramfs loads (with their dependencies): what it needs to mount the host root,
# plus uinput and evdev (loading those from RAM is ~5 s faster than modprobe over 9p in the guest).
# (modprobe needs -a to take several names: without it the later names become module options.)
INITRAMFS_MODULES=(virtio_pci 9pnet_virtio 9p overlay uinput evdev)

log() { echo "e2e-setup: $*" >&2; }
die() { echo "e2e-setup: error: $*" >&2; exit 1; }

if [ "$(id -u)" = 0 ]; then SUDO=(); else SUDO=(sudo); fi

case $CACHE in /*) ;; *) die "E2E_CACHE must be an absolute path (got '$CACHE')";; esac

# --- 1. host packages -----------------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  "${SUDO[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
PATH=$PATH:/usr/sbin:/sbin
for tool in qemu-system-x86_64 depmod modprobe cpio dpkg-deb; do
  command -v "$tool" >/dev/null || die "$tool not found after installing packages"
done
BUSYBOX=/bin/busybox
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing (package busybox-static)"
file_is_static() { ! ldd "$1" >/dev/null 2>&1; }
file_is_static "$BUSYBOX" || die "$BUSYBOX is dynamically linked; install busybox-static"

"${SUDO[@]}" mkdir -p "$CACHE"
[ -w "$CACHE" ] || die "cannot write $CACHE (run as root or set E2E_CACHE)"
# One setup at a time per cache (parallel test runs may all call setup.sh).
exec 9>"$CACHE/.lock"
flock 9

# --- 2. the kernel --------------------------------------------------------------------------
kernel_ok() {
  [ -f "$CACHE/kernel.env" ] || return 1
  # shellcheck disable=SC1091,SC2153
  ( . "$CACHE/kernel.env" && [ -f "$VMLINUZ" ] && [ -f "$KERNEL_ROOT/lib/modules/$KVER/modules.dep.bin" ] )
}

fetch_kernel() {
  local pkg dl
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '$1=="Depends:" && $2 ~ /^linux-image-/ {print $2; exit}')
  if [ -z "$pkg" ]; then
    "${SUDO[@]}" apt-get update -qq
    pkg=$(apt-cache depends linux-image-amd64 | awk '$1=="Depends:" && $2 ~ /^linux-image-/ {print $2; exit}')
  fi
  [ -n "$pkg" ] || die "cannot tell which kernel package linux-image-amd64 depends on"
  log "fetching $pkg"
  dl=$(mktemp -d "$CACHE/.fetch.XXXXXX")
  # shellcheck disable=SC2064
  trap "rm -rf '$dl'" EXIT
  if ! (cd "$dl" && apt-get download -q "$pkg" >/dev/null 2>"$dl/apt.err"); then
    # Stale package lists name a file the mirror no longer has: refresh once and retry.
    log "apt-get download failed ($(tail -n1 "$dl/apt.err")); refreshing package lists"
    "${SUDO[@]}" apt-get update -qq
    (cd "$dl" && apt-get download -q "$pkg" >/dev/null) || die "apt-get download $pkg failed"
  fi
  dpkg-deb -x "$dl"/*.deb "$dl/root"
  local kver
  kver=$(ls "$dl/root/lib/modules")
  [ -n "$kver" ] && [ "$(echo "$kver" | wc -l)" = 1 ] || die "unexpected modules folder in $pkg: $kver"
  depmod -b "$dl/root" "$kver"
  rm -rf "$CACHE/kernel-$kver"
  mv "$dl/root" "$CACHE/kernel-$kver"
  cat >"$CACHE/kernel.env.new" <<EOF
KVER=$kver
KERNEL_PKG=$pkg
KERNEL_ROOT=$CACHE/kernel-$kver
VMLINUZ=$CACHE/kernel-$kver/boot/vmlinuz-$kver
INITRD=$CACHE/initramfs-$kver.img
EOF
  mv "$CACHE/kernel.env.new" "$CACHE/kernel.env"
  rm -rf "$dl"
  trap - EXIT
  # Drop kernels this cache no longer points to.
  for old in "$CACHE"/kernel-*; do
    [ "$old" = "$CACHE/kernel-$kver" ] || rm -rf "$old" "$CACHE/initramfs-${old#"$CACHE"/kernel-}".*
  done
}

if [ "${E2E_REFRESH:-0}" = 1 ] || ! kernel_ok; then
  fetch_kernel
fi
# shellcheck disable=SC1091
. "$CACHE/kernel.env"

# --- 3. the initramfs -----------------------------------------------------------------------
# Stage 1 of the guest boot. It loads the modules, mounts the host root (9p, read-only) under a
# tmpfs overlay, mounts the work share and the cached kernel's modules, and hands over to the
# stage-2 script (guest-init.sh, from the host) named in the boot file that run-guest.sh writes.
# Everything run-specific comes from that file, so this image only changes with the kernel.
read -r -d '' INIT <<'INIT_EOF' || true
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
fail() {
  echo "e2e-init: FAILED: $*"
  echo o >/proc/sysrq-trigger
  sleep 30
}
echo "e2e-init: stage 1 at $(cut -d' ' -f1 /proc/uptime)s"
while read -r m; do
  insmod "/modules/$m" || fail "insmod $m"
done </modules.order
boot=
for w in $(cat /proc/cmdline); do
  case $w in e2e.boot=*) boot=${w#e2e.boot=} ;; esac
done
[ -n "$boot" ] || fail "no e2e.boot= on the kernel command line"
P9="trans=virtio,version=9p2000.L,msize=512000"
mkdir -p /host /rw /newroot
mount -t 9p -o "$P9,ro,cache=loose" hostroot /host || fail "mount host root over 9p"
mount -t tmpfs -o mode=0755 tmpfs /rw || fail "mount tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/host,upperdir=/rw/upper,workdir=/rw/work overlay /newroot \
  || fail "mount overlay"
[ -f "/newroot$boot" ] || fail "boot file $boot not visible in the guest"
. "/newroot$boot"
mkdir -p "/newroot$E2E_WORKDIR"
mount -t 9p -o "$P9" work "/newroot$E2E_WORKDIR" || fail "mount work share at $E2E_WORKDIR"
mkdir -p "/newroot/lib/modules/$E2E_KVER"
mount -o bind "/newroot$E2E_KERNEL_ROOT/lib/modules/$E2E_KVER" "/newroot/lib/modules/$E2E_KVER" \
  || fail "bind-mount the kernel modules"
# The host may be a container; nothing in the guest should believe it is one.
rm -f /newroot/.dockerenv
echo "e2e-init: switching root at $(cut -d' ' -f1 /proc/uptime)s"
for d in dev proc sys; do
  mount --move "/$d" "/newroot/$d" || fail "move /$d"
done
exec switch_root /newroot /bin/bash "$E2E_STAGE2" "$boot"
INIT_EOF

initrd_modules() {
  modprobe -a -d "$KERNEL_ROOT" -S "$KVER" --show-depends "${INITRAMFS_MODULES[@]}" \
    | awk '$1=="insmod" && !seen[$2]++ {print $2}'
}
mods=$(initrd_modules) || die "modprobe --show-depends failed"
stamp=$( { echo "$INIT"; echo "$KVER"; echo "$mods"; sha256sum "$BUSYBOX"; } | sha256sum | cut -d' ' -f1)
if [ -f "$INITRD" ] && [ "$(cat "$INITRD.stamp" 2>/dev/null)" = "$stamp" ]; then
  log "cached: $KERNEL_PKG ($KVER), $(basename "$INITRD")"
  exit 0
fi

log "building $(basename "$INITRD")"
img=$(mktemp -d "$CACHE/.initramfs.XXXXXX")
# shellcheck disable=SC2064
trap "rm -rf '$img'" EXIT
mkdir -p "$img"/{bin,dev,proc,sys,modules}
cp "$BUSYBOX" "$img/bin/busybox"
printf '%s\n' "$INIT" >"$img/init"
chmod 0755 "$img/init"
: >"$img/modules.order"
while read -r ko; do
  [ -n "$ko" ] || continue
  name=$(basename "$ko")
  case $name in
    *.ko) cp "$ko" "$img/modules/$name" ;;
    *.ko.xz) xz -dc "$ko" >"$img/modules/${name%.xz}"; name=${name%.xz} ;;
    *.ko.zst) zstd -qdc "$ko" >"$img/modules/${name%.zst}"; name=${name%.zst} ;;
    *.ko.gz) gzip -dc "$ko" >"$img/modules/${name%.gz}"; name=${name%.gz} ;;
    *) die "unexpected module file $ko" ;;
  esac
  echo "$name" >>"$img/modules.order"
done <<<"$mods"
(cd "$img" && find . -print0 | cpio --null -o -H newc -R 0:0 --quiet) | gzip -1 >"$INITRD.new"
mv "$INITRD.new" "$INITRD"
echo "$stamp" >"$INITRD.stamp"
log "ready: $KERNEL_PKG ($KVER), $(basename "$INITRD") with $(wc -l <"$img/modules.order") modules"
