# SPDX-License-Identifier: GPL-2.0-or-later
# fix-qcow2.sh - `blkalign fix` on a qcow2 image (through qemu-nbd), for
# tests/ts/fix/qcow2 and tests/ts/fix/crash-qcow2.  Source it after
# tests/lib/fix.sh and call fixq_setup.
#
# The scenario is seed 000's disk (../shared/seeds/000_*): 20 GiB
# (41943040 sectors), one dos partition made by parted at 63 of
# 41929587 sectors, here holding a 48 MiB ext4 with files, converted to
# qcow2 by qemu-img.  Worked out by hand, with --physical-sector-size
# 4096 (the partition starts 3584 bytes past a 4096-byte sector):
#   new start: the 1 MiB grain, sector 2048;
#   new end: the grain end at or before the old end 63 + 41929587 =
#   41929650: floor(41929650 / 2048) * 2048 = 41928704, so the size is
#   41928704 - 2048 = 41926656 sectors (a multiple of 8: no 512-byte
#   soft block size either);
#   the data: the ext4's 48 MiB (50331648 bytes), read at sector 63
#   before and at sector 2048 after.
# Every check reads the image as qemu does (qemu-img convert to raw),
# never the qcow2 file's own bytes, and `qemu-img check` must find no
# error in it after every run, crashed or not.

FIXQ_USED=$((48 * 1048576))
FIXQ_ARGS=(--physical-sector-size 4096 --step 1M)

fixq_setup() {
	fix_setup
	ts_require_prog qemu-img qemu-nbd parted e2fsck pgrep
}

# fixq_base: $TS_TMP/base.qcow2 and its facts (FIXQ_SHA: the ext4's data,
# its used extents (fix_data_sha); FIXQ_EXT_USED, the bytes dumpe2fs
# counts used in it; FIXQ_OLD_TABLE, the raw original's table).
fixq_base() {
	local raw=$TS_TMP/base.raw
	mkimg_parted "$raw" $((41943040 * 512)) mklabel msdos mkpart primary 63s 41929649s
	mkimg_expect_layout "seed 000 (parted)" "$raw" <<-EOF
	1 63 41929587
	EOF
	fix_mkfs ext4 "$raw" 63 "$FIXQ_USED" || return 1
	qemu-img convert -O qcow2 "$raw" "$TS_TMP/base.qcow2" ||
		{ ts_fail "qemu-img convert -O qcow2"; return 1; }
	FIXQ_SHA=$(fix_data_sha ext4 "$raw" $((63 * 512)) "$FIXQ_USED")
	FIXQ_EXT_USED=$(fix_used_sum ext4 "$raw" $((63 * 512)) "$FIXQ_USED")
	FIXQ_OLD_TABLE=$(fix_mx_table "$raw")
	FIXQ_FILE_SHA=$(sha256sum <"$TS_TMP/base.qcow2" | cut -d' ' -f1)
	rm -f "$raw"
}

# fixq_view IMG: IMG as the disk qemu reads, into $TS_TMP/view.raw
# (sparse: the 20 GiB hold 50 MB).
fixq_view() {
	rm -f "$TS_TMP/view.raw"
	qemu-img convert -O raw "$1" "$TS_TMP/view.raw"
}

# fixq_qemu_check WHAT IMG: qemu-img check finds no error (leaked
# clusters, exit 3, are space that no table points to: counted in
# FIXQ_LEAKS, not an error; qemu-img check -r leaks reclaims them).
fixq_qemu_check() {
	local rc
	qemu-img check -q "$2" >"$TS_TMP/qemu-check.out" 2>&1
	rc=$?
	case $rc in
	0) return 0 ;;
	3) FIXQ_LEAKS=$((${FIXQ_LEAKS:-0} + 1)); return 0 ;;
	*) ts_fail "$1: qemu-img check exits $rc: $(head -c 400 "$TS_TMP/qemu-check.out" | tr '\n' ' ')"
	   return 1 ;;
	esac
}

# fixq_wait_servers IMG: no qemu-nbd serves IMG any more (the one of a
# SIGKILLed fix exits when its socket closes; it must be gone before
# another opens the image for writing, as qemu's lock says).
fixq_wait_servers() {
	local i
	for ((i = 0; i < 200; i++)); do
		pgrep -f "qemu-nbd.*$1" >/dev/null || return 0
		sleep 0.05
	done
	ts_fail "a qemu-nbd still serves $1 after 10 s"
	return 1
}

# fixq_is_new WHAT IMG: IMG holds the new layout with the data at 2048.
fixq_is_new() {
	local what=$1 got
	fixq_view "$2" || { ts_fail "$what: qemu-img convert"; return 1; }
	got=$(fix_mx_table "$TS_TMP/view.raw" | grep '^1 :')
	[ "$got" = "1 : start=        2048, size=    41926656, type=83" ] ||
		{ ts_fail "$what: not the new table: $got"; return 1; }
	[ "$(fix_data_sha ext4 "$TS_TMP/view.raw" $((2048 * 512)) "$FIXQ_USED")" = "$FIXQ_SHA" ] ||
		{ ts_fail "$what: the data at sector 2048 differ"; return 1; }
	fixq_fsck "$what" 2048
}

# fixq_is_old WHAT IMG: IMG holds the old layout and data again.
fixq_is_old() {
	local what=$1
	fixq_view "$2" || { ts_fail "$what: qemu-img convert"; return 1; }
	[ "$(fix_mx_table "$TS_TMP/view.raw")" = "$FIXQ_OLD_TABLE" ] ||
		{ ts_fail "$what: not the old table"; return 1; }
	[ "$(fix_data_sha ext4 "$TS_TMP/view.raw" $((63 * 512)) "$FIXQ_USED")" = "$FIXQ_SHA" ] ||
		{ ts_fail "$what: the data at sector 63 differ"; return 1; }
	fixq_fsck "$what" 63
}

fixq_fsck() {
	fix_cut "$TS_TMP/view.raw" $(($2 * 512)) "$FIXQ_USED" "$TS_TMP/fsck.img"
	e2fsck -fn "$TS_TMP/fsck.img" >"$TS_TMP/fsck.out" 2>&1 ||
		{ ts_fail "$1: e2fsck -fn: $(tail -3 "$TS_TMP/fsck.out" | tr '\n' ' ')"; return 1; }
	rm -f "$TS_TMP/fsck.img"
}
