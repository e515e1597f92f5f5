#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mkvmimages.sh - the 20 VM disk images of bench/vm-images.sh (and of
# tests/ts/bench/vm-images): layouts real installers make, built with the
# real tools (parted, sgdisk, sfdisk, mkfs.*, mkswap, cryptsetup,
# tests/fixtures/mk-md.py for md superblocks: no md driver here), each
# then converted by qemu-img to one of qcow2, vmdk, vhdx, vpc, vdi (four
# images each).  Disks are 2 GiB sparse (seed 002's is 20 GiB, sparse):
# what is written is partition tables, superblocks and mkfs metadata.
#
# Usage: bench/mkvmimages.sh DIR
# DIR gets raw/NAME (the raw disk), img/NAME.FMT (the converted image)
# and manifest.tsv (NAME FMT DESCRIPTION, tab-separated), written last:
# its presence marks a complete set.
# Needs: parted sgdisk sfdisk mkfs.vfat mkfs.ext3 mkfs.ext4 mkfs.btrfs
# mkfs.ntfs mkswap cryptsetup python3 xz qemu-img; and the ZFS vdev of
# util-linux's test corpus (../shared/corpus/util-linux/images-fs/
# zfs.img.xz, or $ZFS_VDEV).
set -eu
export LC_ALL=C

if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 16
fi
DIR=$1
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
ZFS_VDEV=${ZFS_VDEV:-$TOP/../shared/corpus/util-linux/images-fs/zfs.img.xz}
for p in parted sgdisk sfdisk mkfs.vfat mkfs.ext3 mkfs.ext4 mkfs.btrfs \
	mkfs.ntfs mkswap cryptsetup python3 xz qemu-img; do
	command -v "$p" >/dev/null || { echo "$0: '$p' is not installed" >&2; exit 2; }
done
[ -f "$ZFS_VDEV" ] || { echo "$0: no ZFS vdev at $ZFS_VDEV (set ZFS_VDEV)" >&2; exit 2; }

rm -rf "$DIR"
mkdir -p "$DIR/raw" "$DIR/img"
W=$DIR/work
mkdir -p "$W"
MANIFEST=$DIR/manifest.tsv.tmp
: >"$MANIFEST"
GIB2=$((2 * 1024 * 1024 * 1024))
ESP=C12A7328-F81F-11D2-BA4B-00A0C93EC93B
BIOSBOOT=21686148-6449-6E6F-744E-656564454649

log() { printf '%s\n' "$*" >&2; }
fail() { log "$0: $*"; exit 1; }

# quiet CMD...: run CMD, its output shown only when it fails.
quiet() {
	"$@" >"$W/cmd.out" 2>&1 || { cat "$W/cmd.out" >&2; fail "failed: $*"; }
}

# new IMG [BYTES]: a sparse, zero-filled disk (default 2 GiB).
new() {
	rm -f "$1"
	truncate -s "${2:-$GIB2}" "$1"
}

# fs IMG START SECTORS KIND [MKFS-OPTION...]: a filesystem (or swap,
# or LUKS2) made by the real tool in a file of the partition's size,
# copied into the partition (sparse: only what the tool wrote).
fs() {
	local img=$1 start=$2 sectors=$3 kind=$4 f=$W/fs.img
	shift 4
	rm -f "$f"
	truncate -s $((sectors * 512)) "$f"
	case $kind in
	vfat) quiet mkfs.vfat "$@" "$f" ;;
	ext3) quiet mkfs.ext3 -q -F -E nodiscard "$@" "$f" ;;
	ext4) quiet mkfs.ext4 -q -F -E nodiscard "$@" "$f" ;;
	btrfs) quiet mkfs.btrfs -q -f "$@" "$f" ;;
	ntfs) quiet mkfs.ntfs -F -Q "$@" "$f" ;;
	swap) quiet mkswap "$@" "$f" ;;
	luks2)
		printf 'bench' | quiet cryptsetup luksFormat --batch-mode --type luks2 \
			--pbkdf pbkdf2 --pbkdf-force-iterations 1000 --key-file - "$@" "$f"
		;;
	*) fail "fs: unknown kind $kind" ;;
	esac
	dd if="$f" of="$img" bs=1M seek=$((start * 512)) oflag=seek_bytes \
		conv=notrunc,sparse status=none
	rm -f "$f"
}

# sf IMG < SCRIPT: sfdisk writes the table the script gives.
sf() {
	sfdisk -q --no-reread --no-tell-kernel "$1" >"$W/cmd.out" 2>&1 ||
		{ cat "$W/cmd.out" >&2; fail "sfdisk failed on $1"; }
}

# md IMG START SECTORS MK-MD-OPTION...: an md member superblock in the
# partition [START, START + SECTORS).
md() {
	local img=$1 start=$2 sectors=$3
	shift 3
	quiet python3 "$TOP/tests/fixtures/mk-md.py" --offset $((start * 512)) \
		--region-sectors "$sectors" "$@" "$img"
}

# add NAME FMT DESCRIPTION: convert raw/NAME to img/NAME.FMT.
add() {
	local name=$1 fmt=$2 opts=()
	[ "$fmt" = vpc ] && opts=(-o force_size=on) # else CHS rounds the size
	quiet qemu-img convert -O "$fmt" "${opts[@]}" "$DIR/raw/$name" "$DIR/img/$name.$fmt"
	printf '%s\t%s\t%s\n' "$name" "$fmt" "$3" >>"$MANIFEST"
}

# 2 GiB: 4194304 sectors; a GPT's last usable LBA is 4194270.  Old dos
# tables end partitions on cylinders of 255 heads x 63 sectors (16065);
# 2 GiB holds 261 whole cylinders (4192965 sectors).

# 1. Debian 12 UEFI: partman is parted, -a optimal: ESP 512 MiB, root
# 1 GiB, swap to 100% (parted aligns that end down to 1 MiB).
r=$DIR/raw/debian12-uefi
new "$r"
quiet parted -s -a optimal "$r" mklabel gpt mkpart ESP fat32 1MiB 513MiB set 1 esp on \
	mkpart root ext4 513MiB 1537MiB mkpart swap linux-swap 1537MiB 100%
fs "$r" 2048 1048576 vfat -F 32
fs "$r" 1050624 2097152 ext4
fs "$r" 3147776 1044480 swap
add debian12-uefi qcow2 "Debian 12 UEFI (parted -a optimal): ESP 2048, root, swap"

# 2. Ubuntu 22.04 UEFI as curtin/sgdisk makes it: ESP 1 GiB at 2048, root
# to the last usable LBA (sgdisk -n 2:0:0 does not align the end).
r=$DIR/raw/ubuntu2204-uefi
new "$r"
quiet sgdisk -n 1:2048:+1G -t 1:ef00 -n 2:0:0 -t 2:8300 "$r"
fs "$r" 2048 2097152 vfat -F 32
fs "$r" 2099200 2095071 ext4
add ubuntu2204-uefi vmdk "Ubuntu 22.04 UEFI (sgdisk): ESP 2048, root to the last LBA"

# 3. Fedora 39 UEFI (anaconda/blivet, parted): ESP 600 MiB, /boot 1 GiB
# ext4, root btrfs, ends on 1 MiB.
r=$DIR/raw/fedora39-uefi
new "$r"
quiet parted -s -a optimal "$r" mklabel gpt mkpart EFI fat32 1MiB 601MiB set 1 esp on \
	mkpart boot ext4 601MiB 1625MiB mkpart root btrfs 1625MiB 2047MiB
fs "$r" 2048 1228800 vfat -F 32
fs "$r" 1230848 2097152 ext4
fs "$r" 3328000 864256 btrfs
add fedora39-uefi vhdx "Fedora 39 UEFI (parted): ESP 2048, /boot ext4, root btrfs"

# 4. Windows 11 GPT (Windows setup, 1 MiB grid): ESP 100 MiB FAT32, MSR
# 16 MiB, basic data NTFS, recovery NTFS.
r=$DIR/raw/win11-gpt
new "$r"
quiet sgdisk -n 1:2048:+100M -t 1:ef00 -n 2:0:+16M -t 2:0c01 -n 3:0:+1400M -t 3:0700 \
	-n 4:0:+500M -t 4:2700 "$r"
fs "$r" 2048 204800 vfat -F 32
fs "$r" 239616 2867200 ntfs -p 239616
fs "$r" 3106816 1024000 ntfs -p 3106816
add win11-gpt vpc "Windows 11 GPT: ESP 100 MiB, MSR 16 MiB, basic data, recovery on 1 MiB"

# 5. CentOS 5 (old anaconda/fdisk, cylinders): /boot at 63 ext3 with
# 1 KiB blocks, LVM to the last whole cylinder.
r=$DIR/raw/centos5-dos63
new "$r"
sf "$r" <<-EOF
	label: dos
	start=63, size=208782, type=83, bootable
	start=208845, size=3984120, type=8e
EOF
fs "$r" 63 208782 ext3 -b 1024
add centos5-dos63 vdi "CentOS 5 dos at 63 (cylinders): /boot ext3 1 KiB blocks, LVM"

# 6. Windows XP: one NTFS at 63 to the last whole cylinder.
r=$DIR/raw/winxp-dos63
new "$r"
sf "$r" <<-EOF
	label: dos
	start=63, size=4192902, type=7, bootable
EOF
fs "$r" 63 4192902 ntfs -p 63 -H 255 -S 63
add winxp-dos63 qcow2 "Windows XP dos at 63: one NTFS to the last cylinder"

# 7. FreeBSD 9 (gpart add without -a): freebsd-boot at 34 (64 KiB),
# freebsd-ufs 1.5 GiB, freebsd-swap to the last usable LBA.
r=$DIR/raw/freebsd9-gpt34
new "$r"
quiet sgdisk -a 1 -n 1:34:+64K -t 1:a501 -n 2:162:+1536M -t 2:a503 -n 3:3145890:0 \
	-t 3:a502 "$r"
add freebsd9-gpt34 vmdk "FreeBSD 9 GPT at 34 (gpart): boot, ufs, swap"

# 8. FreeBSD 10 (gpart add -a 4k): freebsd-boot at 40 (512 KiB), ufs at
# 1064, swap to the last 4 KiB boundary.
r=$DIR/raw/freebsd10-gpt40
new "$r"
quiet sgdisk -a 8 -n 1:40:+512K -t 1:a501 -n 2:1064:+1536M -t 2:a503 \
	-n 3:3146792:4194263 -t 3:a502 "$r"
add freebsd10-gpt40 vhdx "FreeBSD 10 GPT at 40 (gpart -a 4k): boot, ufs, swap"

# 9. A ZFS vdev (ashift 9, as zpool makes it on a 512e drive reporting
# 512-byte sectors) in a zpool-style GPT: data at 2048, reserved 8 MiB
# partition 9 after it.
r=$DIR/raw/zfs-member
new "$r"
quiet sgdisk -n 1:2048:+132096 -t 1:bf01 -n 9:135168:+8M -t 9:bf07 "$r"
xz -dc "$ZFS_VDEV" >"$W/zfs.vdev"
dd if="$W/zfs.vdev" of="$r" bs=512 seek=2048 conv=notrunc,sparse status=none
rm -f "$W/zfs.vdev"
add zfs-member vpc "ZFS member (ashift 9) in a zpool GPT: vdev at 2048, part 9 reserved"

# 10. Seed 002's table (README): dos 1,14281784 / 14281785,27647865 on
# 20 GiB.
r=$DIR/raw/seed002
new "$r" $((20 * 1024 * 1024 * 1024))
printf 'label: dos\nunit: sectors\n1,14281784,82\n14281785,27647865,83\n' | sf "$r"
add seed002 vdi "seed 002: dos at 1 and 14281785, 20 GiB"

# 11. An md RAID-1 member as the Debian installer makes it: dos partition
# at 2048 (type fd) to the end, metadata 1.2, data offset 2048 sectors.
r=$DIR/raw/md12-member
new "$r"
sf "$r" <<-EOF
	label: dos
	start=2048, type=fd
EOF
md "$r" 2048 4192256 --metadata 1.2 --level 1 --raid-disks 2 --data-offset 2048
add md12-member qcow2 "md RAID-1 member (1.2, data offset 1 MiB) at 2048"

# 12. CentOS 5 software RAID-1 /boot member: metadata 0.90 (data at the
# member's start) in a partition at 63, a second member partition after.
r=$DIR/raw/md090-dos63
new "$r"
sf "$r" <<-EOF
	label: dos
	start=63, size=208782, type=fd, bootable
	start=208845, size=3984120, type=fd
EOF
md "$r" 63 208782 --metadata 0.90 --level 1 --raid-disks 2
md "$r" 208845 3984120 --metadata 0.90 --level 1 --raid-disks 2
add md090-dos63 vmdk "md RAID-1 members (0.90) at 63 and 208845 (cylinders)"

# 13. RHEL 5 with logical partitions (fdisk, cylinders): /boot at 63,
# extended at 208845, logicals at 63 sectors into their cylinders.
r=$DIR/raw/rhel5-extended
new "$r"
sf "$r" <<-EOF
	label: dos
	start=63, size=208782, type=83, bootable
	start=208845, size=3984120, type=5
	start=208908, size=1879542, type=83
	start=2088513, size=2104452, type=82
EOF
fs "$r" 63 208782 ext3 -b 1024
fs "$r" 208908 1879542 ext3
fs "$r" 2088513 2104452 swap
add rhel5-extended vhdx "RHEL 5 dos at 63 with an extended partition and logicals (cylinders)"

# 14. Debian 12 BIOS (partman): root at 2048, the extended partition 2
# sectors before its logical swap (partman's pattern), 1 MiB left at the end.
r=$DIR/raw/debian12-bios
new "$r"
sf "$r" <<-EOF
	label: dos
	start=2048, size=3141632, type=83, bootable
	start=3145726, size=1046530, type=5
	start=3145728, size=1046528, type=82
EOF
fs "$r" 2048 3141632 ext4
fs "$r" 3145728 1046528 swap
add debian12-bios vpc "Debian 12 BIOS dos: root 2048, extended 2 sectors before its logical swap"

# 15. Windows 7 dos: System Reserved 100 MiB at 2048, NTFS to 1 MiB
# before the end.
r=$DIR/raw/win7-dos
new "$r"
sf "$r" <<-EOF
	label: dos
	start=2048, size=204800, type=7, bootable
	start=206848, size=3985408, type=7
EOF
fs "$r" 2048 204800 ntfs -p 2048
fs "$r" 206848 3985408 ntfs -p 206848
add win7-dos vdi "Windows 7 dos: System Reserved 100 MiB at 2048, NTFS"

# 16. Ubuntu 22.04 with encryption (partman-crypto): ESP, /boot ext4,
# LUKS2 (data offset 16 MiB) on 1 MiB.
r=$DIR/raw/ubuntu-luks
new "$r"
quiet sgdisk -n 1:2048:+512M -t 1:ef00 -n 2:0:+512M -t 2:8300 -n 3:0:4192255 -t 3:8309 "$r"
fs "$r" 2048 1048576 vfat -F 32
fs "$r" 1050624 1048576 ext4
fs "$r" 2099200 65536 luks2
add ubuntu-luks qcow2 "Ubuntu 22.04 encrypted: ESP, /boot, LUKS2 (offset 16 MiB)"

# 17. OpenBSD (fdisk -i): the A6 partition in MBR entry 4 at sector 64.
r=$DIR/raw/openbsd-dos64
new "$r"
sf "$r" <<-EOF
	label: dos
	/dev/x4 : start=64, size=4194240, type=a6, bootable
EOF
add openbsd-dos64 vmdk "OpenBSD dos (fdisk -i): entry 4 at sector 64"

# 18. Ubuntu 20.04 BIOS on GPT (sgdisk): bios_grub 1 MiB at 2048, root
# from 4096 to the last usable LBA.
r=$DIR/raw/ubuntu2004-bios-gpt
new "$r"
quiet sgdisk -n 1:2048:+1M -t 1:ef02 -n 2:0:0 -t 2:8300 "$r"
fs "$r" 4096 4190175 ext4
add ubuntu2004-bios-gpt vhdx "Ubuntu 20.04 BIOS GPT (sgdisk): bios_grub 2048, root to the last LBA"

# 19. A Debian cloud image (sfdisk): BIOS boot 14, ESP 15 (124 MiB,
# mkfs.vfat's default FAT), root 1 at 262144 to the end.
r=$DIR/raw/debian-cloud
new "$r"
sf "$r" <<-EOF
	label: gpt
	/dev/x1 : start=262144, type=L
	/dev/x14 : start=2048, size=6144, type=$BIOSBOOT
	/dev/x15 : start=8192, size=253952, type=$ESP
EOF
fs "$r" 8192 253952 vfat
fs "$r" 262144 3930112 ext4
add debian-cloud vpc "Debian cloud GPT (sfdisk): BIOS boot 14, ESP 15, root 1 at 262144"

# 20. RHEL 6 (anaconda): /boot 500 MiB at 2048 with ext4 1 KiB blocks
# (mke2fs's "small" type then), LVM after it.
r=$DIR/raw/rhel6-boot1k
new "$r"
sf "$r" <<-EOF
	label: dos
	start=2048, size=1024000, type=83, bootable
	start=1026048, size=3168256, type=8e
EOF
fs "$r" 2048 1024000 ext4 -b 1024
add rhel6-boot1k vdi "RHEL 6 dos: /boot ext4 1 KiB blocks at 2048, LVM"

rm -rf "$W"
mv "$MANIFEST" "$DIR/manifest.tsv"
