# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
# move-matrix.sh - the correctness matrix of `blkalign fix` as real moves
# (tests/ts/fix/move-matrix-*): a kind of contents, filled to a given
# share with files by the real tools, moved four times in a chain on
# one image without --copy-all (so through its map of used blocks), and
# checked after every move by its own tools.  Source it after
# tests/functions.sh, tests/lib/mkimg.sh and tests/lib/fix.sh, then call
# mm_setup.
#
# The chain (GPT, p1 of MM_F sectors, the disk MM_F + 2089 sectors: the
# last usable LBA + 1, the limit, is MM_F + 2056), derived by hand from
# docs/plan.md (grids { ao + k * g }; sizing rules 1-3):
#   1. right, step: 63 -> 2048, --physical-sector-size 4096.  63 is off
#      the 4 KiB grid; 2048 is the grain after it; rules 1 and 2 give
#      less than MM_F, rule 3 ends on the grain at 2048 + MM_F <= the
#      limit: size MM_F.  Shift 1985 sectors (992.5 KiB >= 256 KiB).
#   2. right, batch: 2048 -> 2055, the same with --alignment-offset 3584
#      (7 sectors: every grid is 7 + k * g).  2048 is off 7 + 8k; the
#      grain after it is 2055; rule 3: 2055 + MM_F (on the grain) <= the
#      limit: size MM_F.  Shift 7 sectors (3.5 KiB < 256 KiB).
#   3. left, batch: 2055 -> 2048, no alignment offset.  The grain after
#      2055 is 4096: 4096 + MM_F > the limit, no room; the grain below is
#      2048 (not below the GPT's first usable LBA, 34); rule 1: the grain
#      end at or before 2055 + MM_F is 2048 + MM_F: size MM_F.  Shift -7.
#   4. left, step: 2048 -> 35, --physical-sector-size 65536
#      --alignment-offset 17920 (35 sectors; an offset below the physical
#      sector, as the kernel has it).  2048 is off 35 + 128k; the grain
#      after it is 2083: 2083 + MM_F > the limit; the grain below is 35
#      (>= 34); rule 1: 35 + MM_F: size MM_F (a multiple of the size
#      granularity, 64 KiB).  Shift -2013 sectors (-1006.5 KiB).
# MM_F is a multiple of 128 sectors (64 KiB), so the size never changes:
# every kind keeps its size, an LVM PV (used: the whole partition) too.
#
# After every move (mm_move): fix's exit status and JSON (the row,
# the mode by the shift, map_source the kind's reader, bytes_copied at
# least what the kind's own tools count used and less than the
# partition, or all of it for a kind moved whole), the table (sfdisk
# --verify, sgdisk -v: fix_expect_table), the journal gone, and on a
# read-only loop device over the partition's new place the kind's own
# checker and every file's sha256 read back through its own driver or
# tools (mm_check_kind).

MM_F=65536 # the partition's size in sectors; a test sets its own
MM_MNT=
MM_FUSE_PID=

# mm_setup PROG...: root, loop devices and the programs a file needs.
mm_setup() {
	fix_setup root
	ts_require_prog python3 sha256sum losetup mount umount "$@"
	MM_MNT=$TS_TMP/mnt
	mkdir -p "$MM_MNT"
	ts_on_exit "mm_umount"
	# shellcheck disable=SC2034 # the test's total, logged at its end
	MM_T0=$SECONDS
}

# mm_require_fs FS...: the kernel mounts FS (loaded, or a module that
# loads); missing in CI is a failure, elsewhere a skip.
mm_require_fs() {
	local fs
	for fs in "$@"; do
		grep -qw "$fs" /proc/filesystems || modprobe -q "$fs" 2>/dev/null || {
			[ "${CI:-}" = true ] && {
				ts_log "FAIL: this kernel has no $fs"
				exit 1
			}
			ts_skip "this kernel has no $fs"
		}
	done
}

# mm_umount: whatever is mounted on MM_MNT, and the FUSE daemon waited
# for (its writes done before the device goes).
mm_umount() {
	mountpoint -q "$MM_MNT" && umount "$MM_MNT"
	if [ -n "$MM_FUSE_PID" ]; then
		wait "$MM_FUSE_PID" 2>/dev/null
		MM_FUSE_PID=
	fi
	return 0
}

# mm_fuse_ready: 0 once MM_MNT is a mount point (a FUSE daemon started
# in the background as MM_FUSE_PID), 1 when it died or took 10 s.
mm_fuse_ready() {
	local i
	for ((i = 0; i < 100; i++)); do
		mountpoint -q "$MM_MNT" && return 0
		kill -0 "$MM_FUSE_PID" 2>/dev/null || {
			MM_FUSE_PID=
			return 1
		}
		sleep 0.1
	done
	return 1
}

# mm_ntfs_mount DEV [OPTS]: ntfs-3g in the foreground (no_detach), so
# that its end (the volume written back) is waited for after umount.
mm_ntfs_mount() {
	ntfs-3g -o "no_detach${2:+,$2}" "$1" "$MM_MNT" >"$TS_TMP/ntfs-3g.log" 2>&1 &
	MM_FUSE_PID=$!
	mm_fuse_ready
}

# mm_exfat_mount DEV [OPTS]: the kernel's exfat, else exfat-fuse.
mm_exfat_mount() {
	if grep -qw exfat /proc/filesystems; then
		mount -t exfat ${2:+-o "$2"} "$1" "$MM_MNT"
	else
		mount.exfat-fuse ${2:+-o "$2"} "$1" "$MM_MNT" >/dev/null 2>&1
	fi
}

# mm_fill DIR PERCENT SEED: files of many sizes (random bytes, every
# 17th sparse: a hole, then data) until PERCENT% of the space free at
# the start is used (statvfs: a new XFS of 32 MiB is 7% used by its
# log), every third deleted, then filled again: free space in pieces
# between used blocks.  A full filesystem ends it.
mm_fill() {
	python3 - "$@" <<'PY'
import os, random, sys, time
d, pct, seed = sys.argv[1], float(sys.argv[2]) / 100, int(sys.argv[3])
rnd = random.Random(seed)
sizes = [0, 1, 100, 1000, 4095, 4096, 4097, 12345, 65536, 100000,
         300001, 1 << 20, (3 << 20) + 17]
def st():
    return os.statvfs(d)
def usage():
    s = st()
    return 1 - s.f_bfree / s.f_blocks
base = usage()
pct = base + pct * (1 - base)
files, n = [], 0
def grow():
    global n
    while usage() < pct:
        sub = os.path.join(d, 'd%02d' % (n // 40))
        os.makedirs(sub, exist_ok=True)
        s = st()
        # near the target, smaller files: do not overshoot by much
        room = (s.f_bfree - (1 - pct) * s.f_blocks) * s.f_frsize
        size = int(min(rnd.choice(sizes), max(room, 4096)))
        p = os.path.join(sub, 'f%05d' % n)
        n += 1
        try:
            with open(p, 'wb') as f:
                if n % 17 == 0:
                    f.seek(size + 65536)
                f.write(rnd.randbytes(size))
            files.append(p)
        except OSError:
            return
grow()
for p in files[::3]:
    os.unlink(p)
# XFS frees a deleted file's blocks in the background (inodegc): wait
# until statvfs stops changing
prev = -1
for _ in range(30):
    os.sync()
    u = usage()
    if u == prev:
        break
    prev = u
    time.sleep(0.1)
grow()
os.sync()
PY
}

# mm_manifest DIR: every file's sha256, by name.
mm_manifest() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r sha256sum)
}

# mm_usage DIR: "N files, U% used" (statvfs), for the log.
mm_usage() {
	python3 -c 'import os, sys
s = os.statvfs(sys.argv[1])
n = sum(len(f) for _, _, f in os.walk(sys.argv[1]))
print("%d files, %.0f%% used" % (n, 100 * (1 - s.f_bfree / s.f_blocks)))' "$1"
}

# mm_used_sum KIND FILE: the bytes KIND's own tools count used in FILE
# (the sum of tests/lib/used-extents.py's extents).
mm_used_sum() {
	local t=$1
	case $t in ext*) t=ext4 ;; esac
	python3 "$TS_TOP/tests/lib/used-extents.py" "$t" "$2" | awk '{ s += $2 } END { print s + 0 }'
}

# ---------------------------------------------------------------------
# Building one kind

# mm_lvmc CMD ARGS...: an LVM command that sees only MM_LVDEV, never
# activates, locks nothing and keeps no backup.
mm_lvmc() {
	local cmd=$1
	shift
	"$cmd" --config "devices{filter=[\"a|^$MM_LVDEV\$|\",\"r|.*|\"] \
global_filter=[\"a|^$MM_LVDEV\$|\",\"r|.*|\"] obtain_device_list_from_udev=0 \
use_devicesfile=0} backup{backup=0 archive=0} activation{udev_sync=0 udev_rules=0}" \
		--nolocking "$@"
}

# mm_lv_state DEV: pvs --segments, then each LV segment's sha256 read
# from DEV at lvm's offsets, then pvck's verdict.
mm_lv_state() {
	local ps ext start size lv segs="" try
	MM_LVDEV=$1
	# pvs on a loop device just attached has come back empty once on a
	# loaded CI machine (the PV was there before and after): read again
	# a few times before saying the PV has no segments
	for try in 1 2 3 4 5; do
		read -r ps ext < <(mm_lvmc pvs --noheadings --units b --nosuffix -o pe_start,vg_extent_size "$1" 2>"$TS_TMP/pvs.err")
		[ -n "$ext" ] &&
			segs=$(mm_lvmc pvs --noheadings --segments -o pvseg_start,pvseg_size,lv_name "$1" 2>>"$TS_TMP/pvs.err")
		[ -n "$segs" ] && break
		ts_log "    pvs $1 (try $try): $(tr '\n' ' ' <"$TS_TMP/pvs.err")" >&2
		sleep 0.5
	done
	[ -n "$segs" ] && printf '%s\n' "$segs" |
		while read -r start size lv; do
			echo "seg $start $size ${lv:--}"
			[ -n "$lv" ] || continue
			echo "$lv $(dd if="$1" bs=1M iflag=skip_bytes,count_bytes,direct \
				skip=$((ps + start * ext)) count=$((size * ext)) status=none |
				sha256sum | cut -c1-16)"
		done
	mm_lvmc pvck "$1" >/dev/null 2>&1 && echo "pvck clean" || echo "pvck failed"
}

# mm_build KIND PERCENT: $MM_FS, a file of MM_F sectors holding KIND
# filled to PERCENT; sets MM_WANT (what mm_check_kind must find again),
# MM_SOURCE (the map fix must use), MM_WHOLE (1: the kind is moved
# whole), MM_USED (its tools' used bytes, what a move copies at least).
mm_build() {
	local kind=$1 pct=$2 dev p o=()
	MM_FS=$TS_TMP/fs.img
	MM_WANT=$TS_TMP/want
	MM_WHOLE=0
	rm -f "$MM_FS"
	truncate -s $((MM_F * 512)) "$MM_FS"
	case $kind in
	ext2)
		MM_SOURCE=libext2fs
		mkfs.ext2 -q -F -b 1024 "$MM_FS"
		;;
	ext3)
		MM_SOURCE=libext2fs
		mkfs.ext3 -q -F -b 4096 -g 2048 "$MM_FS"
		;;
	ext4)
		MM_SOURCE=libext2fs
		mkfs.ext4 -q -F -b 4096 -g 2048 -G 4 "$MM_FS"
		;;
	ext4-bigalloc)
		MM_SOURCE=libext2fs
		mkfs.ext4 -q -F -b 4096 -O bigalloc -C 16384 -g 512 "$MM_FS"
		;;
	ext4-1k)
		MM_SOURCE=libext2fs
		mkfs.ext4 -q -F -b 1024 "$MM_FS"
		;;
	xfs)
		MM_SOURCE=xfs-bnobt
		# mkfs.xfs refuses below 300 MiB unless run as by xfstests
		TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 mkfs.xfs -q -f -m crc=1,reflink=1 \
			-d agcount=2 "$MM_FS"
		;;
	btrfs)
		MM_SOURCE=btrfs-chunks
		mkfs.btrfs -q -f -m single -d single "$MM_FS"
		;;
	ntfs)
		MM_SOURCE=libntfs-3g
		# hidden sectors 63, as an installer writes them: fix sets
		# them to each new start
		mkntfs -q -F -f -p 63 -H 255 -S 63 "$MM_FS"
		;;
	fat16)
		MM_SOURCE=fat
		mkfs.fat -F 16 -h 63 -i 1234abcd "$MM_FS"
		;;
	fat32)
		MM_SOURCE=fat
		mkfs.fat -F 32 -s 1 -h 63 -i 1234abcd "$MM_FS"
		;;
	exfat)
		MM_SOURCE=exfat-bitmap
		mkfs.exfat "$MM_FS"
		;;
	swap | swap-hibernated)
		MM_SOURCE=swap-header
		chmod 600 "$MM_FS"
		# swapped-out pages after the header: a move copies none
		head -c $((MM_F * 512)) /dev/urandom | dd of="$MM_FS" conv=notrunc status=none
		mkswap -L mm-swap -U 5e1f0c2a-7d1b-4c39-9a2e-3b1f6d0c8e11 "$MM_FS"
		;;
	lvm)
		MM_SOURCE=lvm-segments
		true
		;;
	*)
		ts_fail "mm_build: unknown kind '$kind'"
		return 1
		;;
	esac >"$TS_TMP/mkfs.out" 2>&1 || {
		ts_fail "$kind: mkfs: $(tail -3 "$TS_TMP/mkfs.out")"
		return 1
	}
	: >"$MM_WANT"
	case $kind in
	ext* | xfs | btrfs)
		# xfs: no speculative preallocation, which statvfs counts
		# used until the files are closed and trimmed
		[ "$kind" = xfs ] && o=(-o allocsize=4096)
		dev=$(ts_loop_attach "$MM_FS") && mount "${o[@]}" "$dev" "$MM_MNT" ||
			{
				ts_fail "$kind: cannot mount the new filesystem"
				return 1
			}
		p=$MM_MNT
		if [ "$kind" = btrfs ]; then
			# a subvolume holds most of the files
			btrfs subvolume create "$MM_MNT/sub" >/dev/null || ts_fail "btrfs subvolume create"
			head -c 70000 /dev/urandom >"$MM_MNT/top"
			p=$MM_MNT/sub
		fi
		mm_fill "$p" "$pct" "$pct" || ts_fail "$kind: filling to $pct%"
		if [ "$kind" = xfs ]; then
			# shared extents: reflinked copies of a few files
			find "$MM_MNT" -type f -size +10k | sort | head -n 4 | while read -r f; do
				cp --reflink=always "$f" "$f.reflink"
			done || ts_fail "xfs: cp --reflink=always"
			sync
		fi
		ts_log "    $kind $pct%: $(mm_usage "$MM_MNT")"
		mm_manifest "$MM_MNT" >"$MM_WANT"
		umount "$MM_MNT"
		ts_loop_detach "$dev"
		;;
	ntfs)
		dev=$(ts_loop_attach "$MM_FS") && mm_ntfs_mount "$dev" ||
			{
				ts_fail "ntfs: ntfs-3g cannot mount it: $(cat "$TS_TMP/ntfs-3g.log")"
				return 1
			}
		mm_fill "$MM_MNT" "$pct" "$pct" || ts_fail "ntfs: filling to $pct%"
		# alternate data streams (ntfs-3g's streams_interface=xattr)
		# on two files, and a sparse file made by ntfs-3g (a hole
		# from truncate, data at 1 MiB)
		truncate -s 3M "$MM_MNT/sparse"
		head -c 5000 /dev/urandom | dd of="$MM_MNT/sparse" bs=1M seek=1 conv=notrunc status=none
		for f in "$MM_MNT/sparse" "$(find "$MM_MNT/d00" -type f | sort | head -n 1)"; do
			setfattr -n user.ads -v "0s$(head -c 3000 /dev/urandom | base64 -w0)" "$f" ||
				ts_fail "ntfs: setfattr user.ads on $f"
		done
		ts_log "    ntfs $pct%: $(mm_usage "$MM_MNT")"
		mm_ntfs_manifest >"$MM_WANT"
		ts_expect_eq "ntfs $pct%: files with a stream user.ads" 2 "$(grep -c '^ads ' "$MM_WANT")"
		mm_umount
		ts_loop_detach "$dev"
		ntfsinfo -F /sparse "$MM_FS" 2>/dev/null | grep -q 'SPARSE_FILE' &&
			ts_ok "ntfs: ntfsinfo says the file 'sparse' is SPARSE_FILE" ||
			ts_fail "ntfs: ntfsinfo: 'sparse' is not sparse"
		;;
	exfat)
		dev=$(ts_loop_attach "$MM_FS") && mm_exfat_mount "$dev" ||
			{
				ts_fail "exfat: cannot mount it"
				return 1
			}
		mm_fill "$MM_MNT" "$pct" "$pct" || ts_fail "exfat: filling to $pct%"
		# the driver refills the holes first fit: make some that stay
		find "$MM_MNT" -type f | sort | awk 'NR % 5 == 0' | xargs -r -d '\n' rm -f
		sync
		ts_log "    exfat $pct%: $(mm_usage "$MM_MNT")"
		mm_manifest "$MM_MNT" >"$MM_WANT"
		umount "$MM_MNT"
		ts_loop_detach "$dev"
		;;
	fat16 | fat32)
		mm_fat_fill "$MM_FS" "$pct" || {
			ts_fail "$kind: filling by mtools"
			return 1
		}
		ts_log "    $kind $pct%: $(fsck.fat -n "$MM_FS" | tail -n 1)"
		mm_fat_manifest "$MM_FS" >"$MM_WANT"
		;;
	swap)
		mm_swap_state "$MM_FS" >"$MM_WANT"
		;;
	swap-hibernated)
		# the signature the kernel writes when it hibernates
		printf 'S1SUSPEND\0' | dd of="$MM_FS" bs=1 seek=$((4096 - 10)) conv=notrunc status=none
		MM_SOURCE=whole MM_WHOLE=1
		mm_swap_state "$MM_FS" >"$MM_WANT"
		;;
	lvm)
		mm_lvm_build "$pct" || return 1
		;;
	esac
	case $kind in
	lvm) ;; # mm_lvm_build: pe_start and the LVs' extents
	swap-hibernated) MM_USED=$((MM_F * 512)) ;;
	# dumpe2fs -h: (Block count - Free blocks) * Block size (with
	# bigalloc the free count is in blocks, whole free clusters)
	ext*) MM_USED=$(dumpe2fs -h "$MM_FS" 2>/dev/null | awk -F': *' '
		$1 == "Block count" { n = $2 } $1 == "Free blocks" { f = $2 }
		$1 == "Block size" { b = $2 } END { print (n - f) * b }') ;;
	# fsck.fat -n -v: the data area's start + its used clusters (of
	# "N files, U/T clusters") * bytes per cluster
	fat*) MM_USED=$(fsck.fat -n -v "$MM_FS" 2>/dev/null | awk '
		/^Data area starts at byte/ { d = $6 } / bytes per cluster/ { c = $1 }
		/ files, [0-9]+\/[0-9]+ clusters$/ { split($(NF - 1), u, "/") }
		END { print d + u[1] * c }') ;;
	*) MM_USED=$(mm_used_sum "$kind" "$MM_FS") ;;
	esac
	[ -s "$MM_WANT" ] || ts_fail "$kind $pct%: nothing to compare after the moves"
	# the original clean to its own checker (a dirty one is refused)
	mm_checker "$kind" "$MM_FS" >"$TS_TMP/checker.out" 2>&1 ||
		ts_fail "$kind $pct%: its checker on the original: $(tail -3 "$TS_TMP/checker.out" | tr '\n' ' ')"
}

# mm_ntfs_manifest: the files' sha256 under MM_MNT, and of each file's
# alternate data stream user.ads (read through ntfs-3g's xattrs).
mm_ntfs_manifest() {
	mm_manifest "$MM_MNT"
	python3 - "$MM_MNT" <<'PY'
import hashlib, os, sys
for top, dirs, files in sorted(os.walk(sys.argv[1])):
    dirs.sort()
    for f in sorted(files):
        p = os.path.join(top, f)
        try:
            v = os.getxattr(p, 'user.ads')
        except OSError:
            continue
        print('ads', hashlib.sha256(v).hexdigest(), os.path.relpath(p, sys.argv[1]))
PY
}

# mm_fat_fill IMG PERCENT: files of many sizes into a few directories by
# mcopy to about PERCENT% of the data area (fsck.fat -v's), every third
# deleted by mdel, then new files up to PERCENT% again (fsck.fat's used
# clusters counted).
mm_fat_fill() {
	local img=$1 src=$TS_TMP/fatsrc data used
	data=$(fsck.fat -n -v "$img" 2>/dev/null | sed -n 's/.*data clusters (\([0-9]*\) bytes).*/\1/p')
	rm -rf "$src"
	mm_fat_files "$src/first" $((data * $2 / 100)) "$2" || return 1
	MTOOLS_SKIP_CHECK=1 mcopy -s -i "$img" "$src/first" :: || return 1
	MTOOLS_SKIP_CHECK=1 mdir -i "$img" -/ -b ::first | grep -v '/$' | sort | awk 'NR % 3 == 0' |
		MTOOLS_SKIP_CHECK=1 xargs -r -d '\n' mdel -i "$img" || return 1
	used=$(fsck.fat -n -v "$img" 2>/dev/null | sed -n 's|.*: [0-9]* files, \([0-9]*\)/[0-9]* clusters$|\1|p')
	used=$((used * $(fsck.fat -n -v "$img" | sed -n 's/^ *\([0-9]*\) bytes per cluster.*/\1/p')))
	mm_fat_files "$src/then" $((data * $2 / 100 - used)) $(($2 + 1)) || return 1
	MTOOLS_SKIP_CHECK=1 mcopy -s -i "$img" "$src/then" :: || return 1
	rm -rf "$src"
}

# mm_fat_files DIR BYTES SEED: random files of many sizes in DIR and
# three directories below it, BYTES in all less a cluster's slack each.
mm_fat_files() {
	python3 - "$@" <<'PY'
import os, random, sys
d, room, rnd = sys.argv[1], int(sys.argv[2]), random.Random(int(sys.argv[3]))
sizes = [0, 1, 100, 511, 512, 513, 4095, 12345, 65536, 100000, 300001, 1 << 20]
dirs = ['', 'a', 'a/b', 'c']
for x in dirs:
    os.makedirs(os.path.join(d, x), exist_ok=True)
n = 0
room -= 16384  # the directories' own clusters
while room > 4096:
    s = min(rnd.choice(sizes), room - 4096)
    with open(os.path.join(d, rnd.choice(dirs), 'f%04d' % n), 'wb') as f:
        f.write(rnd.randbytes(s))
    n, room = n + 1, room - s - 4096
PY
}

# mm_fat_manifest IMG[@@OFFSET]: every file's sha256 as mcopy reads it.
mm_fat_manifest() {
	local out=$TS_TMP/fatout
	rm -rf "$out"
	mkdir -p "$out"
	MTOOLS_SKIP_CHECK=1 mcopy -s -n -i "$1" '::*' "$out" 2>/dev/null
	mm_manifest "$out"
	rm -rf "$out"
}

# mm_swap_state SRC: what a move must keep of a swap area: blkid's
# TYPE, UUID and LABEL, swaplabel, the header page's sha256; of a
# hibernated one every byte.
mm_swap_state() {
	local TYPE='' UUID='' LABEL=''
	eval "$(blkid -p -o export "$1" | grep -E '^(TYPE|UUID|LABEL)=')"
	echo "blkid $TYPE $UUID $LABEL"
	if [ "$TYPE" = swap ]; then
		echo "swaplabel $(swaplabel "$1" | paste -sd' ')"
		echo "header $(head -c 4096 "$1" | sha256sum | cut -d' ' -f1)"
	else
		echo "all $(sha256sum <"$1" | cut -d' ' -f1)"
	fi
}

# mm_lvm_build PERCENT: a PV (1 MiB extents, a second metadata area at
# its end) with two LVs holding about PERCENT% of its extents and a free
# hole between them (a third LV removed), free extents at the end too;
# random bytes over every extent (free ones too: a move may leave those
# behind).  MM_WANT: mm_lv_state.  MM_USED: pe_start and the LVs'
# extents (pvs), what a move copies at least.
mm_lvm_build() {
	local pct=$1 dev ps cnt n a b
	export LVM_SUPPRESS_FD_WARNINGS=1
	LVM_SYSTEM_DIR=$TS_TMP/lvm
	export LVM_SYSTEM_DIR
	mkdir -p "$LVM_SYSTEM_DIR"
	: >"$LVM_SYSTEM_DIR/lvm.conf"
	dev=$(ts_loop_attach "$MM_FS") || {
		ts_fail "lvm: losetup"
		return 1
	}
	MM_LVDEV=$dev
	mm_lvmc pvcreate -q -y --pvmetadatacopies 2 "$dev" >"$TS_TMP/lvm.out" 2>&1 &&
		mm_lvmc vgcreate -q -s 1m vgmm "$dev" >>"$TS_TMP/lvm.out" 2>&1 ||
		{
			ts_fail "lvm: pvcreate, vgcreate: $(tail -3 "$TS_TMP/lvm.out")"
			ts_loop_detach "$dev"
			return 1
		}
	read -r ps cnt < <(mm_lvmc pvs --noheadings --units b --nosuffix -o pe_start,pv_pe_count "$dev" 2>/dev/null)
	# n extents in LVs, one extent of hole between a and b
	n=$(((cnt * pct + 50) / 100))
	[ "$n" -lt 2 ] && n=2
	[ "$n" -gt $((cnt - 2)) ] && n=$((cnt - 2))
	a=$((n / 2)) b=$((n - n / 2))
	mm_lvmc lvcreate --driverloaded n -an -Zn -y -l "$a" -n a vgmm >>"$TS_TMP/lvm.out" 2>&1 &&
		mm_lvmc lvcreate --driverloaded n -an -Zn -y -l 1 -n gone vgmm >>"$TS_TMP/lvm.out" 2>&1 &&
		mm_lvmc lvcreate --driverloaded n -an -Zn -y -l "$b" -n b vgmm >>"$TS_TMP/lvm.out" 2>&1 &&
		mm_lvmc lvremove --driverloaded n -y vgmm/gone >>"$TS_TMP/lvm.out" 2>&1 ||
		ts_fail "lvm: lvcreate, lvremove: $(tail -3 "$TS_TMP/lvm.out")"
	ts_log "    lvm $pct%: LVs of $a and $b of $cnt extents, a hole of 1 between"
	MM_USED=$((ps + n * (1 << 20)))
	ts_loop_detach "$dev"
	head -c $((cnt << 20)) /dev/urandom |
		dd of="$MM_FS" bs=1M seek="$ps" oflag=seek_bytes conv=notrunc status=none
	dev=$(ts_loop_attach "$MM_FS" -r) || {
		ts_fail "lvm: losetup"
		return 1
	}
	mm_lv_state "$dev" >"$MM_WANT"
	ts_loop_detach "$dev"
}

# mm_checker KIND SRC: the kind's own checker, read-only, on SRC (a
# file or a device); its output on stdout, its verdict as exit status.
mm_checker() {
	local o rc
	case $1 in
	ext*) e2fsck -fn "$2" ;;
	xfs) if [ -b "$2" ]; then xfs_repair -n "$2"; else xfs_repair -n -f "$2"; fi ;;
	btrfs) btrfs check --readonly "$2" ;;
	ntfs) ntfsfix -n "$2" ;;
	fat16 | fat32) fix_checker fat16 "$2" ;;
	exfat) fsck.exfat -n "$2" ;;
	swap | swap-hibernated)
		o=$(blkid -p -o value -s TYPE "$2")
		echo "blkid: $o"
		case $1:$o in swap:swap | swap-hibernated:swsuspend) ;; *) return 1 ;; esac
		;;
	lvm)
		MM_LVDEV=$2
		if [ -b "$2" ]; then mm_lvmc pvck "$2"; else
			rc=0
			MM_LVDEV=$(ts_loop_attach "$2" -r) && mm_lvmc pvck "$MM_LVDEV" || rc=1
			ts_loop_detach "$MM_LVDEV"
			return $rc
		fi
		;;
	esac
}

# mm_check_kind WHAT KIND IMG START: on a read-only loop device over
# MM_F sectors at START of IMG, the checker is clean and what mm_build
# recorded (MM_WANT) is read back the same.
mm_check_kind() {
	local what=$1 kind=$2 img=$3 start=$4 dev got how
	dev=$(ts_loop_attach "$img" -r -o $((start * 512)) --sizelimit $((MM_F * 512))) ||
		{
			ts_fail "$what: cannot attach the partition"
			return 1
		}
	if mm_checker "$kind" "$dev" >"$TS_TMP/checker.out" 2>&1; then
		ts_ok "$what: $kind's checker clean"
	else
		ts_fail "$what: $kind's checker: $(grep -v '^Pass\|^e2fsck\|^Phase' "$TS_TMP/checker.out" | tail -4 | tr '\n' ' ')"
	fi
	case $kind in
	ext* | btrfs | xfs)
		how="the kernel's $kind, read-only"
		local o=ro
		[ "$kind" = xfs ] && o=ro,norecovery
		if mount -o "$o" "$dev" "$MM_MNT" 2>"$TS_TMP/mount.err"; then
			got=$(mm_manifest "$MM_MNT")
			umount "$MM_MNT"
		else
			got="mount failed: $(cat "$TS_TMP/mount.err")"
		fi
		;;
	ntfs)
		how="ntfs-3g, read-only, with the streams"
		if mm_ntfs_mount "$dev" ro; then
			got=$(mm_ntfs_manifest)
			mm_umount
		else
			got="ntfs-3g failed: $(cat "$TS_TMP/ntfs-3g.log")"
			mm_umount
		fi
		;;
	exfat)
		how="exfat read-only ($(grep -qw exfat /proc/filesystems && echo kernel || echo exfat-fuse))"
		if mm_exfat_mount "$dev" ro; then
			got=$(mm_manifest "$MM_MNT")
			umount "$MM_MNT"
		else
			got="mount failed"
		fi
		;;
	fat16 | fat32)
		how="mtools' mcopy"
		got=$(mm_fat_manifest "$img@@$((start * 512))")
		;;
	swap | swap-hibernated)
		how="blkid, swaplabel and the header page (hibernated: every byte)"
		got=$(mm_swap_state "$dev")
		;;
	lvm)
		how="pvs --segments, every LV's bytes, pvck"
		got=$(mm_lv_state "$dev")
		;;
	esac
	ts_loop_detach "$dev"
	if [ "$got" = "$(cat "$MM_WANT")" ]; then
		ts_ok "$what: all $(wc -l <"$MM_WANT") sha256 and names the same ($how)"
	else
		ts_fail "$what: read back by $how, they differ (- before, + after):"
		ts_diff_lines "$(cat "$MM_WANT")" "$got" | head -n 8
	fi
}

# ---------------------------------------------------------------------
# The chain

# mm_disk NAME: the disk image $TS_TMP/NAME.img (GPT by sfdisk, the
# first usable LBA 34, p1 63+MM_F) with $MM_FS at sector 63.
mm_disk() {
	MM_IMG=$TS_TMP/$1.img
	mkimg_sfdisk "$MM_IMG" $(((MM_F + 2089) * 512)) <<-EOF || return 1
		label: gpt
		first-lba: 34
		unit: sectors
		start=63, size=$MM_F, type=0FC63DAF-8483-4772-8E79-3D69D8477DE4
	EOF
	dd if="$MM_FS" of="$MM_IMG" bs=1M seek=$((63 * 512)) oflag=seek_bytes conv=notrunc status=none
	rm -f "$MM_FS"
}

# mm_move NAME KIND FROM TO MODE OPTIONS...: one move of the chain by
# fix --yes (no --copy-all), and every check after it.
mm_move() {
	local name=$1 kind=$2 from=$3 to=$4 mode=$5 what c
	shift 5
	what="$name: $from -> $to"
	fix_run "$name-$to" -J --yes --progress none --partition 1 --page-size 4096 "$@" \
		--journal "$TS_TMP/$name.journal" "$MM_IMG"
	fix_expect_rc "$what: fix --yes" 0 "$name-$to"
	# a refusal or a failure: the rest of the chain has nothing to check
	[ "$FIX_RC" = 0 ] || return 1
	ts_json "$TS_TMP/$name-$to.out" \
		'[.partitions[] | "\(.number) \(.action) \(.old_start / 512) \(.new_start / 512) \(.new_size / 512) \(.mode)"] | join(";")' \
		'.partitions[0].map_source' '.partitions[0].bytes_copied'
	ts_expect_eq "$what: JSON (number action old new size mode)" \
		"1 moved $from $to $MM_F $mode" "${TS_JSON[0]}"
	ts_expect_eq "$what: map_source" "$MM_SOURCE" "${TS_JSON[1]}"
	c=${TS_JSON[2]}
	if [ "$MM_WHOLE" = 1 ]; then
		ts_expect_eq "$what: bytes_copied (moved whole)" $((MM_F * 512)) "$c"
	elif [ "$MM_USED" -ge $((MM_F * 512)) ]; then
		# its tools count every byte used (a btrfs whose chunks
		# cover its device): all of it
		ts_expect_eq "$what: bytes_copied (its tools count all used)" $((MM_F * 512)) "$c"
	elif [ "$c" -ge "$MM_USED" ] 2>/dev/null && [ "$c" -lt $((MM_F * 512)) ]; then
		ts_ok "$what: bytes_copied $c: at least the $MM_USED its tools count used, less than the $((MM_F * 512)) of the partition"
	else
		ts_fail "$what: bytes_copied '$c', expected from $MM_USED to below $((MM_F * 512))"
	fi
	[ -e "$TS_TMP/$name.journal" ] && ts_fail "$what: the journal is left"
	fix_expect_table "$what" "$MM_IMG" <<<"1 $to $MM_F"
	case $kind in
	ntfs | fat16 | fat32)
		# the boot sector's hidden sectors follow the start
		ts_expect_eq "$what: hidden sectors (boot sector, 0x1c)" "$to" \
			"$(mkimg_get_le32 "$MM_IMG" $((to * 512 + 0x1c)))"
		;;
	esac
	mm_check_kind "$what" "$kind" "$MM_IMG" "$to"
}

# mm_chain KIND [PERCENT]: build KIND at PERCENT (none for a swap
# area), put it at 63 and move it right by more and by less than the
# step, then left by less and by more (the chain above), checked after
# each move.
mm_chain() {
	local kind=$1 pct=${2:-} name=$1${2:+-$2} t0=$SECONDS t1
	mm_build "$kind" "$pct" || return
	mm_disk "$name" || return
	t1=$SECONDS
	fix_expect_table "$name: as built" "$MM_IMG" <<<"1 63 $MM_F"
	mm_move "$name" "$kind" 63 2048 step --physical-sector-size 4096 &&
		mm_move "$name" "$kind" 2048 2055 batch --physical-sector-size 4096 \
			--alignment-offset 3584 --step 4M &&
		mm_move "$name" "$kind" 2055 2048 batch --physical-sector-size 4096 --step 4M &&
		mm_move "$name" "$kind" 2048 35 step --physical-sector-size 65536 \
			--alignment-offset 17920
	rm -f "$MM_IMG"
	ts_log "  $name: built in $((t1 - t0)) s, moved and checked in $((SECONDS - t1)) s"
}
