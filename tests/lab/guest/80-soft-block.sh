# SPDX-License-Identifier: GPL-2.0-or-later
# soft-block: the soft block size of an odd-sized partition under vfat
# and exFAT, which the host's kernel does not have (issue 25, item 4;
# tests/ts/loop/soft-block-contents measures the others there).  Disk f1
# (512-byte sectors): p1 at 2048, 102407 sectors (odd), p2 at 106496,
# 102400.  For ext4 (a control), vfat and exFAT, on p1 and p2: getbsz
# unmounted, mounted and after umount (softblock.txt: "KIND pN fresh=
# mounted= after= sector="; sector: the filesystem's own sector size,
# from its boot sector); on p1 the kernel's write requests of 16 MiB
# written to a file through the mount and synced (trace.txt: "KIND
# requests= bytes= max="), and of 16 MiB dd'd to p1 and p2 raw (KIND
# raw-p1, raw-p2); check --json on the disk after each mkfs
# (check-KIND.json), the queue limits (queue.txt).
f1=$(lab_disk f1)
wipefs -q -a /dev/$f1
{
	printf 'label: gpt\n'
	printf 'start=2048, size=102407\n'
	printf 'start=106496, size=102400\n'
} | sfdisk -q /dev/$f1
blockdev --rereadpt /dev/$f1 2>/dev/null || partx -u /dev/$f1
sleep 1
for p in 1 2; do
	[ -b /dev/${f1}$p ] || { echo "no /dev/${f1}$p"; exit 1; }
done
modprobe vfat
modprobe exfat
modprobe nls_cp437
modprobe nls_ascii
modprobe nls_utf8
echo "max_segments=$(cat /sys/block/$f1/queue/max_segments) max_sectors_kb=$(cat /sys/block/$f1/queue/max_sectors_kb) p1=$(cat /sys/block/$f1/${f1}1/size) p2=$(cat /sys/block/$f1/${f1}2/size)" >queue.txt
mkdir -p /tmp/sb
: >softblock.txt
: >trace.txt

# writes DISK NAME START SIZE: "requests= bytes= max=" of the buffer's
# block_rq_issue writes to DISK within [START, START + SIZE) sectors
writes() {
	local dev
	dev=$(tr : , <"/sys/block/$1/dev")
	awk -v dev="$dev" -v lo="$2" -v hi="$(($2 + $3))" '{
		for (i = 1; i < NF; i++) if ($i == "block_rq_issue:") break
		if (i >= NF || $(i + 1) != dev || $(i + 2) !~ /^F?W/) next
		if ($(i + 5) < lo || $(i + 5) >= hi || $(i + 7) == 0) next
		b = $(i + 7) * 512; n++; s += b; if (b > m) m = b
	} END { printf "requests=%d bytes=%d max=%d\n", n, s, m }' $TR/trace
}

# sector KIND NODE: the filesystem's sector size, from its boot sector
sector() {
	case $1 in
	vfat) od -An -tu2 -j11 -N2 "$2" | tr -d ' ' ;;
	exfat) echo $((1 << $(od -An -tu1 -j108 -N1 "$2" | tr -d ' '))) ;;
	ext4) dumpe2fs -h "$2" 2>/dev/null | sed -n 's/^Block size: *//p' ;;
	esac
}

for p in 1 2; do
	s=$(cat /sys/block/$f1/${f1}$p/start) z=$(cat /sys/block/$f1/${f1}$p/size)
	lab_trace_on
	dd if=/dev/zero of=/dev/${f1}$p bs=1M count=16 conv=fsync 2>/dev/null
	lab_trace_off
	echo "raw-p$p $(writes $f1 "$s" "$z")" >>trace.txt
done

for kind in ext4 vfat exfat; do
	for p in 1 2; do
		node=/dev/${f1}$p
		wipefs -q -a $node
		case $kind in
		ext4) mkfs.ext4 -q -F -b 4096 $node ;;
		vfat) mkfs.vfat $node >/dev/null ;;
		exfat) mkfs.exfat $node >/dev/null ;;
		esac
		[ $p = 1 ] && lab_run check-$kind blkalign check --json /dev/$f1
		fresh=$(blockdev --getbsz $node)
		mount -t $kind $node /tmp/sb || { echo "$kind p$p mount-failed" >>softblock.txt; continue; }
		mounted=$(blockdev --getbsz $node)
		if [ $p = 1 ]; then
			s=$(cat /sys/block/$f1/${f1}1/start) z=$(cat /sys/block/$f1/${f1}1/size)
			lab_trace_on
			dd if=/dev/zero of=/tmp/sb/f bs=1M count=16 2>/dev/null
			sync
			lab_trace_off
			echo "$kind $(writes $f1 "$s" "$z")" >>trace.txt
		fi
		umount /tmp/sb
		after=$(blockdev --getbsz $node)
		echo "$kind p$p fresh=$fresh mounted=$mounted after=$after sector=$(sector $kind $node)" >>softblock.txt
	done
done
cat queue.txt softblock.txt trace.txt
