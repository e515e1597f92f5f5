#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# move-used.sh - how fast `blkalign fix` moves a filesystem that is partly
# used, copying only its used blocks (docs/fix.md, "Used blocks"),
# against the tools that do the same or copy everything, in one run.
# Targets (issue 26), for ext4 at 20% used: fix <= 1.0x e2image's time,
# fix <= 0.3x sfdisk's; at 100% used (--fill 100), fix >= 0.9x the pipe.
#
# Usage: bench/move-used.sh [--build DIR] [--rounds N] [--size MIB]
#                           [--fill "5 20 50 90"] [--fs ext4|xfs|ntfs]
#                           [--no-drop-caches] [--synced-pipe]
#
# The disk: an image file of SIZE + 4 MiB (default SIZE 4096) in $TMPDIR
# or /var/tmp, a dos table with one partition at sector 63 of SIZE MiB
# holding a filesystem of that size (mkfs.ext4, mkfs.xfs or mkntfs),
# filled through the kernel (a loop device mounted; ntfs-3g for NTFS) to
# FILL% of its size with random files of 1 to 64 MiB, every third
# deleted and the space filled again (fragmented free space), on a loop
# device attached with --direct-io=on.  For each fill, each round runs,
# in a rotating order, each on a freshly restored disk:
#   fix     blkalign fix --yes --partition 1 (63 -> 2048; 512n loop: an
#           optional move, hence --partition): its used blocks only
#   e2image e2image -ra -o 32256 -O 1048576 L (ext4 only: an in-place
#           move of the used blocks, no journal, one flush), then the
#           table: echo 2048, | sfdisk -N 1 L
#   sfdisk  echo 2048, | sfdisk -q --move-data -N 1 L (ext4 only: no
#           in-place peer exists for XFS or NTFS): every byte
#   pipe    pcopy of the bytes the filesystem's own tool counts used
#           (dumpe2fs, xfs_db, ntfsinfo), as one range: a reader and a
#           writer thread, O_DIRECT, fix's step, one fdatasync, no
#           journal, no table (bench/pcopy.c, built here with cc): what
#           copying that many bytes costs on this disk at best
#   pipesync (with --synced-pipe) the same pipe with an fdatasync after
#           every 12 MiB written: as many flushes as fix pays (a level
#           of 24 MiB: the device's and the journal's), without the rest
#           of fix: what the flushes cost on this disk
# before each: sync and (unless --no-drop-caches) drop the page cache.
# Wall time of the whole command.  Every fix, e2image and sfdisk result
# is checked by the filesystem's checker (e2fsck -fn, xfs_repair -n,
# ntfsfix -n) at sector 2048 and three files' sha256 (pipe: timing
# only).  Prints every run, each round's ratios, the medians in seconds
# and the ratios of the medians.
# Needs root and a C compiler; writes only to its own image and the loop
# devices it attaches (detached by name on exit).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build rounds=3 size=4096 fills="5 20 50 90" fs=ext4 drop=1 synced=
while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$(cd "$2" && pwd); shift 2 ;;
	--rounds) rounds=$2; shift 2 ;;
	--size) size=$2; shift 2 ;;
	--fill) fills=$2; shift 2 ;;
	--fs) fs=$2; shift 2 ;;
	--no-drop-caches) drop=; shift ;;
	--synced-pipe) synced=1; shift ;;
	*) echo "usage: $0 [--build DIR] [--rounds N] [--size MIB] [--fill \"5 20 50 90\"] [--fs ext4|xfs|ntfs] [--no-drop-caches] [--synced-pipe]" >&2
	   exit 2 ;;
	esac
done
bin=$build/cli/blkalign
. "$top/bench/lib.sh"
case $fs in
ext4) bench_require "$bin" losetup sfdisk e2image e2fsck dumpe2fs debugfs mkfs.ext4 jq cc mount
      tools=(fix e2image sfdisk pipe) ;;
xfs) bench_require "$bin" losetup sfdisk xfs_db xfs_repair mkfs.xfs jq cc mount
     tools=(fix pipe) ;;
ntfs) bench_require "$bin" losetup sfdisk ntfsinfo ntfsfix mkntfs ntfs-3g ntfscat jq cc mount
      tools=(fix pipe) ;;
*) echo "--fs: ext4, xfs or ntfs" >&2; exit 2 ;;
esac
[ -n "$synced" ] && tools+=(pipesync)
bench_tmpdir "${TMPDIR:-/var/tmp}" blkalign-move-used
cc -O2 -pthread -o "$tmp/pcopy" "$top/bench/pcopy.c" || exit 1

MiB=1048576
fsbytes=$((size * MiB))
sectors=$((size * 2048))
shift_bytes=$(((2048 - 63) * 512))
# fix's step for this move: the shift cut to 4 KiB, at most 16 MiB
step=$((shift_bytes < 16 * MiB ? shift_bytes / 4096 * 4096 : 16 * MiB))
img=$tmp/disk.img
pristine=$tmp/pristine.img
mnt=$tmp/mnt
mkdir -p "$mnt"
fsdev= # a second loop device: the filesystem alone, for mkfs, mount and checks

fs_detach() {
	mountpoint -q "$mnt" && umount "$mnt"
	[ -n "$fsdev" ] && losetup -d "$fsdev"
	fsdev=
}
trap 'fs_detach; bench_cleanup' EXIT

# fs_attach IMG SECTOR [-r]: fsdev = the filesystem at SECTOR of IMG.
fs_attach() {
	fsdev=$(losetup -f --show ${3:-} -o $(($2 * 512)) --sizelimit "$fsbytes" "$1") ||
		{ echo "cannot attach the filesystem of $1" >&2; exit 1; }
}

# the used bytes by the filesystem's own tool, of fsdev
fs_used() {
	case $fs in
	ext4) dumpe2fs -h "$fsdev" 2>/dev/null | awk -F: '
		/^Block count/ { c = $2 } /^Free blocks/ { f = $2 } /^Block size/ { b = $2 }
		END { printf "%d\n", (c - f) * b }' ;;
	xfs) xfs_db -r -c 'sb 0' -c 'p dblocks' -c 'p fdblocks' -c 'p blocksize' "$fsdev" |
		awk -F' = ' '{ v[$1] = $2 } END { printf "%d\n", (v["dblocks"] - v["fdblocks"]) * v["blocksize"] }' ;;
	ntfs) ntfsinfo -m "$fsdev" 2>/dev/null | awk -F: '
		/Cluster Size/ { c = $2 + 0 } /Volume Size in Clusters/ { n = $2 + 0 } /Free Clusters/ { f = $2 + 0 }
		END { printf "%d\n", (n - f) * c }' ;;
	esac
}

fs_check() { # the checker on fsdev: ok or what it said
	case $fs in
	ext4) e2fsck -fn "$fsdev" >"$tmp/fsck.out" 2>&1 ;;
	xfs) xfs_repair -n "$fsdev" >"$tmp/fsck.out" 2>&1 ;;
	ntfs) ntfsfix -n "$fsdev" >"$tmp/fsck.out" 2>&1 ;;
	esac && echo "checker clean" || echo "CHECKER FAILED: $(tail -2 "$tmp/fsck.out" | tr '\n' ' ')"
}

# fill PCT: the pristine image, its filesystem PCT% full; FILE_SHA the
# sha256 of three of its files, USED the bytes its tool counts used.
fill() {
	local pct=$1 want n=0 f
	rm -f "$pristine"
	truncate -s $((fsbytes + 4 * MiB)) "$pristine"
	printf 'label: dos\nlabel-id: 0x75736564\nunit: sectors\nstart=63, size=%d, type=83\n' "$sectors" |
		sfdisk -q --no-reread --no-tell-kernel "$pristine" >/dev/null || exit 1
	fs_attach "$pristine" 63
	case $fs in
	ext4) mkfs.ext4 -q -F -E nodiscard "$fsdev" && mount "$fsdev" "$mnt" ;;
	xfs) mkfs.xfs -q -f -K "$fsdev" && mount "$fsdev" "$mnt" ;;
	ntfs) mkntfs -q -F -f -p 63 -H 255 -S 63 "$fsdev" >/dev/null && ntfs-3g "$fsdev" "$mnt" ;;
	esac || { echo "mkfs/mount $fs failed" >&2; exit 1; }
	want=$((fsbytes / 100 * pct))
	# files of 1 to 64 MiB until PCT%, every third deleted, refilled
	for pass in 1 2; do
		while [ "$(df -B1 --output=used "$mnt" | tail -1)" -lt "$want" ]; do
			n=$((n + 1))
			head -c $(((RANDOM % 64 + 1) * MiB)) /dev/urandom >"$mnt/f$n" 2>/dev/null || break
		done
		[ $pass = 1 ] && for ((f = 3; f <= n; f += 3)); do rm -f "$mnt/f$f"; done
	done
	sync
	FILE_SHA=$(cd "$mnt" && sha256sum f1 f2 f4 2>/dev/null | sha256sum | cut -d' ' -f1)
	umount "$mnt"
	USED=$(fs_used)
	fs_detach
	echo "# fill $pct%: $n files written, $(awk -v u="$USED" -v s="$fsbytes" 'BEGIN { printf "%.1f", u * 100 / s }')% used by its own count ($USED bytes)"
}

restore() {
	bench_detach
	cp --sparse=always "$pristine" "$img" && sync "$img" || exit 1
	bench_attach "$img" --direct-io=on
	sync
	[ -n "$drop" ] && echo 3 >/proc/sys/vm/drop_caches
}

# verify: the filesystem at 2048 is clean and has the same files
verify() {
	local got
	sync
	fs_attach "$img" 2048 -r
	got=$(fs_check)
	case $fs in
	ntfs) ntfs-3g -o ro "$fsdev" "$mnt" ;;
	ext4) mount -o ro,noload "$fsdev" "$mnt" ;;
	xfs) mount -o ro,norecovery "$fsdev" "$mnt" ;;
	esac 2>/dev/null &&
		{ [ "$(cd "$mnt" && sha256sum f1 f2 f4 2>/dev/null | sha256sum | cut -d' ' -f1)" = "$FILE_SHA" ] &&
			got="$got, files ok" || got="$got, FILES DIFFER"; } ||
		got="$got, CANNOT MOUNT"
	fs_detach
	echo "$got"
}

now() { date +%s.%N; }

run_fix() {
	rm -f "$tmp/journal"
	echo "$bin fix --yes --partition 1 --progress none -J --journal $tmp/journal $dev" >"$tmp/cmd"
	"$bin" fix --yes --partition 1 --progress none -J --journal "$tmp/journal" "$dev" \
		>"$tmp/fix.json" 2>"$tmp/fix.err"
}
run_e2image() {
	echo "e2image -ra -o $((63 * 512)) -O $((2048 * 512)) $dev && echo 2048, | sfdisk -q -N 1 $dev" >"$tmp/cmd"
	e2image -ra -o $((63 * 512)) -O $((2048 * 512)) "$dev" >"$tmp/e2image.out" 2>&1 &&
		echo "2048," | sfdisk -q --no-reread --no-tell-kernel -N 1 "$dev" >>"$tmp/e2image.out" 2>&1
}
run_sfdisk() {
	echo "echo 2048, | sfdisk -q --move-data -N 1 $dev" >"$tmp/cmd"
	echo "2048," | sfdisk -q --no-reread --no-tell-kernel --move-data -N 1 "$dev" >"$tmp/sfdisk.out" 2>&1
}
run_pipe() {
	echo "$tmp/pcopy --step $step $dev $((63 * 512)) $((2048 * 512)) <used bytes>" >"$tmp/cmd"
	"$tmp/pcopy" --step "$step" "$dev" $((63 * 512)) $((2048 * 512)) \
		$(((USED + 4095) / 4096 * 4096)) >"$tmp/pipe.err" 2>&1
}
run_pipesync() {
	echo "$tmp/pcopy --step $step --sync-every 12M $dev $((63 * 512)) $((2048 * 512)) <used bytes>" >"$tmp/cmd"
	"$tmp/pcopy" --step "$step" --sync-every 12M "$dev" $((63 * 512)) \
		$((2048 * 512)) $(((USED + 4095) / 4096 * 4096)) >"$tmp/pipe.err" 2>&1
}

echo "# $(date -u +%FT%TZ) $(uname -r), $(nproc) CPUs; backing file on $(df -P "$tmp" | awk 'NR == 2 {print $1}'); load $(cut -d' ' -f1 /proc/loadavg)"
echo "# $fs of $size MiB at sector 63, moved to sector 2048; pcopy step $step bytes"
n=${#tools[@]}
for pct in $fills; do
	fill "$pct"
	declare -A res=() m=()
	printed=
	for ((r = 1; r <= rounds; r++)); do
		for ((k = 0; k < n; k++)); do
			t=${tools[$(((r + k) % n))]}
			restore
			t0=$(now)
			"run_$t"
			rc=$?
			t1=$(now)
			secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
			bench_detach
			case $printed in *" $t "*) ;; *) echo "# $t: $(cat "$tmp/cmd")"; printed="$printed $t " ;; esac
			extra=
			case $t in
			fix) extra="$(verify); copied $(jq -r '.partitions[0].bytes_copied' "$tmp/fix.json" 2>/dev/null) of $fsbytes bytes ($(jq -r '.partitions[0].map_source' "$tmp/fix.json" 2>/dev/null) map), $(jq -r '.flushes' "$tmp/fix.json" 2>/dev/null) flushes"
			     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/fix.err")" ;;
			e2image) extra="$(verify)"
			     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/e2image.out")" ;;
			sfdisk) extra="$(verify)"
			     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/sfdisk.out")" ;;
			pipe | pipesync) extra="(timing only) $USED bytes"
			     [ $rc = 0 ] || extra="$extra; exit $rc: $(head -c 300 "$tmp/pipe.err")" ;;
			esac
			printf 'fill %3d%%  round %d  %-8s %8.3f s  %s\n' "$pct" "$r" "$t" "$secs" "$extra"
			res[$t]="${res[$t]:-} $secs"
		done
	done
	line="fill $pct%: median s:"
	for t in "${tools[@]}"; do
		m[$t]=$(tr ' ' '\n' <<<"${res[$t]}" | median)
		line="$line $t ${m[$t]}"
	done
	echo "$line"
	for t in "${tools[@]}"; do
		[ "$t" = fix ] && continue
		awk -v f="${m[fix]}" -v o="${m[$t]}" -v t="$t" -v p="$pct" 'BEGIN {
			printf "fill %d%%: fix/%s time %.2fx\n", p, t, f / o }'
	done
done
echo "# targets (ext4): fix/e2image <= 1.0 and fix/sfdisk <= 0.3 at 20%; fix/pipe <= 1.11 (0.9x its speed) at 100%"
