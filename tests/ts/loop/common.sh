# SPDX-License-Identifier: GPL-2.0-or-later
# common.sh - shared checks for the live loop device tests (sourced, not
# run: run.sh only runs executable files).
#
# The tests compare blkalign with what the kernel says about loop devices
# they attach themselves: sysfs (queue/, alignment_offset, start, size) and
# the soft block size read back with `blockdev --getbsz` on a fresh open.
# The findings each partition should get are written out by hand in each
# test as a table, one row per layer:
#
#   NUM START SIZE SBS FINDINGS
#
#   NUM       partition number, 0 for the whole disk
#   START     start in logical sectors (the loop's sector size)
#   SIZE      size in logical sectors (disk row: size in 512-byte sectors)
#   SBS       the soft block size the kernel gives it (hand-derived:
#             start at the logical block size, double while it divides the
#             size in bytes, stop at the 4 KiB page)
#   FINDINGS  "code:remainder,..." sorted by code, or "-" for none
#
# Loops always have physical = logical sector size (losetup cannot set
# them apart) and alignment offset 0, so start-physical, start-io-*,
# size-physical cannot fire here; start-mib and soft-block-size can.

LOOP_QUEUE_ATTRS="logical_block_size:logical_sector_size
physical_block_size:physical_sector_size
minimum_io_size:minimum_io_size
optimal_io_size:optimal_io_size
max_segments:max_segments
max_sectors_kb:max_sectors_kb
max_segment_size:max_segment_size
virt_boundary_mask:virt_boundary_mask
rotational:rotational"

loop_setup() {
	ts_require_root
	ts_require_prog losetup sfdisk blockdev partx jq
	[ -x "$BLKALIGN" ] || ts_skip "no blkalign binary at $BLKALIGN"
	[ -e /dev/loop-control ] || {
		[ "${CI:-}" = "true" ] && { ts_log "FAIL: no loop driver"; exit 1; }
		ts_skip "no loop driver (/dev/loop-control)"
	}
	# The hand-written tables assume 4 KiB pages (x86-64, most arm64).
	[ "$(getconf PAGESIZE)" = 4096 ] || ts_skip "tables assume 4096-byte pages"
	ts_tmpdir
}

# loop_attach IMAGE [losetup options]: attach with -P and register it for
# detaching by name; sets LOOP_DEV (/dev/loopN) and LOOP_NAME (loopN).
# ts_loop_attach runs in the $(...) subshell, so its own registration is
# lost: register the detach here, as an exit command, so that what a test
# registers after it (restoring a queue limit) runs before the detach.
loop_attach() {
	LOOP_DEV=$(ts_loop_attach "$@") || {
		ts_log "FAIL: cannot attach '$1' to a loop device"
		exit 1
	}
	ts_on_exit "losetup -d '$LOOP_DEV' 2>/dev/null"
	LOOP_NAME=$(basename "$LOOP_DEV")
	ts_log "attached $LOOP_DEV ($*)"
}

# loop_part_nodes N...: make sure /dev/loopNpM exist for each M (no udev:
# the kernel adds the partitions, partx -a asks it to when it did not).
loop_part_nodes() {
	local m missing=0
	for m in "$@"; do
		[ -b "${LOOP_DEV}p$m" ] || missing=1
	done
	[ $missing = 0 ] && return 0
	partx -a "$LOOP_DEV" 2>/dev/null || partx -u "$LOOP_DEV" 2>/dev/null
	for m in "$@"; do
		if [ ! -b "${LOOP_DEV}p$m" ]; then
			ts_log "FAIL: no partition node ${LOOP_DEV}p$m"
			exit 1
		fi
	done
}

# loop_fresh_bsz NODE: the soft block size the kernel gives NODE at first
# open.  It is (re)computed only when nobody holds the device open, so
# check first that nothing does (no holder, not mounted, not swap).
loop_fresh_bsz() {
	local node=$1 name sys majmin
	name=$(basename "$node")
	sys=$(readlink -f "/sys/class/block/$name")
	if [ -n "$(ls -A "$sys/holders" 2>/dev/null)" ]; then
		ts_fail "$name is held by $(ls "$sys/holders"): getbsz would be stale"
		return 1
	fi
	majmin=$(cat "$sys/dev")
	if awk -v d="$majmin" '$3 == d { f = 1 } END { exit !f }' /proc/self/mountinfo ||
		grep -q "^$node " /proc/swaps; then
		ts_fail "$name is in use (mounted or swap): getbsz would be stale"
		return 1
	fi
	blockdev --getbsz "$node"
}

# loop_check_topology JSON DEVINDEX DISKNAME: topology of devices[DEVINDEX]
# equals the disk's sysfs queue limits and alignment_offset, from "sysfs".
loop_check_topology() {
	local json=$1 idx=$2 disk=$3 attr key want got what
	local -A val src
	while read -r key got what; do
		val[$key]=$got src[$key]=$what
	done < <(jq -r --argjson i "$idx" '.devices[$i].topology as $t
		| $t.sources | keys[] | "\(.) \($t[.]) \($t.sources[.])"' "$json")
	what="$(basename "$json" .json): topology"
	while IFS=: read -r attr key; do
		want=$(cat "/sys/block/$disk/queue/$attr")
		ts_expect_eq "$what.$key (sysfs queue/$attr), source" "$want sysfs" \
			"${val[$key]:-none} ${src[$key]:-none}"
	done <<<"$LOOP_QUEUE_ATTRS"
	ts_expect_eq "$what.alignment_offset (sysfs alignment_offset), source" \
		"$(cat "/sys/block/$disk/alignment_offset") sysfs" \
		"${val[alignment_offset]:-none} ${src[alignment_offset]:-none}"
}

# The findings of one layer as "code:remainder,..." sorted, or "-".
loop_findings_of() {
	jq -r --argjson i "$2" --arg l "$3" '
		[.devices[$i].findings[] | select(.layer == $l)
		 | "\(.code):\(.remainder)"] | sort
		| if length == 0 then "-" else join(",") end' "$1"
}

sort_list() {
	[ "$1" = "-" ] && { echo -; return; }
	tr , '\n' <<<"$1" | sort | paste -sd, -
}

# loop_check_soft_block JSON DEVINDEX LAYER SIZE_BYTES SBS: the numbers of
# a soft-block-size finding, from the rules:
#   request_cap = min(max_sectors_kb * 1024, max_segments * sbs)
#   request_cap_aligned = min(max_sectors_kb * 1024, max_segments * page)
#   suggested = size rounded down to a multiple of max(page, pss)
loop_check_soft_block() {
	local json=$1 idx=$2 layer=$3 size=$4 sbs=$5 disk=$6
	local kb segs pss page=4096 cap capa unit got
	kb=$(cat "/sys/block/$disk/queue/max_sectors_kb")
	segs=$(cat "/sys/block/$disk/queue/max_segments")
	pss=$(cat "/sys/block/$disk/queue/physical_block_size")
	cap=$((segs * sbs)); [ $cap -gt $((kb * 1024)) ] && cap=$((kb * 1024))
	capa=$((segs * page)); [ $capa -gt $((kb * 1024)) ] && capa=$((kb * 1024))
	unit=$page; [ "$pss" -gt $unit ] && unit=$pss
	got=$(jq -r --argjson i "$idx" --arg l "$layer" '
		.devices[$i].findings[] | select(.layer == $l and .code == "soft-block-size")
		| "\(.soft_block_size) \(.request_cap) \(.request_cap_aligned) \(.suggested) \(.value) \(.granularity) \(.severity)"' "$json")
	ts_expect_eq "$layer soft-block-size numbers (sbs cap cap_aligned suggested value granularity severity)" \
		"$sbs $cap $capa $((size / unit * unit)) $size $page warning" "$got"
}

# loop_check_layer JSON DEVINDEX LAYERNAME ROW...: one layer of a report
# against its table row and sysfs.  $LOOP_SECT is the logical sector size.
loop_check_layer() {
	local json=$1 idx=$2 lname=$3 num=$4 start=$5 size=$6 sbs=$7 want=$8
	local sys sb zb bsz kind
	local disk=$LOOP_NAME
	if [ "$num" = 0 ]; then
		sys=/sys/block/$disk
		sb=0
		zb=$((size * 512))
		kind=disk
	else
		sys=/sys/block/$disk/$lname
		sb=$((start * LOOP_SECT))
		zb=$((size * LOOP_SECT))
		kind=partition
	fi
	local lkind lstart lsize lnum lao lsbs lfind
	read -r lkind lstart lsize lnum lao lsbs lfind < <(jq -r --argjson i "$idx" --arg l "$lname" '
		.devices[$i] as $d | [$d.layers[] | select(.name == $l)] |
		if length == 1 then .[0] | "\(.kind) \(.start) \(.size) \(.number) \(.alignment_offset) \(.soft_block_size) \(
			[$d.findings[] | select(.layer == $l) | "\(.code):\(.remainder)"] | sort
			| if length == 0 then "-" else join(",") end)"
		else "missing(\(length))" end' "$json")
	ts_expect_eq "$lname kind start size" "$kind $sb $zb" "$lkind $lstart $lsize"
	if [ "$num" != 0 ]; then
		# sanity on the setup: the kernel sees what the table says
		ts_expect_eq "$lname sysfs start,size (512-byte sectors)" \
			"$((sb / 512)) $((zb / 512))" "$(cat "$sys/start") $(cat "$sys/size")"
		ts_expect_eq "$lname number" "$num" "$lnum"
	fi
	ts_expect_eq "$lname alignment_offset = sysfs $sys/alignment_offset" \
		"$(cat "$sys/alignment_offset")" "$lao"
	bsz=$(loop_fresh_bsz "/dev/$lname") || return
	ts_expect_eq "$lname kernel soft block size (getbsz) = hand-derived" "$sbs" "$bsz"
	ts_expect_eq "$lname soft_block_size = blockdev --getbsz" "$bsz" "$lsbs"
	ts_expect_eq "$lname findings" "$(sort_list "$want")" "$lfind"
	case $want in
	*soft-block-size*) loop_check_soft_block "$json" "$idx" "$lname" "$zb" "$sbs" "$disk" ;;
	esac
}

# loop_check_device TABLE [RC]: check the whole loop device and each
# partition node against TABLE (rows as described at the top).  Partition
# layers not in the table (dos extended containers, checked by the test
# itself) are listed in $LOOP_EXTRA_LAYERS.
loop_check_device() {
	local table=$1 want_rc=${2:-} json pjson rc num start size sbs want
	local disk_row pname got
	json=$TS_TMP/$LOOP_NAME.json
	"$BLKALIGN" check --json "$LOOP_DEV" >"$json"
	rc=$?
	[ -n "$want_rc" ] && ts_expect_eq "exit status of check $LOOP_DEV" "$want_rc" "$rc"
	got=$(jq -r '"\(.devices | length) \(.devices[0].name) \(.devices[0].type) \(.devices[0].size) \(.devices[0].problems | length)"' "$json")
	ts_expect_eq "$LOOP_DEV: devices name type size problems" \
		"1 $LOOP_NAME block $(blockdev --getsize64 "$LOOP_DEV") 0" "$got"
	loop_check_topology "$json" 0 "$LOOP_NAME"
	got=$(jq -r '[.devices[0].layers[] | select(.kind == "partition") | .name] | sort | join(" ")' "$json")
	ts_expect_eq "$LOOP_DEV partition layers" \
		"$({ awk -v d="$LOOP_NAME" 'NF && $1 != 0 { print d "p" $1 }' <<<"$table"
		    for pname in ${LOOP_EXTRA_LAYERS:-}; do echo "$pname"; done; } |
		   sort | paste -sd' ' -)" "$got"
	disk_row=$(awk 'NF && $1 == 0' <<<"$table")
	while read -r num start size sbs want; do
		[ -n "$num" ] || continue
		if [ "$num" = 0 ]; then
			loop_check_layer "$json" 0 "$LOOP_NAME" "$num" "$start" "$size" "$sbs" "$want"
			continue
		fi
		pname=${LOOP_NAME}p$num
		loop_check_layer "$json" 0 "$pname" "$num" "$start" "$size" "$sbs" "$want"

		# the partition node: layers = [disk, partition]
		pjson=$TS_TMP/$pname.json
		"$BLKALIGN" check --json "/dev/$pname" >"$pjson"
		rc=$?
		got=$(jq -r '"\(.devices | length) \(.devices[0].name) \([.devices[0].layers[] | "\(.name)/\(.kind)"] | join(" ")) \(.devices[0].problems | length)"' "$pjson")
		ts_expect_eq "/dev/$pname: devices name layers problems" \
			"1 $pname $LOOP_NAME/disk $pname/partition 0" "$got"
		loop_check_topology "$pjson" 0 "$LOOP_NAME"
		loop_check_layer "$pjson" 0 "$pname" "$num" "$start" "$size" "$sbs" "$want"
		# shellcheck disable=SC2086
		loop_check_layer "$pjson" 0 "$LOOP_NAME" $disk_row
	done <<<"$table"
}
