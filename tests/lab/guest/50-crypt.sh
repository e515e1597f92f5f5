# SPDX-License-Identifier: GPL-2.0-or-later
# crypt: LUKS1 and LUKS2 (512- and 4096-byte encryption sectors; a LUKS1
# payload 512 bytes off the 4 KiB grid, which LUKS2 refuses) on partitions
# at MiB starts of 512e and 512n disks, opened, with ext4 inside one.  Ground truth: cryptsetup status and luksDump, dmsetup
# table, blockdev; then blkalign check on each partition and mapping.
for s in e1 e2 e3 e4 n3; do eval "$s=$(lab_disk $s)"; done
key() { printf 'lab-passphrase'; }
fmt() { key | cryptsetup luksFormat -q --key-file=- --pbkdf-force-iterations 1000 "$@"; }
fmt --type luks1 --pbkdf pbkdf2 /dev/${e1}4
fmt --type luks2 --pbkdf pbkdf2 --sector-size 512 /dev/${e2}4
fmt --type luks2 --pbkdf pbkdf2 --sector-size 4096 /dev/${e3}4
# the payload at 2 MiB + 512 bytes (in 512-byte sectors)
fmt --type luks1 --pbkdf pbkdf2 --align-payload 4097 /dev/${e4}4
fmt --type luks2 --pbkdf pbkdf2 --sector-size 4096 /dev/${n3}4
i=1
for p in ${e1}4 ${e2}4 ${e3}4 ${e4}4 ${n3}4; do
	key | cryptsetup open --key-file=- /dev/$p c$i
	i=$((i + 1))
done
mkfs.ext4 -q -F /dev/mapper/c3
sleep 1
parts="${e1}4 ${e2}4 ${e3}4 ${e4}4 ${n3}4"
for p in $parts; do echo "$p start=$(cat /sys/class/block/$p/start)"; done >starts.txt
for c in c1 c2 c3 c4 c5; do echo "### $c"; cryptsetup status $c; done >status.txt
for p in $parts; do echo "### $p"; cryptsetup luksDump /dev/$p; done >luksdump.txt
dmsetup table >dmsetup-table.txt
lab_blockdevs >blockdevs.txt
maps=$(cd /sys/block && ls -d dm-*)
for d in $maps; do echo "$d $(cat /sys/block/$d/dm/name)"; done >dm-names.txt
lab_topology $e1 $e2 $e3 $e4 $n3 $parts $maps >topology.txt
mkdir -p check
for d in $e1 $e2 $e3 $e4 $n3 $parts; do lab_run check/$d blkalign check --json /dev/$d; done
for c in c1 c2 c3 c4 c5; do lab_run check/$c blkalign check --json /dev/mapper/$c; done
for c in c1 c2 c3 c4 c5; do cryptsetup close $c; done
