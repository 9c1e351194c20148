#!/usr/bin/env bash
# `npm run libvirt:image [-- <outDir>]`: a small bootable guest for the libvirt driver's tests and
# the lab host, from Debian's packages only: Debian's cloud kernel, a busybox initramfs that reads
# its cloud-init NoCloud seed and reports what it got on the serial console (guest/), dropbear for
# SSH, and a base disk the driver's overlays sit on.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=$(realpath -m "${1:-data/libvirt/images/launchpad-busybox}")
cache=$root/data/libvirt/cache
guest=$root/scripts/libvirt/guest

need() {
  command -v "$1" >/dev/null 2>&1 || { echo "libvirt:image needs $1 (apt-get install $2)" >&2; exit 1; }
}
need qemu-img qemu-utils
need cpio cpio
need mkfs.ext4 e2fsprogs
need dropbear dropbear-bin
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx udhcpc ||
  { echo "libvirt:image needs a static busybox (apt-get install busybox-static)" >&2; exit 1; }

mkdir -p "$out" "$cache"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The kernel: the package the cloud meta-package points at today, kept in the cache.
package=$(apt-cache depends linux-image-cloud-amd64 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
[ -n "$package" ] || { echo "libvirt:image: no linux-image-cloud-amd64 in apt's lists (run apt-get update)" >&2; exit 1; }
deb=$(ls "$cache/${package}"_*.deb 2>/dev/null | head -n1 || true)
if [ -z "$deb" ]; then
  (cd "$cache" && apt-get download "$package" >/dev/null)
  deb=$(ls "$cache/${package}"_*.deb | head -n1)
fi
dpkg-deb -x "$deb" "$work/kernel"
install -m 0644 "$work"/kernel/boot/vmlinuz-* "$out/vmlinuz"
modules=$(echo "$work"/kernel/lib/modules/*/kernel)

# The initramfs: busybox, the modules the guest's devices need (in dependency order; the IDE CD-ROM
# is where Nova puts its config drive), dropbear with
# the shared libraries it links, and the guest's scripts.
rootfs=$work/rootfs
mkdir -p "$rootfs"/{bin,sbin,etc/acpi/PWRF,etc/dropbear,proc,sys,dev,tmp,root,home,mnt,www,var/run,var/log,lib/modules,usr/share/udhcpc,usr/sbin,usr/bin}
cp /bin/busybox "$rootfs/bin/busybox"
ln -s busybox "$rootfs/bin/sh"
ln -s ../bin/busybox "$rootfs/sbin/init"
ln -s busybox "$rootfs/bin/init"
order=(virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci failover net_failover
  virtio_net virtio_blk virtio_balloon cdrom isofs button evdev pvpanic pvpanic-mmio
  scsi_common scsi_mod libata ata_piix sr_mod)
for m in "${order[@]}"; do
  file=$(find "$modules" -name "$m.ko" | head -n1)
  [ -n "$file" ] || { echo "libvirt:image: module $m not in $package" >&2; exit 1; }
  cp "$file" "$rootfs/lib/modules/"
done
printf '%s\n' "${order[@]}" > "$rootfs/lib/modules/load-order"

for binary in /usr/sbin/dropbear /usr/bin/dropbearkey; do
  cp "$binary" "$rootfs$binary"
  for lib in $(ldd "$binary" | awk '/=>/ {print $3} /ld-linux/ {print $1}'); do
    mkdir -p "$rootfs$(dirname "$lib")"
    cp -L "$lib" "$rootfs$lib"
  done
done
ln -s ../usr/sbin/dropbear "$rootfs/sbin/dropbear"
ln -s ../usr/bin/dropbearkey "$rootfs/bin/dropbearkey"

install -m 0755 "$guest/init" "$rootfs/init"
install -m 0644 "$guest/inittab" "$rootfs/etc/inittab"
install -m 0755 "$guest/rc" "$rootfs/etc/rc"
install -m 0755 "$guest/seed.sh" "$rootfs/etc/seed.sh"
install -m 0755 "$guest/udhcpc.script" "$rootfs/usr/share/udhcpc/default.script"
install -m 0755 "$guest/power-button" "$rootfs/etc/acpi/PWRF/00000080"
echo 'root:x:0:0:root:/root:/bin/sh' > "$rootfs/etc/passwd"
echo 'root:*:20000:0:99999:7:::' > "$rootfs/etc/shadow"
chmod 0600 "$rootfs/etc/shadow"
echo 'root:x:0:' > "$rootfs/etc/group"
echo '/bin/sh' > "$rootfs/etc/shells"
printf 'passwd: files\ngroup: files\nshadow: files\n' > "$rootfs/etc/nsswitch.conf"
echo launchpad > "$rootfs/etc/hostname"
(cd "$rootfs" && find . | cpio -o -H newc --quiet | gzip -9) > "$out/initrd.img"

# The base disk: an ext4 file system with a marker the guest reports, as qcow2.
mkdir -p "$work/base"
echo 'launchpad base image' > "$work/base/launchpad-base"
truncate -s 1G "$work/base.raw"
mkfs.ext4 -q -F -L launchpad -d "$work/base" "$work/base.raw"
qemu-img convert -f raw -O qcow2 "$work/base.raw" "$out/base.qcow2"

cat > "$out/image.json" <<JSON
{
  "kernel": "$out/vmlinuz",
  "initrd": "$out/initrd.img",
  "base": "$out/base.qcow2",
  "cmdline": "console=tty0 console=ttyS0 panic=-1",
  "username": "launchpad"
}
JSON
# QEMU runs as libvirt-qemu: every file and the folders down to them must be readable by it.
chmod 0644 "$out"/*
chmod 0755 "$out"
echo "built $out: vmlinuz ($package), initrd.img ($(du -h "$out/initrd.img" | cut -f1)), base.qcow2, image.json"
