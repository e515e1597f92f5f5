# SPDX-License-Identifier: GPL-2.0-or-later
# md: RAID-1, RAID-5, RAID-6 and RAID-10 with 0.90, 1.0 and 1.2
# superblocks over partitions at 63 and at MiB starts, on 512e (e*) and
# 512n (n*) disks, and a partitioned array.  Ground truth: mdadm --detail
# and --examine, blockdev, sysfs; then blkalign check on every disk,
# member, array and array partition.
for s in e1 e2 e3 e4 n1 n2 n3 n4; do
	d=$(lab_disk $s)
	eval "$s=$d"
	# p1 at 63 (off every grid), p2..p4 at MiB multiples
	lab_partition $d 63 61377 fd 61440 61440 fd 122880 61440 fd 184320 77824 fd
done
mdc() { mdadm --create "$@" --run --assume-clean --quiet; }
mdc /dev/md10 --metadata=1.2 --level=5 --chunk=64 --raid-devices=3 /dev/${e1}1 /dev/${e2}1 /dev/${e3}1
mdc /dev/md11 --metadata=1.2 --level=5 --chunk=64 --raid-devices=3 /dev/${e1}2 /dev/${e2}2 /dev/${e3}2
mdc /dev/md12 --metadata=1.2 --level=6 --chunk=64 --raid-devices=4 /dev/${n1}2 /dev/${n2}2 /dev/${n3}2 /dev/${n4}2
mdc /dev/md13 --metadata=0.90 --level=1 --raid-devices=2 /dev/${n1}1 /dev/${n2}1
mdc /dev/md14 --metadata=1.0 --level=1 --raid-devices=2 /dev/${e4}1 /dev/${n3}1
mdc /dev/md15 --metadata=1.2 --level=10 --layout=n2 --chunk=64 --raid-devices=4 /dev/${e1}4 /dev/${e2}4 /dev/${e3}4 /dev/${e4}4
lab_partition md15 63 20000 83 22528 20000 83
mkfs.ext4 -q -F /dev/md11
mkfs.ext4 -q -F /dev/md15p2
sleep 1
arrays="md10 md11 md12 md13 md14 md15"
members="${e1}1 ${e2}1 ${e3}1 ${e1}2 ${e2}2 ${e3}2 ${n1}2 ${n2}2 ${n3}2 ${n4}2 ${n1}1 ${n2}1 ${e4}1 ${n3}1 ${e1}4 ${e2}4 ${e3}4 ${e4}4"
disks="$e1 $e2 $e3 $e4 $n1 $n2 $n3 $n4"
# ground truth
cat /proc/mdstat >mdstat.txt
lab_blockdevs >blockdevs.txt
for m in $arrays; do mdadm --detail /dev/$m >detail-$m.txt; done
for p in $members; do mdadm --examine /dev/$p >examine-$p.txt; done
for m in $arrays; do
	echo "$m level=$(cat /sys/block/$m/md/level) chunk=$(cat /sys/block/$m/md/chunk_size) members=$(ls /sys/block/$m/slaves | tr '\n' ' ')"
	for r in /sys/block/$m/md/dev-*; do
		echo "$m $(basename $r) offset=$(cat $r/offset)"
	done
done >md-sysfs.txt
for p in $members md15p1 md15p2; do
	echo "$p start=$(cat /sys/class/block/$p/start)"
done >starts.txt
lab_topology $disks $members $arrays md15p1 md15p2 >topology.txt
# blkalign
mkdir -p check
for d in $disks $members $arrays md15p1 md15p2; do
	lab_run check/$d blkalign check --json /dev/$d
done
lab_run check-all blkalign check --json
for m in $arrays; do mdadm --stop /dev/$m; done
for p in $members; do mdadm --zero-superblock /dev/$p; done
