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
