# SPDX-License-Identifier: GPL-2.0-or-later
# peers.sh - run the peer tools' alignment checks on a target and check
# that blkalign flags every partition they flag.  Source after
# tests/functions.sh and tests/lib/mkimg.sh.
#
# What each peer flags (../shared/research/peer-tools.md):
#   parted -s T align-check opt N   exit 1: start off the optimal grain
#                                   (1 MiB on images and small-io disks)
#   parted -s T align-check min N   exit 1: start off the minimum grain
#   fdisk -l T    "Partition N does not start on physical sector boundary."
#   sgdisk -v T   "Partition N doesn't begin on a K-sector boundary"
#                 "Partition N doesn't end on a K-sector boundary"
# What blkalign must then have on partition N:
#   start flags (parted opt, sgdisk begin): any start-* finding
#   parted min, fdisk:      start-physical or start-io-min
#   sgdisk end:             a start-* finding (the end moves with the
#                           start), size-physical or soft-block-size
# Except a dos extended container: the rules give it no start or size
# finding (it holds only EBRs); a peer flag there is logged, not failed.
#
# PEER_PARTED_ENV (e.g. "PARTED_SECTOR_SIZE=4096"), PEER_FDISK_ARGS (e.g.
# "-b 4096") and PEER_NO_SGDISK=1 adapt the peers to 4Kn images.

PEER_START_CODES="start-physical start-io-min start-io-opt start-mib"
PEER_PHYS_CODES="start-physical start-io-min"
PEER_END_CODES="$PEER_START_CODES size-physical soft-block-size"

# peers_flags TARGET: "peer N kind" lines, one per flag a peer raises.
peers_flags() {
	local t=$1 n
	local penv=(${PEER_PARTED_ENV:-})
	for n in $(env "${penv[@]}" parted -m -s "$t" unit s print 2>/dev/null |
		sed -n 's/^\([0-9]\+\):.*/\1/p'); do
		env "${penv[@]}" parted -s "$t" align-check opt "$n" >/dev/null 2>&1
		[ $? -eq 1 ] && echo "parted-opt $n start"
		env "${penv[@]}" parted -s "$t" align-check min "$n" >/dev/null 2>&1
		[ $? -eq 1 ] && echo "parted-min $n start"
	done
	# shellcheck disable=SC2086
	fdisk ${PEER_FDISK_ARGS:-} -l "$t" 2>/dev/null |
		sed -n 's/^Partition \([0-9]\+\) does not start on physical sector boundary.*/fdisk \1 start/p'
	if [ -z "${PEER_NO_SGDISK:-}" ]; then
		sgdisk -v "$t" 2>/dev/null |
			sed -n -e "s/.*Partition \([0-9]\+\) doesn't begin on a .*/sgdisk \1 start/p" \
				-e "s/.*Partition \([0-9]\+\) doesn't end on a .*/sgdisk \1 end/p"
	fi
}

# peers_compare WHAT NAME TARGET: NAME.json is blkalign's report on TARGET
# (ba_check); every peer flag must be matched.  Prints a matrix line per
# partition: which peers flag it, which codes blkalign gives.
peers_compare() {
	local what=$1 name=$2 t=$3 flags peer n kind layer codes want c ok ext
	flags=$(peers_flags "$t")
	PEER_FLAGS_SEEN=$((${PEER_FLAGS_SEEN:-0} + $(printf '%s' "$flags" | grep -c .)))
	while read -r peer n kind; do
		[ -n "$peer" ] || continue
		# one jq: the partition's layer, whether it is extended, its codes
		# shellcheck disable=SC2016 # jq's variables
		ts_json --argjson n "$n" "$TS_TMP/$name.json" \
			'[.devices[0].layers[] | select(.number == $n)][0].name' \
			'[.devices[0].layers[] | select(.number == $n)][0].extended' \
			'[.devices[0].layers[] | select(.number == $n)][0].name as $l |
			[.devices[0].findings[] | select(.layer == $l) | .code] | join(" ")'
		layer=${TS_JSON[0]} ext=${TS_JSON[1]}
		if [ "$layer" = null ] || [ -z "$layer" ]; then
			ts_fail "$what: $peer flags partition $n, blkalign has no such partition"
			continue
		fi
		codes=" ${TS_JSON[2]} "
		case $peer:$kind in
		parted-min:* | fdisk:*) want=$PEER_PHYS_CODES ;;
		*:end) want=$PEER_END_CODES ;;
		*) want=$PEER_START_CODES ;;
		esac
		ok=
		for c in $want; do
			case $codes in *" $c "*) ok=$c ;; esac
		done
		if [ -n "$ok" ]; then
			ts_ok "$what: $peer flags $n ($kind); blkalign:$codes"
		elif [ "$ext" = true ]; then
			ts_log "note: $what: $peer flags extended container $n ($kind); blkalign audits only the partitions inside it"
		else
			ts_fail "$what: $peer flags partition $n ($kind), blkalign does not (has:$codes; wants one of: $want)"
		fi
	done <<<"$flags"
	# the matrix, for docs/peers.md
	# (the codes of each partition in the same jq, comma-joined, last)
	ba_jq "$name" '.devices[0] as $d | $d.layers[] | select(.kind == "partition") |
		.name as $l |
		"\(.number) \(.start / (($d.topology.logical_sector_size) // 512)) \(.name) \(.extended) \([$d.findings[] | select(.layer == $l) | .code] | join(","))"' |
		while read -r n start layer ext codes; do
			local p
			p=$(printf '%s\n' "$flags" | awk -v n="$n" '$2 == n { printf "%s%s:%s", sep, $1, $3; sep = "," }')
			printf 'matrix: %-14s p%-2s start %-9s peers: %-40s blkalign: %s%s\n' \
				"$what" "$n" "$start" "${p:--}" "${codes:--}" \
				"$([ "$ext" = true ] && echo ' (extended)')"
		done
}
