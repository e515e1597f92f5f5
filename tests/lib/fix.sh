# SPDX-License-Identifier: GPL-2.0-or-later
# fix.sh - helpers for the `blkalign fix` tests (tests/ts/fix/<test>).
# Source it after tests/functions.sh and tests/lib/mkimg.sh, then call
# fix_setup.  Every file lands in $TS_TMP.
#
# What a test checks after a move is always the same list
# (fix_verify_move, fix_expect_table, fix_regions):
#   - the bytes the contents use (sha256), read at the old offset before
#     and at the new offset after, are identical;
#   - the filesystem checker passes (e2fsck -fn, xfs_repair -n,
#     fsck.fat -n) on the partition (a node, or a copy cut out of the image);
#   - `blkalign check` has no start-* finding on the partition;
#   - every other partition is byte-identical;
#   - the table is valid to `sfdisk --verify` (and `sgdisk -v` for GPT) and
#     holds exactly the layout the test derived by hand.
# Expected values are derived by hand in each test, never taken from
# blkalign's own output; blkalign's plan is only compared with them.

MiB=1048576
FIX_ENV=()	# extra environment for fix_run: BLKALIGN_FAULT=... runs
		# blkalign-fault, the commands with a fault-injecting I/O
		# backend (tests/fault/), instead of blkalign

# fix_setup [root]: programs, the fix subcommand, a temp dir.  With
# "root": loop devices too.  Missing pieces skip, except in CI.
fix_setup() {
	[ "${1:-}" = root ] && ts_require_root
	ts_require_prog sfdisk sgdisk jq sha256sum dd blkid truncate e2fsck mkfs.ext4
	[ -x "$BLKALIGN" ] || ts_skip "no blkalign binary at $BLKALIGN"
	if [ ! -x "${BLKALIGN_FAULT_BIN:-}" ]; then
		[ "${CI:-}" = "true" ] && { ts_log "FAIL: no blkalign-fault at '${BLKALIGN_FAULT_BIN:-}'"; exit 1; }
		ts_skip "no blkalign-fault at '${BLKALIGN_FAULT_BIN:-}'"
	fi
	if ! "$BLKALIGN" fix --help >/dev/null 2>&1; then
		if [ "${CI:-}" = "true" ]; then
			ts_log "FAIL: '$BLKALIGN fix --help' fails: no fix subcommand"
			exit 1
		fi
		ts_skip "this blkalign has no 'fix' subcommand"
	fi
	if [ "${1:-}" = root ]; then
		ts_require_prog losetup partx blockdev mount umount
		[ -e /dev/loop-control ] || {
			[ "${CI:-}" = "true" ] && { ts_log "FAIL: no loop driver"; exit 1; }
			ts_skip "no loop driver (/dev/loop-control)"
		}
		# loop devices show the host's page size: the hand-derived
		# sizes assume 4 KiB
		[ "$(getconf PAGESIZE)" = 4096 ] || ts_skip "sizes assume 4096-byte pages"
	fi
	ts_tmpdir
}

# fix_attach IMG: a loop device over IMG with its partition nodes; sets
# FIX_LOOP (/dev/loopN).  It is detached by name at exit (ts_loop_attach
# records it in its file, which survives the $(...) subshell), or earlier
# with ts_loop_detach.  Extra losetup options after IMG.
fix_attach() {
	FIX_LOOP=$(ts_loop_attach "$@") || {
		ts_log "FAIL: cannot attach '$1'"
		exit 1
	}
	ts_log "attached $FIX_LOOP to $(basename "$1")"
}

# fix_node DEV N: the node of partition N of loop device DEV, after
# making sure the kernel and devtmpfs have it.
fix_node() {
	local n=$1p$2
	[ -b "$n" ] || partx -u "$1" >/dev/null 2>&1 || partx -a "$1" >/dev/null 2>&1
	udevadm settle 2>/dev/null || true
	printf '%s\n' "$n"
}

# fix_kernel_part DEV N: "start size" (sectors) the kernel has for
# partition N of DEV (sysfs), or "-" when it has none.
fix_kernel_part() {
	local d=${1#/dev/} s
	s=/sys/block/$d/${d}p$2
	if [ -r "$s/start" ]; then
		echo "$(cat "$s/start") $(cat "$s/size")"
	else
		echo -
	fi
}

# ---------------------------------------------------------------------
# Contents

# fix_content DIR BYTES: a directory of files for mkfs.ext4 -d: about
# BYTES of random data in two files, a text file, a subdirectory and a
# symlink.
fix_content() {
	mkdir -p "$1/sub"
	head -c $(($2 * 3 / 4)) /dev/urandom >"$1/random.bin"
	head -c $(($2 / 4 + 1)) /dev/urandom >"$1/sub/more.bin"
	seq 1 20000 >"$1/sub/numbers.txt"
	ln -sf sub/numbers.txt "$1/link"
}

# fix_xfs_proto DIR: a mkfs.xfs protofile (xfs_mkfs(8), -p) that puts
# DIR's regular files and directories in the root.
fix_xfs_proto() {
	printf '/dev/null\n0 0\nd--755 0 0\n'
	fix_xfs_proto_dir "$1"
}

fix_xfs_proto_dir() {
	local e
	for e in "$1"/*; do
		if [ -d "$e" ] && [ ! -L "$e" ]; then
			echo "${e##*/} d--755 0 0"
			fix_xfs_proto_dir "$e"
		elif [ -f "$e" ] && [ ! -L "$e" ]; then
			echo "${e##*/} ---644 0 0 $e"
		fi
	done
	echo '$'
}

# fix_lvmc CMD DEV ARGS...: the LVM command CMD seeing DEV alone (no
# other device, no udev, no devices file, no locking, no backup or
# archive written), so that a test's PV never meets the host's.
fix_lvmc() {
	local cmd=$1 dev=$2
	shift 2
	LVM_SUPPRESS_FD_WARNINGS=1 "$cmd" --config "devices{filter=[\"a|^$dev\$|\",\"r|.*|\"] \
obtain_device_list_from_udev=0 use_devicesfile=0} backup{backup=0 archive=0}" \
		--nolocking "$@"
}

# fix_mkpv IMG: an LVM2 PV over the whole of IMG, made on a loop device
# of its own (detached whatever happens; nothing activated): pvcreate
# --pvmetadatacopies 2 (the second metadata area at its end), a VG of
# 256 KiB extents, LV a on PEs 1-2 and LV b on PEs N-3..N-2 of its N
# (free extents before, between and after them), random bytes over all
# N extents.  IMG of 4 MiB has N = 8 (pe_start 1 MiB, the second
# metadata area its last MiB).
fix_mkpv() {
	local img=$1 dev rc ps=0 cnt=0
	dev=$(ts_loop_attach "$img") || return 1
	fix_lvmc pvcreate "$dev" -q -y --pvmetadatacopies 2 "$dev" &&
		fix_lvmc vgcreate "$dev" -q -s 256k vgmx "$dev" &&
		read -r ps cnt < <(fix_lvmc pvs "$dev" --noheadings --units b \
			--nosuffix -o pe_start,pv_pe_count "$dev") &&
		[ "$cnt" -ge 8 ] &&
		fix_lvmc lvcreate "$dev" --driverloaded n -an -Zn -y -l 2 -n a \
			vgmx "$dev:1-2" &&
		fix_lvmc lvcreate "$dev" --driverloaded n -an -Zn -y -l 2 -n b \
			vgmx "$dev:$((cnt - 3))-$((cnt - 2))"
	rc=$?
	ts_loop_detach "$dev"
	[ $rc = 0 ] || { echo "fix_mkpv: pvcreate, vgcreate, lvcreate (PEs: $cnt)"; return 1; }
	head -c $((cnt * 256 * 1024)) /dev/urandom |
		dd of="$img" bs=1M seek="$ps" oflag=seek_bytes conv=notrunc status=none
}

# fix_mkfs TYPE IMG START BYTES: put a new TYPE of BYTES at sector START
# (512-byte) of IMG: ext4 (4 KiB blocks, with files), xfs (>= 16 MiB),
# fat16, fat32 (512-byte clusters), esp (FAT32 with mkfs.fat's own cluster
# size and alignment, as installers make an ESP), ntfs (hidden sectors =
# START, as an installer writes them), lvm (an LVM2 PV with two LVs and
# free extents: fix_mkpv), rand (random bytes).  The filesystem is made in
# a file and copied in, so no offset support is needed from mkfs.  A small
# ext4 (8 MiB) has a 4 MiB journal: the files take BYTES/5.
fix_mkfs() {
	local type=$1 img=$2 start=$3 bytes=$4 f
	f=$TS_TMP/mkfs.$$.img
	rm -rf "$f" "$TS_TMP/content"
	case $type in
	ext4)
		truncate -s "$bytes" "$f"
		fix_content "$TS_TMP/content" $((bytes / 5))
		mkfs.ext4 -q -F -b 4096 -E nodiscard -d "$TS_TMP/content" "$f" \
			>"$TS_TMP/mkfs.out" 2>&1 &&
			# FIX_MKFS_HOLE: a file deleted, its blocks free between
			# used ones (what a move of used blocks skips)
			if [ -n "${FIX_MKFS_HOLE:-}" ]; then
				debugfs -w -R "rm /random.bin" "$f" >>"$TS_TMP/mkfs.out" 2>&1
			fi ;;
	xfs)
		truncate -s "$bytes" "$f"
		# mkfs.xfs refuses < 300 MiB unless run as by xfstests; one
		# AG of 16 MiB is the least it makes, two need 32 MiB
		local xo=(-d agcount=2)
		[ "$bytes" -lt $((32 * MiB)) ] && xo=(-d agcount=1)
		# FIX_MKFS_HOLE: files put in by mkfs.xfs's protofile (no
		# mount here), their blocks used, the AG's tail free
		if [ -n "${FIX_MKFS_HOLE:-}" ]; then
			fix_content "$TS_TMP/content" $((bytes / 5))
			fix_xfs_proto "$TS_TMP/content" >"$TS_TMP/content.proto"
			xo+=(-p "$TS_TMP/content.proto")
		fi
		TEST_DIR=1 TEST_DEV=1 QA_CHECK_FS=1 mkfs.xfs -q -f -K "${xo[@]}" "$f" \
			>"$TS_TMP/mkfs.out" 2>&1 ;;
	fat16 | fat32)
		truncate -s "$bytes" "$f"
		mkfs.fat -F "${type#fat}" -s 1 -S 512 -h "$start" -i 1234abcd "$f" \
			>"$TS_TMP/mkfs.out" 2>&1 &&
			# FIX_MKFS_HOLE: files copied in by mtools, one deleted
			if [ -n "${FIX_MKFS_HOLE:-}" ]; then
				fix_content "$TS_TMP/content" $((bytes / 5))
				rm -f "$TS_TMP/content/link"
				MTOOLS_SKIP_CHECK=1 mcopy -s -i "$f" "$TS_TMP/content/random.bin" \
					"$TS_TMP/content/sub" :: >>"$TS_TMP/mkfs.out" 2>&1 &&
					MTOOLS_SKIP_CHECK=1 mdel -i "$f" ::random.bin >>"$TS_TMP/mkfs.out" 2>&1
			fi ;;
	esp)
		truncate -s "$bytes" "$f"
		mkfs.fat -F 32 -h "$start" -i 1234abcd "$f" >"$TS_TMP/mkfs.out" 2>&1 ;;
	ntfs)
		truncate -s "$bytes" "$f"
		mkntfs -q -F -f -p "$start" -H 255 -S 63 -s 512 "$f" \
			>"$TS_TMP/mkfs.out" 2>&1 &&
			# FIX_MKFS_HOLE: files put in by ntfscp (no mount
			# needed): clusters used among free ones
			if [ -n "${FIX_MKFS_HOLE:-}" ]; then
				fix_content "$TS_TMP/content" $((bytes / 5))
				ntfscp -f "$f" "$TS_TMP/content/random.bin" random.bin \
					>>"$TS_TMP/mkfs.out" 2>&1 &&
					ntfscp -f "$f" "$TS_TMP/content/sub/more.bin" more.bin \
						>>"$TS_TMP/mkfs.out" 2>&1
			fi ;;
	lvm)
		truncate -s "$bytes" "$f"
		fix_mkpv "$f" >"$TS_TMP/mkfs.out" 2>&1 ;;
	rand)
		head -c "$bytes" /dev/urandom >"$f" ;;
	*) ts_fail "fix_mkfs: unknown type '$type'"; return 1 ;;
	esac || { ts_fail "mkfs $type: $(cat "$TS_TMP/mkfs.out")"; return 1; }
	dd if="$f" of="$img" bs=1M seek=$((start * 512)) oflag=seek_bytes \
		conv=notrunc status=none || { ts_fail "cannot write $type into '$img'"; return 1; }
	rm -rf "$f" "$TS_TMP/content"
}

# ---------------------------------------------------------------------
# Reading back

# fix_sha SRC OFFSET LEN: sha256 of LEN bytes at byte OFFSET of SRC (an
# image or a block device: read with O_DIRECT, past any page cache).
fix_sha() {
	local fl=skip_bytes,count_bytes
	[ -b "$1" ] && fl=$fl,direct
	dd if="$1" bs=1M iflag=$fl skip="$2" count="$3" status=none |
		sha256sum | cut -d' ' -f1
}

# fix_data_sha TYPE SRC OFFSET LEN: sha256 of what a move must keep of
# TYPE contents of LEN bytes at byte OFFSET of SRC.  fix copies the kinds
# it has a map for by their used blocks (docs/fix.md, "Used blocks"), so
# for those (tests/lib/used-extents.py knows TYPE) these are the used
# extents the filesystem's own tools list for the filesystem found there
# (a move that breaks its bitmaps lists other extents, and the sums
# differ); for every other TYPE all LEN bytes.
fix_data_sha() {
	local type=$1 src=$2 off=$3 len=$4 cut=$TS_TMP/data-sha.img
	local ue=$TS_TOP/tests/lib/used-extents.py
	if ! python3 "$ue" knows "$type"; then
		fix_sha "$src" "$off" "$len"
		return
	fi
	fix_cut "$src" "$off" "$len" "$cut"
	if python3 "$ue" "$type" "$cut" >"$cut.ext" 2>"$cut.err"; then
		python3 "$ue" sha "$cut" 0 "$cut.ext"
	else
		echo "no-$type-at-$off: $(head -1 "$cut.err")"
	fi
	rm -f "$cut" "$cut.ext" "$cut.err"
}

# fix_used_sum TYPE SRC OFFSET LEN: the bytes TYPE's own tools count used
# in the LEN bytes at OFFSET of SRC (the sum of used-extents.py's
# extents): what a move of used blocks copies at least.
fix_used_sum() {
	local cut=$TS_TMP/used-sum.img
	fix_cut "$2" "$3" "$4" "$cut"
	python3 "$TS_TOP/tests/lib/used-extents.py" "$1" "$cut" | awk '{ s += $2 } END { print s + 0 }'
	rm -f "$cut"
}

# fix_cut SRC OFFSET LEN OUT: copy LEN bytes at OFFSET of SRC to file OUT.
fix_cut() {
	local fl=skip_bytes,count_bytes
	[ -b "$1" ] && fl=$fl,direct
	rm -f "$4"
	dd if="$1" of="$4" bs=1M iflag=$fl skip="$2" count="$3" status=none
}

# fix_fsck WHAT TYPE SRC [OFFSET LEN]: the filesystem checker, read-only,
# on SRC (a partition node), or on LEN bytes cut out of SRC at OFFSET.
fix_fsck() {
	local what=$1 type=$2 src=$3 out=$TS_TMP/fsck.out rc
	if [ $# -ge 5 ]; then
		fix_cut "$src" "$4" "$5" "$TS_TMP/fsck.img"
		src=$TS_TMP/fsck.img
	elif [ -b "$src" ]; then
		blockdev --flushbufs "$src" 2>/dev/null
	fi
	fix_checker "$type" "$src" >"$out" 2>&1
	rc=$?
	rm -f "$TS_TMP/fsck.img"
	if [ $rc -eq 0 ]; then
		ts_ok "$what: $type checker clean"
	else
		ts_fail "$what: $type checker exit $rc: $(tail -5 "$out" | tr '\n' ' ')"
	fi
}

# fix_checker TYPE SRC: the filesystem's own checker, read-only, on SRC
# (a file or a partition node), its output on stdout; its exit status,
# or 99 when fsck.fat -n, which exits 0 even when it would change
# something, lists a change.
fix_checker() {
	local o rc
	case $1 in
	ext4) e2fsck -fn "$2" ;;
	# one AG (an XFS of 16 MiB): xfs_repair cannot check the geometry
	# against a second superblock unless told to go on
	xfs) if [ -b "$2" ]; then
		xfs_repair -n -o force_geometry "$2"
	else
		xfs_repair -n -f -o force_geometry "$2"
	fi ;;
	fat16 | fat32 | esp)
		o=$(fsck.fat -n "$2" 2>&1)
		rc=$?
		echo "$o"
		[ $rc = 0 ] || return $rc
		! grep -q -i -E 'differ|would|changes|not fix|error|corrupt' <<<"$o" || return 99 ;;
	# ntfsfix -n also checks the backup boot sector against the primary
	ntfs) ntfsfix -n "$2" ;;
	lvm) fix_lvm_check "$2" ;;
	*) echo "fix_checker: unknown type $1"; return 2 ;;
	esac
}

# fix_lvm_check SRC: the LVM2 PV SRC (a device, or a file seen through a
# read-only loop device of its own, detached whatever happens): its
# segments as pvs --segments lists them, each line "segment START SIZE
# [LV]" (PEs; a free one has no LV), then what pvck says; pvck's exit
# status, or 3 when only pvs failed.
fix_lvm_check() {
	local dev=$1 rc prc
	if [ ! -b "$dev" ]; then
		dev=$(ts_loop_attach "$1" -r) || { echo "cannot attach '$1'"; return 1; }
	fi
	fix_lvmc pvs "$dev" --noheadings --segments -o pvseg_start,pvseg_size,lv_name \
		"$dev" 2>/dev/null | awk '{ $1 = $1; print "segment", $0 }'
	prc=${PIPESTATUS[0]}
	fix_lvmc pvck "$dev" "$dev" 2>&1
	rc=$?
	[ $rc != 0 ] || [ "$prc" = 0 ] || rc=3
	[ "$dev" = "$1" ] || ts_loop_detach "$dev"
	return $rc
}

# fix_probe SRC OFFSET: the TYPE blkid's low-level probe sees at OFFSET
# of SRC (empty when nothing).
fix_probe() {
	blkid -p -O "$2" -o value -s TYPE "$1" 2>/dev/null
}

# fix_layout IMG: "N start size" lines (sectors), sorted.
fix_layout() {
	mkimg_layout "$1" | sort
}

# fix_expect_table WHAT IMG <<EOF: the table holds exactly these
# partitions ("N start size", sectors) and sfdisk --verify (and for GPT
# sgdisk -v) find nothing wrong.
fix_expect_table() {
	local what=$1 img=$2 want got label
	want=$(grep -v '^[[:space:]]*$' | sed 's/^[[:space:]]*//' | sort)
	got=$(fix_layout "$img")
	if [ "$want" = "$got" ]; then
		ts_ok "$what: table = {$(printf '%s' "$want" | tr '\n' ';')}"
	else
		ts_fail "$what: table differs (- expected, + on disk)"
		ts_diff_lines "$want" "$got"
	fi
	sfdisk --verify "$img" >"$TS_TMP/verify.out" 2>&1
	if grep -q '^No errors detected' "$TS_TMP/verify.out"; then
		ts_ok "$what: sfdisk --verify"
	else
		ts_fail "$what: sfdisk --verify: $(tr '\n' ' ' <"$TS_TMP/verify.out")"
	fi
	label=$(sfdisk -d "$img" 2>/dev/null | sed -n 's/^label: //p')
	if [ "$label" = gpt ]; then
		sgdisk -v "$img" >"$TS_TMP/sgdisk-v.out" 2>&1
		if grep -q '^No problems found' "$TS_TMP/sgdisk-v.out"; then
			ts_ok "$what: sgdisk -v"
		else
			ts_fail "$what: sgdisk -v: $(tr '\n' ' ' <"$TS_TMP/sgdisk-v.out")"
		fi
	fi
}

# fix_regions IMG N...: "N sha256" of each listed partition's whole
# extent as the table says now (to compare before and after).
fix_regions() {
	local img=$1 n start size
	shift
	for n in "$@"; do
		read -r start size < <(fix_layout "$img" | awk -v n="$n" '$1 == n {print $2, $3}')
		if [ -z "${start:-}" ]; then
			echo "$n missing"
		else
			echo "$n $(fix_sha "$img" $((start * 512)) $((size * 512)))"
		fi
	done
}

# fix_no_start_findings WHAT IMG N [check options]: `blkalign check` has
# no start-* finding on partition N of IMG.
fix_no_start_findings() {
	local what=$1 img=$2 n=$3 layer got
	shift 3
	ba_check "check-$n" "$@" "$img" || return 1
	layer=$(ba_jq "check-$n" ".devices[0].layers[] | select(.number == $n) | .name")
	[ -n "$layer" ] || { ts_fail "$what: check has no layer for partition $n"; return 1; }
	got=$(ba_jq "check-$n" ".devices[0].findings[] | select(.layer == \"$layer\") |
		select(.code | startswith(\"start-\")) | .code" | tr '\n' ' ')
	ts_expect_eq "$what: start-* findings on '$layer'" "" "$got"
}

# ---------------------------------------------------------------------
# Running blkalign

# fix_run NAME ARGS...: `blkalign fix ARGS` (with the FIX_ENV
# environment: blkalign-fault when it names a fault); leaves NAME.out,
# NAME.err and FIX_RC.
# fix_wants_json ARG...: the arguments ask for JSON (-J, --json[=...]).
fix_wants_json() {
	local a
	for a; do
		case $a in -J | --json | --json=*) return 0 ;; esac
	done
	return 1
}

fix_run() {
	local name=$1 bin=$BLKALIGN
	shift
	case " ${FIX_ENV[*]:-}" in *" BLKALIGN_FAULT="*) bin=$BLKALIGN_FAULT_BIN ;; esac
	# in a subshell that exits normally, so that a death by SIGKILL
	# (the test hooks) does not make bash print "Killed"
	(
		env "${FIX_ENV[@]}" timeout 300 "$bin" fix "$@" \
			>"$TS_TMP/$name.out" 2>"$TS_TMP/$name.err"
		exit $?
	) 2>/dev/null
	FIX_RC=$?
	# a JSON document for tests/check's validation, unless a signal
	# (a kill hook, timeout) cut it short
	if [ "$FIX_RC" -lt 128 ] && fix_wants_json "$@"; then
		ts_keep_json fix "$TS_TMP/$name.out"
	fi
	if grep -E -q 'Sanitizer|runtime error:' "$TS_TMP/$name.err"; then
		ts_fail "$name: sanitizer report: $(head -c 400 "$TS_TMP/$name.err")"
	fi
	return 0
}

# fix_expect_rc WHAT WANT: FIX_RC is WANT (stderr shown when not).
fix_expect_rc() {
	if [ "$FIX_RC" = "$2" ]; then
		ts_ok "$1: exit status $2"
	else
		ts_fail "$1: exit status $FIX_RC, expected $2; stderr: $(tail -c 600 "$TS_TMP/$3.err" 2>/dev/null | tr '\n' ' ')"
	fi
}

# fix_said WHAT NAME ERE: NAME's stdout or stderr matches ERE (-i).
fix_said() {
	if cat "$TS_TMP/$2.out" "$TS_TMP/$2.err" | grep -E -i -q -- "$3"; then
		ts_ok "$1: says /$3/"
	else
		ts_fail "$1: nothing matches /$3/ in: $(cat "$TS_TMP/$2.err" "$TS_TMP/$2.out" | head -c 600 | tr '\n' ' ')"
	fi
}

# fix_jq NAME FILTER: jq -r over NAME.out (a fix -J or plan --json run).
fix_jq() {
	jq -r "$2" "$TS_TMP/$1.out"
}

# fix_plan NAME ARGS...: `blkalign plan --json ARGS` into NAME.out.
fix_plan() {
	local name=$1
	shift
	timeout 60 "$BLKALIGN" plan --json "$@" >"$TS_TMP/$name.out" 2>"$TS_TMP/$name.err"
	ts_keep_json plan "$TS_TMP/$name.out"
	FIX_PLAN_RC=$?
}

# fix_plan_row NAME N: "action new_start new_size" (sectors) of
# partition N in plan NAME.
fix_plan_row() {
	fix_jq "$1" ".devices[0].partitions[] | select(.number == $2) |
		\"\(.action) \(.new_start / 512) \(.new_size / 512)\""
}

# fix_json_row NAME N: "old_start old_size new_start new_size" (sectors)
# of partition N in a fix -J report.
fix_json_row() {
	fix_jq "$1" ".partitions[] | select(.number == $2) |
		\"\(.old_start / 512) \(.old_size / 512) \(.new_start / 512) \(.new_size / 512)\""
}

# fix_points W K: K points spread evenly over 1..W (all of them when
# W <= K; the middle one when K is 1), one per line.
fix_points() {
	local w=$1 k=$2 i
	if [ "$w" -le "$k" ]; then
		seq 1 "$w"
		return
	fi
	if [ "$k" -le 1 ]; then
		[ "$k" = 1 ] && echo $(((w + 1) / 2))
		return 0
	fi
	for ((i = 0; i < k; i++)); do
		echo $((1 + (i * (w - 1) + (k - 1) / 2) / (k - 1)))
	done | uniq
}

# fix_unchanged WHAT IMG SHA: IMG's sha256 is still SHA.
fix_unchanged() {
	local now
	if [ -b "$2" ]; then
		now=$(fix_sha "$2" 0 "$(blockdev --getsize64 "$2")")
	else
		now=$(mkimg_sha "$2")
	fi
	ts_expect_eq "$1: nothing written (sha256)" "$3" "$now"
}

# fix_whole_sha IMG: sha256 of the whole image or device.
fix_whole_sha() {
	if [ -b "$1" ]; then
		fix_sha "$1" 0 "$(blockdev --getsize64 "$1")"
	else
		mkimg_sha "$1"
	fi
}

# fix_verify_move WHAT TARGET N TYPE NEW_START USED SHA [check options]:
# after a move of partition N (contents TYPE, USED bytes, NEW_START in
# sectors) on TARGET (image or loop device): the data at the new start
# has sha256 SHA (fix_data_sha, taken the same way before the move), the checker passes on them (through the
# partition node on a device: the kernel must know the new start), and
# check has no start-* finding on N.
fix_verify_move() {
	local what=$1 tgt=$2 n=$3 type=$4 start=$5 used=$6 sha=$7 node kp
	shift 7
	ts_expect_eq "$what: sha256 of the $type's data (of $used bytes) at sector $start" \
		"$sha" "$(fix_data_sha "$type" "$tgt" $((start * 512)) "$used")"
	if [ -b "$tgt" ]; then
		kp=$(fix_kernel_part "$tgt" "$n")
		ts_expect_eq "$what: the kernel's start of partition $n" "$start" "${kp% *}"
		node=$(fix_node "$tgt" "$n")
		ts_expect_eq "$what: sha256 through $node" "$sha" "$(fix_data_sha "$type" "$node" 0 "$used")"
		[ "$type" = rand ] || fix_fsck "$what" "$type" "$node"
	else
		[ "$type" = rand ] || fix_fsck "$what" "$type" "$tgt" $((start * 512)) "$used"
	fi
	fix_no_start_findings "$what" "$tgt" "$n" "$@"
}

# fix_agree WHAT IMG [check options]: after a fix, check and plan say the
# same thing: plan moves and resizes nothing more, and its remaining
# findings are exactly the warnings and errors check reports on the
# partitions among the codes a plan cures (docs/plan.md, "Proof").
fix_agree() {
	local what=$1 img=$2 name=agree-$RANDOM codes n
	shift 2
	codes='["start-physical","start-io-min","start-io-opt","raid-chunk",
		"raid-stripe","size-physical","soft-block-size","partition-past-end",
		"partition-overlap","partition-outside-container","image-cluster-offset"]'
	ba_check "$name" "$@" "$img" || return 1
	fix_plan "$name-plan" "$@" "$img"
	ts_expect_eq "$what: after fix, plan moves and resizes nothing" "" \
		"$(fix_jq "$name-plan" '[.devices[0].partitions[] |
			select(.action == "move" or .action == "resize") | .number] | join(" ")')"
	n=$(ba_jq "$name" ".devices[0] as \$d | [\$d.layers[] |
		select(.kind == \"partition\") | .name] as \$parts | [\$d.findings[] |
		select(.severity != \"info\") | select(.code as \$c | $codes | index(\$c)) |
		select(.layer as \$l | \$parts | index(\$l))] | length")
	ts_expect_eq "$what: after fix, check's findings a plan cures = plan's remaining" \
		"$n" "$(fix_jq "$name-plan" '.devices[0].remaining_findings')"
}

# ---------------------------------------------------------------------
# Crash matrix
#
# A scenario is a base image (or loop device) and the fix arguments; the
# caller sets:
#   MX_BASE     the pristine image (copied for every point)
#   MX_TARGET   where fix runs: an image path (MX_BASE is copied over it)
#               or a loop device over that image path (MX_IMG)
#   MX_IMG      the image file the target is (or sits on)
#   MX_ARGS     the fix arguments (array) but --yes/--journal/target
#   MX_N MX_TYPE MX_OLD MX_NEW MX_USED  partition, contents, old and new
#               start (sectors), used bytes
#   MX_OTHERS   partition numbers that must stay byte-identical
#   MX_EXTENTS  optional: a file of the used extents of the contents
#               ("OFF LEN" bytes from the partition start, from the
#               filesystem's own tools: tests/lib/used-extents.py), for a
#               move that copies only those: data compare on them alone
# fix_mx_prepare NAME then sets MX_SHA, MX_OTHER_SHA, MX_OLD_TABLE,
# MX_NEW_TABLE (sfdisk -d), MX_WHOLE and MX_W, the writes of a full run.

# the table dump without the "device:" line (paths differ for a loop)
fix_mx_table() {
	sfdisk -d "$1" 2>/dev/null | grep -v '^device:' |
		sed 's|^[^ ]*[^0-9]\([0-9]\+\) *:|\1 :|'
}

# fix_mx_reset [IMG]: the target back to the base image (or to IMG, a
# saved state), no journal.
# fix_mx_sha SRC START: sha256 of the scenario's data at sector START of
# SRC: its MX_USED bytes, or its used extents (MX_EXTENTS).
fix_mx_sha() {
	if [ -z "${MX_EXTENTS:-}" ]; then
		fix_sha "$1" $(($2 * 512)) "$MX_USED"
		return
	fi
	[ -b "$1" ] && blockdev --flushbufs "$1" 2>/dev/null
	python3 "$TS_TOP/tests/lib/used-extents.py" sha "$1" $(($2 * 512)) "$MX_EXTENTS"
}

fix_mx_reset() {
	cp --sparse=always "${1:-$MX_BASE}" "$MX_IMG"
	rm -f "$MX_J" "$MX_J.new"
	if [ -b "$MX_TARGET" ]; then
		# the image was rewritten under the loop: let the kernel see it
		blockdev --flushbufs "$MX_TARGET" 2>/dev/null
		partx -u "$MX_TARGET" >/dev/null 2>&1 || partx -a "$MX_TARGET" >/dev/null 2>&1
	fi
}

fix_mx_prepare() {
	local name=$1
	MX_J=$TS_TMP/$name.journal
	MX_SHA=$(fix_mx_sha "$MX_BASE" "$MX_OLD")
	MX_OTHER_SHA=$(fix_regions "$MX_BASE" "${MX_OTHERS[@]}")
	MX_OLD_TABLE=$(fix_mx_table "$MX_BASE")
	MX_WHOLE=$(mkimg_sha "$MX_BASE")
	fix_mx_reset
	fix_run "$name-full" -J --yes "${MX_ARGS[@]}" --journal "$MX_J" "$MX_TARGET"
	fix_expect_rc "$name: full run" 0 "$name-full"
	MX_W=$(fix_jq "$name-full" .writes)
	MX_NEW_TABLE=$(fix_mx_table "$MX_TARGET")
	ts_log "$name: a full run does $MX_W writes, $(fix_jq "$name-full" .flushes) flushes, mode $(fix_jq "$name-full" '.partitions[0].mode'), $(fix_jq "$name-full" '.partitions[0].steps') steps"
	fix_mx_check_new "$name: full run" || true
	[ -e "$MX_J" ] && ts_fail "$name: the journal is left after a full run"
	MX_MID=0
	[ "${MX_W:-0}" -gt 2 ] 2>/dev/null || { ts_fail "$name: writes = '$MX_W'"; return 1; }
}

# fix_mx_check_new WHAT: the target holds the new layout, the data at
# the new start, the other partitions as they were.  Returns 1 at the
# first difference (one failure per point keeps the log short).
fix_mx_check_new() {
	local what=$1 got
	got=$(fix_mx_table "$MX_TARGET")
	[ "$got" = "$MX_NEW_TABLE" ] || { ts_fail "$what: not the new table: $(tr '\n' ' ' <<<"$got")"; return 1; }
	got=$(fix_mx_sha "$MX_TARGET" "$MX_NEW")
	[ "$got" = "$MX_SHA" ] || { ts_fail "$what: data at the new start differ"; return 1; }
	fix_mx_common "$what" "$MX_NEW"
}

# fix_mx_check_old WHAT: the old layout and data are back.
fix_mx_check_old() {
	local what=$1 got
	got=$(fix_mx_table "$MX_TARGET")
	[ "$got" = "$MX_OLD_TABLE" ] || { ts_fail "$what: not the old table: $(tr '\n' ' ' <<<"$got")"; return 1; }
	got=$(fix_mx_sha "$MX_TARGET" "$MX_OLD")
	[ "$got" = "$MX_SHA" ] || { ts_fail "$what: data at the old start differ"; return 1; }
	fix_mx_common "$what" "$MX_OLD"
}

fix_mx_common() {
	local what=$1 start=$2 got out=$TS_TMP/mx-fsck.$BASHPID.out
	got=$(fix_regions "$MX_TARGET" "${MX_OTHERS[@]}")
	[ "$got" = "$MX_OTHER_SHA" ] || { ts_fail "$what: another partition changed"; return 1; }
	case $MX_TYPE in
	ext4 | xfs | fat16 | ntfs | lvm)
		fix_cut "$MX_TARGET" $((start * 512)) "$MX_USED" "$TS_TMP/mx.$BASHPID.img"
		fix_checker "$MX_TYPE" "$TS_TMP/mx.$BASHPID.img" >"$out" 2>&1 ||
			{ ts_fail "$what: $MX_TYPE's checker: $(tail -3 "$out" | tr '\n' ' ')"; return 1; }
		rm -f "$TS_TMP/mx.$BASHPID.img"
		# an LVM PV: pvs lists the segments it listed before the move
		if [ "$MX_TYPE" = lvm ] && [ "$(grep '^segment ' "$out")" != "$MX_LVM_SEGS" ]; then
			ts_fail "$what: pvs --segments differ: $(grep '^segment ' "$out" | tr '\n' ' ')"
			return 1
		fi
		# blkid sees the contents there, as it saw them before
		got=$(fix_probe "$MX_TARGET" $((start * 512)))
		[ "$got" = "$MX_BLKID" ] ||
			{ ts_fail "$what: blkid sees '$got' at sector $start, not '$MX_BLKID'"; return 1; } ;;
	esac
	[ -e "$MX_J" ] && { ts_fail "$what: the journal is still there"; return 1; }
	return 0
}

# fix_mx_probe WHAT: right after a crash, a filesystem is seen (blkid -p)
# at the old or the new start only where its bytes are all intact; and
# counts the points where neither position is intact (mid-move) in MX_MID.
fix_mx_probe() {
	local what=$1 pos t intact any=0
	for pos in "$MX_OLD" "$MX_NEW"; do
		intact=0
		[ "$(fix_mx_sha "$MX_TARGET" "$pos")" = "$MX_SHA" ] && intact=1 any=1
		# the marker may stand in for a first sector the file system
		# does not read (ext4's): blkid sees it only if so
		[ $intact = 0 ] && fix_mx_marker_only "$pos" && intact=1
		[ "$MX_TYPE" = rand ] && continue
		t=$(fix_probe "$MX_TARGET" $((pos * 512)))
		if [ -n "$t" ] && [ $intact = 0 ]; then
			ts_fail "$what: blkid sees '$t' at sector $pos, where the data are not intact"
			return 1
		fi
	done
	[ $any = 0 ] && MX_MID=$((MX_MID + 1))
	return 0
}

# fix_mx_marker_only POS: the used bytes at sector POS are the data's
# but for the first sector, which holds the fix's marker.
fix_mx_marker_only() {
	local got
	dd if="$MX_TARGET" bs=512 skip="$1" count=1 status=none 2>/dev/null |
		grep -q -a '^BLKALIGN FIX IN PROGRESS' || return 1
	if [ -n "${MX_EXTENTS:-}" ]; then
		got=$(python3 "$TS_TOP/tests/lib/used-extents.py" sha "$MX_TARGET" \
			$(($1 * 512)) "$MX_EXTENTS" "$MX_BASE" $((MX_OLD * 512)))
		[ "$got" = "$MX_SHA" ]
		return
	fi
	got=$( { dd if="$MX_BASE" bs=512 skip="$MX_OLD" count=1 status=none
		dd if="$MX_TARGET" bs=1M iflag=skip_bytes,count_bytes skip=$(($1 * 512 + 512)) \
			count=$((MX_USED - 512)) status=none; } | sha256sum | cut -d' ' -f1)
	[ "$got" = "$MX_SHA" ]
}

# fix_shows_interrupted TARGET: `blkalign check` reports fix-interrupted.
fix_shows_interrupted() {
	"$BLKALIGN" check "$1" >"$TS_TMP/check-interrupted.out" 2>&1
	grep -q fix-interrupted "$TS_TMP/check-interrupted.out"
}

# fix_failed_kept WHAT NAME JOURNAL BYTES: the fix run NAME (-J) stopped
# on an I/O error part-way as it must: exit 4, action "failed" with
# journal_kept and status 4, a message naming the kept journal and
# --resume, the JOURNAL file there, 0 < bytes_copied < BYTES.
fix_failed_kept() {
	local what=$1 name=$2 copied
	fix_expect_rc "$what" 4 "$name"
	ts_expect_eq "$what: JSON action, journal_kept, status" "failed true 4" \
		"$(fix_jq "$name" '"\(.partitions[0].action) \(.partitions[0].journal_kept) \(.status)"')"
	fix_said "$what: the message" "$name" "journal .* is kept.*--resume"
	[ -f "$3" ] && ts_ok "$what: the journal is kept" || ts_fail "$what: no journal file '$3'"
	copied=$(fix_jq "$name" '.partitions[0].bytes_copied')
	if [ "$copied" -gt 0 ] && [ "$copied" -lt "$4" ]; then
		ts_ok "$what: stopped part-way ($copied of $4 bytes)"
	else
		ts_fail "$what: bytes_copied $copied, expected between 0 and $4"
	fi
}

# fix_mx_marked WHAT: right after a crash with a journal, once the disk
# has been written, the partition the table shows starts with the
# marker: `check` reports fix-interrupted (and a new fix refuses).
# The one exception: the last write of a fix, the head's first sector
# at the new start, is in place, so the partition the table shows is
# whole (its used bytes identical).
fix_mx_marked() {
	local row
	[ "$(fix_whole_sha "$MX_TARGET")" = "$MX_WHOLE" ] && return 0
	fix_shows_interrupted "$MX_TARGET" && return 0
	row=$(fix_layout "$MX_TARGET" | awk -v n="$MX_N" '$1 == n { print $2 }')
	[ -n "$row" ] && [ "$(fix_mx_sha "$MX_TARGET" "$row")" = "$MX_SHA" ] && return 0
	ts_fail "$1: the disk was written, but check does not report fix-interrupted"
	return 1
}

# fix_mx_point NAME HOOK N ACTION: crash at write N with HOOK
# (kill or powercut: BLKALIGN_FAULT=HOOK:N for blkalign-fault), then ACTION
# (resume or rollback).  Prints one line per point.
fix_mx_point() {
	local name=$1 hook=$2 n=$3 action=$4 what rc
	what="$name: $hook=$n, $action"
	fix_mx_reset
	FIX_ENV=("BLKALIGN_FAULT=$hook:$n")
	fix_run "$name-crash" --yes "${MX_ARGS[@]}" --progress none --journal "$MX_J" "$MX_TARGET"
	FIX_ENV=()
	if [ "$FIX_RC" != 137 ]; then
		ts_fail "$what: the crashed run exits $FIX_RC, not 137: $(tail -c 300 "$TS_TMP/$name-crash.err")"
		return
	fi
	fix_mx_probe "$what" || return
	if [ ! -e "$MX_J" ]; then
		# killed while the journal was being made: nothing may be
		# written to the disk yet, and there is nothing to resume
		if [ "$(fix_whole_sha "$MX_TARGET")" != "$MX_WHOLE" ]; then
			ts_fail "$what: no journal, but the disk was written"
			return
		fi
		fix_run "$name-$action" "--$action" "${MX_ARGS[@]}" --progress none --journal "$MX_J" "$MX_TARGET"
		if [ "$FIX_RC" != 4 ] || [ "$(fix_whole_sha "$MX_TARGET")" != "$MX_WHOLE" ]; then
			ts_fail "$what: without a journal, --$action exits $FIX_RC (want 4) or writes"
			return
		fi
		ts_ok "$what: crashed before the journal existed: disk untouched"
		return
	fi
	fix_mx_marked "$what" || return
	fix_run "$name-$action" "--$action" "${MX_ARGS[@]}" --progress none --journal "$MX_J" "$MX_TARGET"
	rc=$FIX_RC
	if [ "$rc" != 0 ]; then
		ts_fail "$what: --$action exits $rc: $(tail -c 300 "$TS_TMP/$name-$action.err" | tr '\n' ' ')"
		return
	fi
	if [ "$action" = resume ]; then
		fix_mx_check_new "$what" || return
	else
		fix_mx_check_old "$what" || return
	fi
	ts_ok "$what: data intact"
}

# fix_mx_twice NAME HOOK K1 K2: crashes during a rollback.  At K1 points
# of the move (SIGKILL), then a --rollback crashed with HOOK at K2 points
# of its own writes, then --rollback again: the old layout and data.
# Only points where the rollback has data to move back count.
fix_mx_twice() {
	local name=$1 hook=$2 n m w2 what count=0
	for n in $(fix_points "$MX_W" "$3"); do
		fix_mx_reset
		FIX_ENV=("BLKALIGN_FAULT=kill:$n")
		fix_run "$name-c1" --yes "${MX_ARGS[@]}" --progress none --journal "$MX_J" "$MX_TARGET"
		FIX_ENV=()
		[ "$FIX_RC" = 137 ] && [ -e "$MX_J" ] || continue
		cp --sparse=always "$MX_IMG" "$TS_TMP/$name-c1.img"
		cp "$MX_J" "$TS_TMP/$name-c1.journal"
		fix_run "$name-rb1" -J --rollback --progress none --journal "$MX_J" "$MX_TARGET"
		w2=$(fix_jq "$name-rb1" .writes)
		[ "$FIX_RC" = 0 ] && [ "$(fix_jq "$name-rb1" '.partitions[0].bytes_copied')" -gt 0 ] || continue
		for m in $(fix_points "$w2" "$4"); do
			what="$name: SIGKILL at write $n, --rollback with $hook=$m, --rollback"
			fix_mx_reset "$TS_TMP/$name-c1.img"
			cp "$TS_TMP/$name-c1.journal" "$MX_J"
			FIX_ENV=("BLKALIGN_FAULT=$hook:$m")
			fix_run "$name-rb2" --rollback --progress none --journal "$MX_J" "$MX_TARGET"
			FIX_ENV=()
			[ "$FIX_RC" = 137 ] || { ts_fail "$what: the crashed rollback exits $FIX_RC"; continue; }
			fix_mx_probe "$what" || continue
			fix_mx_marked "$what" || continue
			fix_run "$name-rb3" --rollback --progress none --journal "$MX_J" "$MX_TARGET"
			[ "$FIX_RC" = 0 ] || { ts_fail "$what: exits $FIX_RC: $(tail -c 300 "$TS_TMP/$name-rb3.err" | tr '\n' ' ')"; continue; }
			fix_mx_check_old "$what" && ts_ok "$what: data intact"
			count=$((count + 1))
		done
	done
	ts_log "$name: $count points of a rollback crashed ($hook), then --rollback"
	FIX_MX_POINTS=$((${FIX_MX_POINTS:-0} + count))
	[ $count -gt 0 ] || ts_fail "$name: no rollback with data to move back was crashed"
}

# fix_mx_sweep NAME HOOK ACTION K: fix_mx_point at K points spread over
# 1..MX_W (all of them when MX_W <= K).
fix_mx_sweep() {
	local name=$1 hook=$2 action=$3 k=$4 n count=0
	MX_MID=0
	for n in $(fix_points "$MX_W" "$k"); do
		fix_mx_point "$name" "$hook" "$n" "$action"
		count=$((count + 1))
	done
	ts_log "$name: $count crash points ($hook, then --$action), $MX_MID of them mid-move"
	FIX_MX_POINTS=$((${FIX_MX_POINTS:-0} + count))
}

# The two crash scenarios (image files, 32 MiB, 512e with
# --physical-sector-size 4096, --step 256K), derived by hand:
#   step:  p1 63+20416 (ends at 20479), ext4 of 6 MiB (12288 sectors):
#          new start 2048 (shift 1985 sectors = 992.5 KiB > the step:
#          "step" mode); rule 1: the grain end at or before 20479 is
#          18432: size 16384 >= 12288.
#   batch: p1 2047+8192, ext4 of 4 MiB filling it: new start 2048 (one
#          sector: "batch" mode); rule 1: 10239 -> 8192: 6144 < 8192;
#          rule 2: 8191 -> 8184 < 8192; rule 3: 2048 + 8192 = 10240, on
#          the grain: size 8192.
#   both:  p2 20480+4096, random data, untouched.
#   left:  (fix/left, smaller) p1 2048+6144 random; p2 10001+10479, ext4
#          of 1309 blocks (5361664 bytes), no room on the right (p3 at
#          20480): moved left to 8192, size 12288 (the grain end at or
#          before 20480); p3 20480+4096 random.  Only p2 moves.
#   NAME-used: the same with a file of the ext4 deleted (a hole of free
#          blocks), moved without --copy-all: only the used blocks.
#   NAME-used-FS: the same with FS (fat16: files copied in by mtools, one
#          deleted; ntfs: files put in by ntfscp; xfs: files put in by mkfs.xfs -p, the AG's tail
#          free).  step-used-xfs: a 16 MiB XFS (the least mkfs.xfs
#          makes) at 63+36801 (ends at 36864, on the grain): new start
#          2048, size 36864 - 2048 = 34816 >= 32768; p2 36864+4096.
#          lvm: an LVM2 PV (fix_mkpv) of the same size, its extents
#          random, pvck and pvs --segments checked after each point.
#          A PV's size is its partition's (pvresize may grow it), so
#          step-used-lvm's p1 is 63+16320 (type 8e, ends at 16383):
#          rule 1: 16383 -> 14336: 12288 < 16320; rule 3: 2048 + 16320
#          = 18368 -> 18432: size 16384.  The PV fills its first 6 MiB
#          (16 extents of 256 KiB, LVs on PEs 1-2 and 13-14).  In
#          batch-used-lvm it is 4 MiB (8 extents, LVs on 1-2 and 5-6).
#          Both: pe_start 1 MiB, a second metadata area in the last MiB.
# fix_mx_scenario NAME [TARGET]: build NAME's base image (NAME starts
# with step, batch or left, and may end in -used) and set the MX_*
# variables; TARGET (a loop device over $TS_TMP/NAME.img) when given.
fix_mx_scenario() {
	local name=$1 FIX_MKFS_HOLE= fs=ext4 used=
	case $name in
	*-used) FIX_MKFS_HOLE=1 used=1 ;;
	*-used-*) FIX_MKFS_HOLE=1 used=1 fs=${name##*-used-} ;;
	esac
	MX_BASE=$TS_TMP/$name-base.img
	MX_IMG=$TS_TMP/$name.img
	MX_TARGET=${2:-$MX_IMG}
	MX_OTHERS=(2)
	MX_N=1
	MX_NEW=2048
	MX_ARGS=(--physical-sector-size 4096 --page-size 4096 --step 256K)
	MX_P2=20480
	case $name in
	step*-xfs)
		mkimg_sfdisk "$MX_BASE" $((32 * MiB)) <<-EOF
		label: dos
		unit: sectors
		start=63, size=36801, type=83
		start=36864, size=4096, type=83
		EOF
		fix_mkfs xfs "$MX_BASE" 63 $((16 * MiB))
		MX_TYPE=xfs MX_OLD=63 MX_USED=$((16 * MiB)) MX_MODE=step
		MX_NEW_ROW="1 2048 34816" MX_P2=36864 ;;
	step*-lvm)
		mkimg_sfdisk "$MX_BASE" $((32 * MiB)) <<-EOF
		label: dos
		unit: sectors
		start=63, size=16320, type=8e
		start=20480, size=4096, type=83
		EOF
		fix_mkfs lvm "$MX_BASE" 63 $((6 * MiB))
		MX_TYPE=lvm MX_OLD=63 MX_USED=$((6 * MiB)) MX_MODE=step
		MX_NEW_ROW="1 2048 16384" ;;
	step*)
		mkimg_sfdisk "$MX_BASE" $((32 * MiB)) <<-EOF
		label: dos
		unit: sectors
		start=63, size=20416, type=83
		start=20480, size=4096, type=83
		EOF
		fix_mkfs $fs "$MX_BASE" 63 $((6 * MiB))
		MX_TYPE=$fs MX_OLD=63 MX_USED=$((6 * MiB)) MX_MODE=step
		MX_NEW_ROW="1 2048 16384" ;;
	batch*)
		mkimg_sfdisk "$MX_BASE" $((32 * MiB)) <<-EOF
		label: dos
		unit: sectors
		start=2047, size=8192, type=83
		start=20480, size=4096, type=83
		EOF
		fix_mkfs $fs "$MX_BASE" 2047 $((8192 * 512))
		MX_TYPE=$fs MX_OLD=2047 MX_USED=$((4 * MiB)) MX_MODE=batch
		MX_NEW_ROW="1 2048 8192" ;;
	left*)
		mkimg_sfdisk "$MX_BASE" $((32 * MiB)) <<-EOF
		label: dos
		unit: sectors
		start=2048, size=6144, type=83
		start=10001, size=10479, type=83
		start=20480, size=4096, type=83
		EOF
		fix_mkfs rand "$MX_BASE" 2048 $((6144 * 512))
		fix_mkfs ext4 "$MX_BASE" 10001 5361664
		MX_OTHERS=(1 3) MX_N=2 MX_NEW=8192
		MX_TYPE=ext4 MX_OLD=10001 MX_USED=5361664 MX_MODE=step
		MX_NEW_ROW="2 8192 12288" ;;
	esac
	fix_mkfs rand "$MX_BASE" "$MX_P2" $((4096 * 512))
	# fix sets a FAT's or an NTFS's hidden sectors (the BPB at 0x1C; NTFS
	# also in its backup boot sector, the volume's last sector) to the
	# new start (fix/vfat, fix/ntfs prove it): here they say it already,
	# so that the bytes at the old and the new start are the same ones
	case $fs in
	fat16) mkimg_put_le32 "$MX_BASE" $((MX_OLD * 512 + 0x1C)) "$MX_NEW" ;;
	ntfs)
		mkimg_put_le32 "$MX_BASE" $((MX_OLD * 512 + 0x1C)) "$MX_NEW"
		mkimg_put_le32 "$MX_BASE" $((MX_OLD * 512 + MX_USED - 512 + 0x1C)) "$MX_NEW" ;;
	esac
	# a loop device is 512n: the moves are optional, --partition 1
	if [ -b "$MX_TARGET" ]; then
		MX_ARGS=(--partition 1 --page-size 4096 --step 256K)
	fi
	# NAME-used: the move copies only the ext4's used blocks (a file
	# deleted first leaves a hole), the data compared on those (as
	# dumpe2fs counts them); else the whole MX_USED bytes, --copy-all
	MX_EXTENTS=
	if [ -n "$used" ]; then
		MX_EXTENTS=$TS_TMP/$name.extents
		fix_cut "$MX_BASE" $((MX_OLD * 512)) "$MX_USED" "$TS_TMP/mx-used.img"
		python3 "$TS_TOP/tests/lib/used-extents.py" "$fs" "$TS_TMP/mx-used.img" >"$MX_EXTENTS" ||
			ts_fail "$name: the $fs's used extents (used-extents.py)"
		rm -f "$TS_TMP/mx-used.img"
	else
		MX_ARGS+=(--copy-all)
	fi
	# what blkid -p sees at the old start, and after a move at the new
	MX_BLKID=$(fix_probe "$MX_BASE" $((MX_OLD * 512)))
	# an LVM PV: pvck passes on it and pvs lists its segments (compared
	# after every crash point)
	MX_LVM_SEGS=
	if [ "$fs" = lvm ]; then
		fix_cut "$MX_BASE" $((MX_OLD * 512)) "$MX_USED" "$TS_TMP/mx-pv.img"
		fix_checker lvm "$TS_TMP/mx-pv.img" >"$TS_TMP/mx-pv.out" 2>&1 ||
			ts_fail "$name: pvck or pvs on the PV made: $(tail -3 "$TS_TMP/mx-pv.out" | tr '\n' ' ')"
		MX_LVM_SEGS=$(grep '^segment ' "$TS_TMP/mx-pv.out")
		rm -f "$TS_TMP/mx-pv.img" "$TS_TMP/mx-pv.out"
		ts_log "$name: the PV's segments: $(tr '\n' ';' <<<"$MX_LVM_SEGS")"
	fi
}

# fix_mx_run NAME HOOK ACTION K [TARGET]: a scenario, its full run, and
# K crash points.
fix_mx_run() {
	fix_mx_scenario "$1" "${5:-}"
	fix_mx_prepare "$1" || return
	ts_expect_eq "$1: mode" "$MX_MODE" "$(fix_jq "$1-full" '.partitions[0].mode')"
	ts_expect_eq "$1: new table" "$MX_NEW_ROW" \
		"$(fix_layout "$MX_TARGET" | awk -v n="$MX_N" '$1 == n')"
	fix_mx_sweep "$1" "$2" "$3" "$4"
}
