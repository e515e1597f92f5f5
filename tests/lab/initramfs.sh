#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# initramfs.sh - build the lab guest's initramfs: busybox, the freshly built
# blkalign with its shared libraries, the storage tools the scenarios drive
# (mdadm, lvm2, dmsetup, kpartx, cryptsetup, util-linux, gdisk, e2fsprogs,
# xfsprogs, dosfstools, exfatprogs) with theirs, the kernel modules the
# stacks and filesystems need, the guest's /init and the scenario
# scripts.
#
# Usage: tests/lab/initramfs.sh BUILD MODDIR KVER OUT
#   BUILD   blkalign build directory (cli/blkalign, lib/libblkalign.so.0)
#   MODDIR  a root holding lib/modules/KVER (an unpacked linux-image deb)
#   OUT     the gzip'd newc cpio to write
set -eu
lab=$(cd "$(dirname "$0")" && pwd)
build=$1 moddir=$2 kver=$3 out=$4
root=$(mktemp -d "${TMPDIR:-/tmp}/blkalign-lab-root.XXXXXX")
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,run,tmp,out,lab/bin,lab/lib}
mkdir -p "$root"/etc/lvm "$root"/run/lock "$root"/run/cryptsetup

# copy_with_libs FILE...: each file at its own path, with every shared
# library ldd names for it, so the guest runs the host's exact binaries.
copy_with_libs() {
	local f lib
	for f in "$@"; do
		mkdir -p "$root$(dirname "$f")"
		cp -L "$f" "$root$f"
		for lib in $(ldd "$f" 2>/dev/null | grep -oE '/[^ ]+\.so[^ ]*'); do
			[ -e "$root$lib" ] && continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
}

cp /bin/busybox "$root/bin/busybox"
# bash runs the scenarios: busybox's sh prefers its own applets (blockdev,
# losetup, dd) to the real tools of the same name in PATH.
tools=(bash mdadm lvm dmsetup kpartx cryptsetup sfdisk sgdisk blockdev lsblk
	mkfs.ext4 mke2fs dumpe2fs mkfs.xfs mkfs.vfat mkfs.exfat wipefs partx
	losetup setpriv)
for t in "${tools[@]}"; do
	copy_with_libs "$(command -v "$t")"
done
copy_with_libs /usr/bin/dd /usr/bin/sha256sum /usr/bin/tr /usr/bin/sort
# lvm's commands are names of the one binary
for c in pvcreate pvs pvremove vgcreate vgs vgremove vgchange lvcreate lvs \
	lvremove lvchange pvdisplay; do
	ln -sf /usr/sbin/lvm "$root/sbin/$c"
done
# no udev in the guest: lvm and libdevmapper must not wait for it
cat >"$root/etc/lvm/lvm.conf" <<'EOF'
devices { obtain_device_list_from_udev = 0 scan = [ "/dev" ] }
activation { udev_sync = 0 udev_rules = 0 monitoring = 0 }
global { use_lvmetad = 0 }
EOF

copy_with_libs "$build/cli/blkalign"
cp -L "$build/cli/blkalign" "$root/lab/bin/blkalign"
cp -L "$build/lib/libblkalign.so.0" "$root/lab/lib/"

# The modules the stacks need, with their dependencies (modules.dep, made
# by depmod on the unpacked tree).
mods=(virtio_pci virtio_blk md-mod raid0 raid1 raid10 raid456 dm-mod dm-crypt
	scsi_debug sd_mod ext4 xfs xts crc32c_generic libcrc32c vfat exfat
	nls_cp437 nls_ascii nls_utf8)
kdir=$moddir/lib/modules/$kver
[ -f "$kdir/modules.dep" ] || depmod -b "$moddir" "$kver"
need=$(for m in "${mods[@]}"; do modprobe -d "$moddir" -S "$kver" \
	--show-depends "$m" 2>/dev/null; done | awk '$1 == "insmod" {print $2}' | sort -u)
for f in $need; do
	rel=${f#"$moddir"}
	mkdir -p "$root$(dirname "$rel")"
	cp "$f" "$root$rel"
done
# dm-crypt asks for its ciphers by name (xts(aes)): every crypto module,
# loaded on demand by the kernel through /sbin/modprobe
for f in "$kdir"/kernel/crypto/*.ko "$kdir"/kernel/arch/x86/crypto/*.ko; do
	rel=${f#"$moddir"}
	mkdir -p "$root$(dirname "$rel")"
	cp -n "$f" "$root$rel"
done
ln -sf /bin/busybox "$root/sbin/modprobe"
cp "$kdir"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$kver/"
depmod -b "$root" "$kver"

cp "$lab/guest/init" "$root/init"
cp "$lab"/guest/*.sh "$root/lab/"
chmod 755 "$root/init"
# mktemp made the root 0700: the guest's / must let an ordinary user
# (the scenarios' setpriv runs) reach /lab
chmod 755 "$root"

(cd "$root" && find . | busybox cpio -o -H newc 2>/dev/null) | gzip -1 >"$out"
