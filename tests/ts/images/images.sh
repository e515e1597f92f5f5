# SPDX-License-Identifier: GPL-2.0-or-later
# images.sh - helpers of the images suite (sourced): qemu-img and
# qemu-nbd are required (skip with the reason, fail in CI), and a check
# of a converted image is compared with the check of its raw original.

images_setup() {
	ts_require_prog jq qemu-img qemu-nbd
	ts_tmpdir
}

# images_json OUT TARGET [check options...]: check --json, exit status
# in $IMAGES_RC.
images_json() {
	local out=$1
	shift
	timeout 120 "$BLKALIGN" check --json "$@" >"$out" 2>"$out.err"
	IMAGES_RC=$?
}

# The report without what may differ between an image and its raw
# original: where it was read, how much, and what format held it (and
# what the format says: the sector sizes' source, the findings on its
# cluster grid; tests/ts/images/vhdx-sectors and cluster-grid check
# those).
images_strip() {
	jq -S '.devices |= map(del(.path, .bytes_read, .image_format, .image_reader,
		.virtual_size, .cluster_size, .bytes_skipped,
		.topology.sources.logical_sector_size,
		.topology.sources.physical_sector_size) |
		.findings |= map(select(.code != "image-cluster-offset")))' "$1"
}

# images_compare WHAT RAW.json OTHER.json
images_compare() {
	local what=$1 a b
	a=$(images_strip "$2") || { ts_fail "$what: $2 is not JSON"; return; }
	b=$(images_strip "$3") || { ts_fail "$what: $3 is not JSON"; return; }
	if [ "$a" = "$b" ]; then
		ts_ok "$what: check --json equals the raw image's"
	else
		ts_fail "$what: check --json differs from the raw image's:"
		diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | head -20
	fi
}

# No qemu-nbd of ours is left (none names a file under $TS_TMP), nor a
# blkalign process, a reader's sandboxed child, holding one open.
images_no_leftover() {
	local p held=
	for p in $(pgrep '^blkalign'); do
		ls -l "/proc/$p/fd/" 2>/dev/null | grep -q -F -- "-> $TS_TMP/" &&
			held="$held $p"
	done
	if pgrep -f "qemu-nbd.*$TS_TMP" >/dev/null; then
		ts_fail "$1: a qemu-nbd is still running"
	elif [ -n "$held" ]; then
		ts_fail "$1: blkalign process(es)$held still hold a file of $TS_TMP"
	else
		ts_ok "$1: no qemu-nbd left"
	fi
}

# images_vhdx_sectors FILE LOGICAL PHYSICAL: rewrite the two sector size
# items of a VHDX (qemu-img 7.2 has no option for them), found by
# parsing the file as MS-VHDX v1.00 lays it out: the region table at
# 192 KiB lists the metadata region (GUID 8B7CA206-...), whose table
# lists each item by GUID with its offset in the region.  Prints the
# two file offsets written.  Metadata items carry no checksum; the
# region table's CRC-32C is left as it is (nothing in it changes).
images_vhdx_sectors() {
	python3 - "$@" <<'PY'
import struct, sys, uuid
path, lss, pss = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
g = lambda s: uuid.UUID(s).bytes_le
META = g('8B7CA206-4790-4B9A-B8FE-575F050F886E')
ITEMS = {g('8141BF1D-A96F-4709-BA47-F233A8FAAB5F'): lss,
         g('CDA348C7-445D-4471-9CC9-E9885251C556'): pss}
with open(path, 'r+b') as f:
    f.seek(192 * 1024)
    rt = f.read(65536)
    assert rt[:4] == b'regi', 'no region table'
    n, = struct.unpack_from('<I', rt, 8)
    regions = [struct.unpack_from('<Q', rt, 16 + 32 * i + 16)[0]
               for i in range(n) if rt[16 + 32 * i:32 + 32 * i] == META]
    assert len(regions) == 1, 'no metadata region'
    f.seek(regions[0])
    mt = f.read(65536)
    assert mt[:8] == b'metadata', 'no metadata table'
    m, = struct.unpack_from('<H', mt, 10)
    at = []
    for i in range(m):
        e = mt[32 + 32 * i:64 + 32 * i]
        if e[:16] in ITEMS:
            off = regions[0] + struct.unpack_from('<I', e, 16)[0]
            f.seek(off)
            f.write(struct.pack('<I', ITEMS[e[:16]]))
            at.append(off)
    assert len(at) == 2, 'sector size items not found'
    print(*at)
PY
}

# images_vdisk_src OUT SIZE: a raw disk of SIZE bytes to convert, written
# so that a reader's mistakes show: random bytes in the first MiB, runs
# at offsets that straddle every cluster and block size from 512 B to
# 256 MiB, zeros between (qemu-img convert leaves those unallocated), and
# the last 300 KiB (the last cluster or block is partial).  SIZE a
# multiple of 512.
images_vdisk_src() {
	local out=$1 size=$2 at
	rm -f "$out"
	truncate -s "$size" "$out"
	head -c $((1024 * 1024)) /dev/urandom | dd of="$out" conv=notrunc status=none
	for at in 1536000 5242368 16773120 33553920 67108352 134217216 268434944 536870400; do
		[ $((at + 131072)) -le "$size" ] || continue
		head -c 131072 /dev/urandom | dd of="$out" bs=512 seek=$((at / 512)) conv=notrunc status=none
	done
	head -c 307200 /dev/urandom | dd of="$out" bs=512 seek=$(((size - 307200) / 512)) conv=notrunc status=none
}

# images_vdisk WHAT IMG same|left: blkalign's own reader (vdisk-dump)
# reads IMG byte for byte as qemu-img convert -O raw does ('same'), or
# leaves it to qemu-nbd ('left': exit 3, with its reason).  qemu-img is
# told the format vdisk-dump found, as check tells qemu-nbd (its probe
# takes a fixed VHD, whose footer is at the end only, for raw).
images_vdisk() {
	local what=$1 img=$2 want=$3 dump=$BLKALIGN_BUILD/tests/vdisk-dump rc fmt
	rm -f "$TS_TMP/vd.raw" "$TS_TMP/ref.raw"
	"$dump" "$img" "$TS_TMP/vd.raw" >"$TS_TMP/vd.out" 2>"$TS_TMP/vd.err"
	rc=$?
	if [ "$want" = left ]; then
		if [ "$rc" = 3 ]; then
			ts_ok "$what: left to qemu-nbd ($(cat "$TS_TMP/vd.err"))"
		else
			ts_fail "$what: expected the reader to leave it to qemu (exit 3), got exit $rc: $(cat "$TS_TMP/vd.err")"
		fi
		return
	fi
	if [ "$rc" != 0 ]; then
		ts_fail "$what: vdisk-dump exit $rc: $(cat "$TS_TMP/vd.err")"
		return
	fi
	fmt=$(sed -n 's/^format=\([^ ]*\) .*/\1/p' "$TS_TMP/vd.out")
	if ! qemu-img convert -f "$fmt" -O raw "$img" "$TS_TMP/ref.raw"; then
		ts_fail "$what: qemu-img convert failed"
		return
	fi
	if cmp -s "$TS_TMP/vd.raw" "$TS_TMP/ref.raw"; then
		ts_ok "$what: every byte as qemu reads it ($(stat -c %s "$TS_TMP/ref.raw") bytes)"
	else
		ts_fail "$what: differs from qemu-img convert: $(cmp "$TS_TMP/vd.raw" "$TS_TMP/ref.raw" 2>&1 | head -1)"
	fi
	rm -f "$TS_TMP/vd.raw" "$TS_TMP/ref.raw"
}

# images_vdisk_hostile WHAT IMG: a damaged or hostile image; blkalign's
# own reader must refuse it with a message (vdisk-dump exit 2 damaged or
# 3 left to qemu, never a crash or a hang) within 20 s; then check (the
# reader in its sandbox, qemu-nbd after it) images_check_hostile.
images_vdisk_hostile() {
	local what=$1 img=$2 dump=$BLKALIGN_BUILD/tests/vdisk-dump rc
	timeout 20 "$dump" "$img" "$TS_TMP/vd.raw" >"$TS_TMP/vd.out" 2>"$TS_TMP/vd.err"
	rc=$?
	rm -f "$TS_TMP/vd.raw"
	if { [ "$rc" = 2 ] || [ "$rc" = 3 ]; } && [ -s "$TS_TMP/vd.err" ]; then
		ts_ok "$what: refused, exit $rc ($(head -1 "$TS_TMP/vd.err"))"
	else
		ts_fail "$what: expected exit 2 or 3 with a message, got exit $rc: $(head -1 "$TS_TMP/vd.err")"
	fi
	images_check_hostile "$what" "$img"
}

# images_check_hostile WHAT IMG [BIN]: check (BIN, default $BLKALIGN) on a
# damaged or hostile image either fails it, exit 4 with one line on
# stderr that names it, or reads it whole (exit 0 to 3, nothing it could
# not read: qemu read it as qemu reads it), never crashes or hangs, and
# leaves no process behind (qemu-nbd, the reader's child).  Which of the
# two is in IMAGES_HOSTILE ("failed" or the reader).
images_check_hostile() {
	local what=$1 img=$2 bin=${3:-$BLKALIGN} rc lines
	timeout 60 "$bin" check --json "$img" >"$TS_TMP/hc.json" 2>"$TS_TMP/hc.err"
	rc=$?
	lines=$(wc -l <"$TS_TMP/hc.err")
	IMAGES_HOSTILE=
	if [ "$rc" = 4 ] && [ "$lines" = 1 ] && grep -q -F "'$img'" "$TS_TMP/hc.err"; then
		IMAGES_HOSTILE=failed
		ts_ok "$what: check fails it in one line ($(cut -c1-160 "$TS_TMP/hc.err"))"
	elif [ "$rc" -lt 4 ] && ! grep -q "cannot read" "$TS_TMP/hc.err"; then
		IMAGES_HOSTILE=$(jq -r '.devices[0].image_reader' "$TS_TMP/hc.json")
		ts_ok "$what: check reads it through $IMAGES_HOSTILE (exit $rc)"
	else
		ts_fail "$what: check exit $rc, $lines line(s): $(head -3 "$TS_TMP/hc.err" | cut -c1-200)"
	fi
	images_no_leftover "$what"
}

# images_poke FILE OFFSET STRUCT VALUE: write VALUE packed as python's
# struct format STRUCT (little-endian: "<Q", "<I"...) at OFFSET of FILE.
images_poke() {
	python3 - "$@" <<'PY'
import struct, sys
path, off, fmt, val = sys.argv[1], int(sys.argv[2], 0), sys.argv[3], int(sys.argv[4], 0)
with open(path, "r+b") as f:
    f.seek(off)
    f.write(struct.pack(fmt, val))
PY
}
