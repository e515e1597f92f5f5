# SPDX-License-Identifier: GPL-2.0-or-later
# md-trace: blkalign trace on md arrays, whose requests reach only the
# members' disks.  RAID-5 (1.2 superblock, 64 KiB chunk) over partitions
# at sector 63 (md20) and at 67584, a multiple of 2048 (md21), on the
# 512e disks e1..e3, and a RAID-1 over the p3 partitions of e1 and e2
# with a partition of its own at 63 (md22p1: a part of an array); a
# partition of a RAID-0 (md23p1) is refused (exit 4).
# 256 direct 4 KiB writes each (coreutils dd oflag=direct), and for seed
# 001 64 direct 128 KiB (full-stripe) writes on both RAID-5 with
# blkalign model's prediction of both; the ground
# truth is the kernel's count of the writes (and reads) reaching each disk, from the
# top-level tracefs instance, on before blkalign trace starts and off
# after it exits (trace-writes.txt, trace-reads.txt: "<device> <disk>
# <maj:min> requests= bytes=").
# safe_mode_delay is raised so that no "clean" superblock write falls
# between blkalign's stop and the kernel count's.
# The tables of 20-md.sh go back at the end: 40-lvm.sh and 50-crypt.sh
# use them.
for s in e1 e2 e3; do
	d=$(lab_disk $s)
	eval "$s=$d"
	sfdisk -q -d /dev/$d >/tmp/md-trace-$d.sfdisk
	wipefs -q -a /dev/$d
	lab_partition $d 63 65473 fd 67584 65536 fd 133120 65536 fd 198656 63000 fd
done
sleep 1
mdc() { mdadm --create "$@" --run --assume-clean --quiet; }
trace_md() { # NAME DEVICE BS COUNT DISK...
	local n=$1 dev=$2 bs=$3 count=$4 d
	shift 4
	lab_trace_on
	lab_run trace/$n blkalign trace --json --save trace/$n.raw /dev/$dev -- \
		dd if=/dev/zero of=/dev/$dev bs=$bs count=$count oflag=direct
	lab_trace_off
	for d in "$@"; do
		echo "$n $d $(cat /sys/block/$d/dev) $(lab_trace_writes $d)" >>trace-writes.txt
		echo "$n $d $(cat /sys/block/$d/dev) $(lab_trace_reads $d)" >>trace-reads.txt
	done
}
mkdir -p trace model
: >trace-writes.txt
: >trace-reads.txt
mdc /dev/md20 --metadata=1.2 --level=5 --chunk=64 --raid-devices=3 /dev/${e1}1 /dev/${e2}1 /dev/${e3}1
mdc /dev/md21 --metadata=1.2 --level=5 --chunk=64 --raid-devices=3 /dev/${e1}2 /dev/${e2}2 /dev/${e3}2
mdc /dev/md22 --metadata=1.2 --level=1 --raid-devices=2 /dev/${e1}3 /dev/${e2}3
lab_partition md22 63 20000 83
sleep 1
for m in md20 md21 md22; do
	echo 3600 >/sys/block/$m/md/safe_mode_delay
	echo "$m level=$(cat /sys/block/$m/md/level) chunk=$(cat /sys/block/$m/md/chunk_size) members=$(ls /sys/block/$m/slaves | tr '\n' ' ')"
	for r in /sys/block/$m/md/dev-*; do
		echo "$m $(basename $r) offset=$(cat $r/offset) size_kib=$(cat $r/size)"
	done
done >md-sysfs.txt
cat /proc/mdstat >mdstat.txt
for d in $e1 $e2 $e3; do
	for p in /sys/block/$d/${d}[0-9]*; do echo "$(basename $p) start=$(cat $p/start)"; done
done >starts.txt
lab_topology $e1 $e2 $e3 md20 md21 md22 md22p1 >topology.txt
# a first write makes each array "active" (a superblock write) before
# the traces, which then count data and parity alone; it goes to the
# array's last 4 KiB, so that md's stripe cache holds none of the
# stripes the traces write
for m in md20 md21 md22; do
	dd if=/dev/zero of=/dev/$m bs=4k count=1 seek=$(($(blockdev --getsz /dev/$m) / 8 - 1)) oflag=direct 2>/dev/null
done
sleep 1
trace_md md20 md20 4k 256 $e1 $e2 $e3
trace_md md21 md21 4k 256 $e1 $e2 $e3
trace_md md22 md22 4k 256 $e1 $e2
trace_md md22p1 md22p1 4k 256 $e1 $e2
# seed 001: the same RAID-5 at 63 and at a MiB multiple, direct writes of
# 4 KiB (read-modify-write of the stripe) and of whole stripes (2 data
# chunks, 128 KiB), predicted by blkalign model and measured by trace
for m in md20 md21; do
	lab_run model/$m-4k blkalign model --json /dev/$m --rw write --bs 4k --pattern seq --path direct --total 1m
	lab_run model/$m-stripe blkalign model --json /dev/$m --rw write --bs 128k --pattern seq --path direct --total 8m
	trace_md $m-stripe $m 128k 64 $e1 $e2 $e3
	mkdir -p check
	lab_run check/$m blkalign check --json /dev/$m
	lab_run check/$m-text blkalign check /dev/$m
	lab_run model/$m-4k-text blkalign model /dev/$m --rw write --bs 4k --pattern seq --path direct --total 1m
done
# a part of a RAID-0 array cannot be mapped: refused, not an empty success
mdc /dev/md23 --metadata=1.2 --level=0 --chunk=64 --raid-devices=2 /dev/${e3}3 /dev/${e3}4
lab_partition md23 2048 8192 83
sleep 1
lab_run trace/md23p1 blkalign trace --json /dev/md23p1 -- true
for m in md23 md22 md21 md20; do mdadm --stop /dev/$m; done
for p in ${e1}1 ${e2}1 ${e3}1 ${e1}2 ${e2}2 ${e3}2 ${e1}3 ${e2}3 ${e3}3 ${e3}4; do
	mdadm --zero-superblock /dev/$p 2>/dev/null
done
for d in $e1 $e2 $e3; do
	wipefs -q -a /dev/$d
	sfdisk -q /dev/$d </tmp/md-trace-$d.sfdisk
done
sleep 1
