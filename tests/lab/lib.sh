# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - for the host-side lab checks (tests/ts/lab/*, sourced after
# tests/functions.sh): the results of one lab boot (tests/lab/run) for
# this build, and readers of the ground truth the guest saved.

LAB_DIR=$TS_TOP/tests/lab
: "${BLKALIGN_BUILD:=$TS_TOP/build}"

# The inputs a lab result depends on: the binary, its library, the lab.
lab_stamp() {
	cat "$BLKALIGN" "$BLKALIGN_BUILD/lib/libblkalign.so.0" \
		"$LAB_DIR"/run "$LAB_DIR"/initramfs.sh "$LAB_DIR"/disks \
		"$LAB_DIR"/guest/* 2>/dev/null | sha256sum | cut -d' ' -f1
}

# lab_results SCENARIO: set LAB_OUT to the scenario's result directory,
# booting the lab first when there is no result for this build yet (one
# boot for every scenario, under a lock, so the first check pays for it).
# Skips without qemu outside CI; in CI that is a failure.
lab_results() {
	local out=$BLKALIGN_BUILD/lab/out stamp rc=0
	mkdir -p "$BLKALIGN_BUILD/lab"
	stamp=$(lab_stamp)
	exec 9>"$BLKALIGN_BUILD/lab/lock"
	flock 9
	if [ "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ]; then
		"$LAB_DIR/run" --build "$BLKALIGN_BUILD" --out "$out" || rc=$?
		[ "$rc" = 0 ] && echo "$stamp" >"$out/stamp"
	fi
	flock -u 9
	exec 9>&-
	case $rc in
	0) ;;
	77) [ "${CI:-}" = true ] && { ts_log "FAIL: the lab cannot run in CI"; exit 1; }
	    ts_skip "the kernel lab cannot run here (tests/lab/run says why)" ;;
	*) ts_log "FAIL: the lab's boot failed (exit $rc)"; exit 1 ;;
	esac
	LAB_OUT=$out/$1
	[ -d "$LAB_OUT" ] || { ts_log "FAIL: the lab ran no scenario '$1'"; exit 1; }
	[ "$(cat "$LAB_OUT/rc")" = 0 ] ||
		ts_fail "scenario '$1' exited $(cat "$LAB_OUT/rc") in the guest (see $LAB_OUT/log.txt)"
}

# lab_topo DEV KEY: a value of the kernel's topology line for DEV
# (topology.txt: alignoff ss pbsz iomin ioopt bsz size).
lab_topo() {
	awk -v d="$1" -v k="$2" '$1 == d {
		for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) print kv[2] }
	}' "$LAB_OUT/topology.txt"
}

# lab_has_finding FILE CODE LAYER: "yes" when blkalign's JSON in FILE has a
# finding CODE on LAYER, else "no".
lab_has_finding() {
	jq -r --arg c "$2" --arg l "$3" \
		'[.devices[].findings[] | select(.code == $c and .layer == $l)] |
		 if length > 0 then "yes" else "no" end' "$1"
}

# lab_dm_place NAME: "DISK BYTES", where dm device NAME starts on the disk
# (or md array) at the bottom of its tables, worked out from the guest's
# `dmsetup table` and sysfs (blockdevs.txt), never from blkalign.
lab_dm_place() {
	local line dev off b_name b_disk b_start b_dm rest
	line=$(grep "^$1: " "$LAB_OUT/dmsetup-table.txt" | head -n 1)
	set -- $line
	case $4 in
	linear) dev=$5 off=$6 ;;
	striped) dev=$7 off=$8 ;;
	crypt) dev=$8 off=$9 ;;
	*) echo "- -"; return ;;
	esac
	read -r b_name b_disk b_start b_dm < <(awk -v d="$dev" \
		'$2 == d {print $1, $3, $4, $6}' "$LAB_OUT/blockdevs.txt")
	if [ "$b_dm" != - ]; then
		read -r b_disk rest < <(lab_dm_place "$b_dm")
		echo "$b_disk $((rest + off * 512))"
	else
		echo "$b_disk $(((b_start + off) * 512))"
	fi
}

# lab_dm_kname NAME: the kernel name (dm-N) of dm device NAME.
lab_dm_kname() {
	awk -v n="$1" '$6 == n {print $1}' "$LAB_OUT/blockdevs.txt"
}

# lab_expect_dm NAME FILE: blkalign check's JSON in FILE places dm device
# NAME where its tables say, flags start-physical exactly when that start
# is off the physical sector grid of the disk below, and soft-block-size
# exactly when the kernel gave the device a soft block size under 4 KiB.
lab_expect_dm() {
	local disk abs pbs ao kn bsz bad
	read -r disk abs < <(lab_dm_place "$1")
	kn=$(lab_dm_kname "$1")
	pbs=$(lab_topo "$disk" pbsz) ao=$(lab_topo "$disk" alignoff)
	bsz=$(lab_topo "$kn" bsz)
	ts_expect_eq "$1: the disk below" "$disk" "$(jq -r '.devices[0].scan.dm.disk' "$2")"
	ts_expect_eq "$1: start on $disk" "$abs" "$(jq '.devices[0].scan.dm.start' "$2")"
	bad=no
	[ $(((abs - ao) % pbs)) != 0 ] && bad=yes
	ts_expect_eq "$1: start-physical ($abs on $pbs, kernel alignment_offset $(lab_topo "$kn" alignoff))" \
		"$bad" "$(lab_has_finding "$2" start-physical "$1")"
	bad=no
	[ "$bsz" -lt 4096 ] && bad=yes
	ts_expect_eq "$1: soft-block-size (kernel: $bsz)" "$bad" "$(lab_has_finding "$2" soft-block-size "$1")"
}
