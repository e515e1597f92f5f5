#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mkimages.sh - generate N sparse disk images with random partition layouts
# for bench/check-vs-peers.sh.
#
# Usage: bench/mkimages.sh N SEED DIR
#
# Deterministic: the same N and SEED give the same layouts (a 64-bit LCG in
# bash arithmetic, no $RANDOM), so a cache keyed by N, SEED and this file's
# hash is valid.  Each image is a sparse file of 1 GiB .. 2 TiB holding only
# a partition table written by sfdisk from a script (no data):
#   - scheme: dos or gpt, half each;
#   - gpt: 1..128 table entries, uniformly; dos: 1..60 (libfdisk's maximum,
#     so sfdisk can neither write nor read more); dos with more than 4 (and
#     some with fewer) uses an extended partition holding logical ones;
#   - starts: 60% on 1 MiB, 20% on 4 KiB but not 1 MiB, 20% anywhere
#     (odd sectors); sizes: 60% whole MiB, 20% whole 4 KiB, 20% any sector
#     count; a few disks start at sector 34 or 63, a few disk sizes are not
#     a multiple of 1 MiB.
# DIR gets dNNNN.img, their sfdisk scripts (dNNNN.sfdisk) and manifest.tsv:
#   name  scheme  entries  disk_bytes   (entries counts the extended one)
# manifest.tsv is written last: its presence marks a complete set.  A
# layout sfdisk refuses (a logical partition too close to the EBR libfdisk
# places before it: image 2547 of 10,000 at SEED 1) is drawn again, at most 5
# times, from the same generator, so the sets stay deterministic.
set -eu

if [ $# -ne 3 ]; then
	echo "usage: $0 N SEED DIR" >&2
	exit 16
fi
N=$1
SEED=$2
DIR=$3
case $N$SEED in *[!0-9]*|'') echo "$0: N and SEED must be integers" >&2; exit 16;; esac
command -v sfdisk >/dev/null || { echo "$0: sfdisk is not installed" >&2; exit 4; }
mkdir -p "$DIR"

# --- PRNG: 64-bit LCG (Knuth MMIX constants), 31 output bits per step ---
RNG=$(( SEED * 2654435761 + 1 ))
R=0
rnd31() {	# R = 31 random bits
	RNG=$(( RNG * 6364136223846793005 + 1442695040888963407 ))
	R=$(( (RNG >> 33) & 0x7fffffff ))
}
below() {	# R = uniform-ish in [0, $1), $1 up to 2^62
	local a
	rnd31; a=$R
	rnd31
	R=$(( ((a << 31) | R) % $1 ))
}

MIB=2048	# sectors
K4=8		# sectors

# Round $1 up to the start mode's grain: 0 = 1 MiB, 1 = 4 KiB not 1 MiB,
# 2 = an odd sector.  Result in R.
place_start() {
	local s=$1 mode
	below 10; mode=$R
	if [ "$mode" -lt 6 ]; then
		R=$(( (s + MIB - 1) / MIB * MIB ))
	elif [ "$mode" -lt 8 ]; then
		R=$(( (s + K4 - 1) / K4 * K4 ))
		[ $(( R % MIB )) -ne 0 ] || R=$(( R + K4 ))
	else
		R=$(( s | 1 ))
	fi
}

# Size for a partition that may use at most $1 sectors (>= 1).  Result in R.
pick_size() {
	local room=$1 size mode
	below $(( room - room / 4 + 1 )); size=$(( room / 4 + R ))
	[ "$size" -le "$room" ] || size=$room
	below 10; mode=$R
	if [ "$mode" -lt 6 ] && [ "$size" -ge "$MIB" ]; then
		size=$(( size / MIB * MIB ))
	elif [ "$mode" -lt 8 ] && [ "$size" -ge "$K4" ]; then
		size=$(( size / K4 * K4 ))
	fi
	[ "$size" -ge 1 ] || size=1
	R=$size
}

manifest=$DIR/manifest.tsv.tmp
: >"$manifest"
for (( i = 1; i <= N; i++ )); do
	name=$(printf 'd%04d.img' "$i")
	img=$DIR/$name
	script=$DIR/${name%.img}.sfdisk

	below 2; scheme=$([ "$R" -eq 0 ] && echo dos || echo gpt)
	below 12; gib=$(( 1 << R ))			# 1 .. 2048 GiB
	sectors=$(( gib * 2097152 ))
	if [ "$gib" -lt 2048 ]; then
		below 1024; sectors=$(( sectors + R * MIB ))	# + 0..1023 MiB
		below 5
		if [ "$R" -eq 0 ]; then			# odd disk size
			below 2047; sectors=$(( sectors + 1 + R ))
		fi
	fi
	# libfdisk (sfdisk) creates at most 60 dos partitions: dos 1..60
	below $([ "$scheme" = gpt ] && echo 128 || echo 60); entries=$(( R + 1 ))

	for try in 1 2 3 4 5; do
		# Usable sectors [first, last].
		below 10
		case $R in
		0) first=$([ "$scheme" = gpt ] && echo 34 || echo 63) ;;
		*) first=$MIB ;;
		esac
		if [ "$scheme" = gpt ]; then
			last=$(( sectors - 34 ))
		else
			last=$(( sectors - 1 ))
			# dos: 32-bit start and size
			[ "$last" -lt 4294967295 ] || last=4294967294
		fi

		# dos layout: primaries, then (maybe) the extended one with logicals.
		nprim=$entries ext=0
		if [ "$scheme" = dos ]; then
			below 4
			if [ "$entries" -gt 4 ] || { [ "$entries" -ge 2 ] && [ "$R" -eq 0 ]; }; then
				below 4; nprim=$R
				[ "$nprim" -le $(( entries - 2 )) ] || nprim=$(( entries - 2 ))
				# logicals are numbered from 5: keep the last one <= 60
				[ "$nprim" -ge $(( entries - 57 )) ] || nprim=$(( entries - 57 ))
				ext=1
			fi
		fi
		ndata=$(( entries - ext ))
		slot=$(( (last - first + 1) / ndata ))

		{
			echo "label: $scheme"
			if [ "$scheme" = gpt ]; then
				echo "first-lba: 34"
			fi
			echo
			for (( k = 0; k < ndata; k++ )); do
				lo=$(( first + k * slot ))
				hi=$(( lo + slot - 1 ))		# last sector of the slot
				if [ "$ext" -eq 1 ] && [ "$k" -eq "$nprim" ]; then
					# extended: from this slot to the end of the usable area
					# (its start is always on a 1 MiB boundary, as sfdisk would
					# put it, so the logicals get the same start variety)
					estart=$(( (lo + MIB - 1) / MIB * MIB ))
					echo "start=$estart, size=$(( last - estart + 1 )), type=5"
					lo=$(( estart + 2 ))		# room for the first EBR
				elif [ "$ext" -eq 1 ] && [ "$k" -gt "$nprim" ]; then
					lo=$(( lo + 2 ))		# room for this one's EBR
				fi
				below $(( slot / 8 + 1 ))
				place_start $(( lo + R ))
				start=$R
				if [ "$start" -gt $(( hi - 1 )) ]; then
					start=$lo
				fi
				pick_size $(( hi - start ))
				echo "start=$start, size=$R"
			done
		} >"$script"
		rm -f "$img"
		truncate -s $(( sectors * 512 )) "$img"
		sfdisk -q --no-reread --no-tell-kernel "$img" <"$script" \
			>/dev/null 2>"$DIR/sfdisk.err" && break
		# a layout libfdisk refuses (a logical start too close to
		# the EBR it places): draw another, at most 5 times
		if [ "$try" -eq 5 ]; then
			echo "$0: sfdisk failed on $img:" >&2
			cat "$DIR/sfdisk.err" >&2
			exit 1
		fi
	done
	printf '%s\t%s\t%d\t%d\n' "$name" "$scheme" "$entries" $(( sectors * 512 )) >>"$manifest"
done
rm -f "$DIR/sfdisk.err"
mv "$manifest" "$DIR/manifest.tsv"
