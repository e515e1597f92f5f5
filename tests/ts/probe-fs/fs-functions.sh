# SPDX-License-Identifier: GPL-2.0-or-later
# fs-functions.sh - shared by the tests/ts/probe-fs/* scripts (sourced,
# not a test: it is not executable, so tests/run.sh skips it).
#
# A case makes a real filesystem on an image file with the real mkfs,
# asks the real tool (dumpe2fs, xfs_db, ...) what it wrote, copies the
# filesystem into a partition of a dos-labelled disk image at an aligned
# or a misaligned start, and runs our parsers there through fs-dump
# (tests/fixtures/fs-dump.c).  No loop devices, no root needed.

. "$(dirname "$0")/../../functions.sh"

FS_DUMP=${FS_DUMP:-${BLKALIGN_BUILD:-$TS_TOP/build}/tests/fs-dump}
FS_OUT='' FS_RC=0 FS_DISK='' FS_PART_START=0 FS_PART_SIZE=0

# The fs-dump fixture is built with the tests; missing in CI is a failure.
fs_require_dump() {
	if [ ! -x "$FS_DUMP" ]; then
		if [ "${CI:-}" = "true" ]; then
			ts_log "FAIL: no fs-dump fixture at $FS_DUMP"
			exit 1
		fi
		ts_skip "no fs-dump fixture at $FS_DUMP (build the tests)"
	fi
}

# fs_dump IMAGE [OFFSET [SIZE]]: run fs-dump, output in FS_OUT, status in FS_RC.
fs_dump() {
	FS_RC=0
	FS_OUT=$("$FS_DUMP" "$@" 2>&1) || FS_RC=$?
}

# fs_field KEY: a value of the last fs_dump.
fs_field() {
	sed -n "s/^$1=//p" <<<"$FS_OUT"
}

# fs_in_partition NAME FSFILE START_SECTOR
# Puts FSFILE in partition 1 (type 83) of $TS_TMP/NAME.disk starting at
# START_SECTOR (512-byte sectors), then runs fs-dump on that partition.
# Sets FS_PART_START and FS_PART_SIZE (bytes, read back from the table).
fs_in_partition() {
	local name=$1 fsfile=$2 start=$3 disk=$TS_TMP/$1.disk size sectors json
	size=$(stat -c %s "$fsfile")
	sectors=$((size / 512))
	rm -f "$disk"
	truncate -s $(((start + sectors + 2048) * 512)) "$disk"
	echo "start=$start, size=$sectors, type=83" |
		sfdisk -q --label dos "$disk" >/dev/null 2>&1 ||
		{ ts_fail "$name: sfdisk could not make the partition"; return 1; }
	json=$(sfdisk -J "$disk") || { ts_fail "$name: sfdisk -J"; return 1; }
	FS_PART_START=$(($(jq -r '.partitiontable.partitions[0].start' <<<"$json") * 512))
	FS_PART_SIZE=$(($(jq -r '.partitiontable.partitions[0].size' <<<"$json") * 512))
	dd if="$fsfile" of="$disk" bs=1M conv=sparse,notrunc oflag=seek_bytes \
		seek="$FS_PART_START" status=none ||
		{ ts_fail "$name: dd into the partition"; return 1; }
	fs_dump "$disk" "$FS_PART_START" "$FS_PART_SIZE"
	FS_DISK=$disk
}

# fs_expect_found NAME TYPE: fs-dump found TYPE, and libblkid agrees on
# what sits at that offset of the disk image.
fs_expect_found() {
	local blkid_type
	ts_expect_eq "$1 fs-dump status" 0 "$FS_RC"
	ts_expect_eq "$1 type" "$2" "$(fs_field type)"
	blkid_type=$(blkid -p -O "$FS_PART_START" -S "$FS_PART_SIZE" \
		-s TYPE -o value "$FS_DISK" 2>/dev/null)
	ts_expect_eq "$1 type (blkid -p at the partition start)" "$2" "$blkid_type"
}

# fs_expect_absent_off_by_one NAME: one sector past the start there is no
# filesystem; the parser must say "absent", not find it anyway.
fs_expect_absent_off_by_one() {
	local out=$FS_OUT rc=$FS_RC
	fs_dump "$FS_DISK" $((FS_PART_START + 512)) $((FS_PART_SIZE - 512))
	ts_expect_eq "$1 one sector late: status (1 = absent)" 1 "$FS_RC"
	FS_OUT=$out FS_RC=$rc
}
