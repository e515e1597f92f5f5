# SPDX-License-Identifier: GPL-2.0-or-later
# layouts.sh - helpers for tests/ts/layouts/*: disks as installers and the
# partitioning tools make them (sgdisk's and parted's defaults, old fdisk
# at 63, FreeBSD's gpart -b 34 and 40, md and ZFS members, 4Kn), each with
# what `check` must find, what `plan` must do (actions and sizes written
# by hand from docs/plan.md), and, where the plan moves or resizes, a real
# `fix --yes` checked with sha256 of the used bytes, each format's own
# checker and sfdisk --verify / sgdisk -v.  Source after tests/lib/fix.sh.

# ly_expect_plan WHAT NAME RC [plan options...] <<EOF: plan --json of the
# image (the options before it) exits RC and has exactly these rows,
# "N action new_start new_size" in the disk's logical sectors, one per
# partition.
ly_expect_plan() {
	local what=$1 name=$2 rc=$3 want got
	shift 3
	want=$(grep -v '^[[:space:]]*$' | sed 's/^[[:space:]]*//' | sort)
	fix_plan "$name" "$@"
	ts_expect_eq "$what: plan exit status" "$rc" "$FIX_PLAN_RC"
	got=$(fix_jq "$name" '.devices[0].logical_sector_size as $s |
		.devices[0].partitions[] |
		"\(.number) \(.action) \(.new_start / $s) \(.new_size / $s)"' | sort)
	if [ "$want" = "$got" ]; then
		ts_ok "$what: plan = {$(printf '%s' "$want" | tr '\n' ';')}"
	else
		ts_fail "$what: plan differs (- expected, + blkalign)"
		ts_diff_lines "$want" "$got"
		fix_jq "$name" '.devices[0].partitions[] | "    \(.number): \(.reason)"'
	fi
}

# ly_fix_check WHAT IMG N TYPE START USED SHA [check options]: after fix,
# partition N's used bytes at START are SHA, its checker passes, and the
# table is valid (fix_expect_table is the caller's).
ly_fix_check() {
	local what=$1 img=$2 n=$3 type=$4 start=$5 used=$6 sha=$7
	ts_expect_eq "$what: sha256 of the $used used bytes at sector $start" \
		"$sha" "$(fix_sha "$img" $((start * 512)) "$used")"
	case $type in
	ext4 | fat16 | fat32 | esp | ntfs | xfs) fix_fsck "$what" "$type" "$img" $((start * 512)) "$used" ;;
	esac
}

