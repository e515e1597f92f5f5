#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0-or-later
# gpt-patch.pl - set one field of a GPT header in an image and recompute
# the header CRC32, so a test can feed blkalign a header that is
# self-consistent except for that value (UEFI 2.10 §5.3.2, table 5-5).
#
# usage: gpt-patch.pl IMG LBA FIELD VALUE [SECTOR-SIZE]
#   FIELD: my_lba alternate_lba first_usable last_usable entries_lba
#          num_entries entry_size entries_crc
# Only perl-base is needed (no modules).
use strict;
use warnings;
no warnings "portable";

my ($img, $lba, $field, $value, $ss) = @ARGV;
die "usage: $0 IMG LBA FIELD VALUE [SECTOR-SIZE]\n" unless defined $value;
$ss //= 512;
$value = oct($value) if $value =~ /^0/;

# offset, pack format
my %fields = (
	my_lba        => [ 24, 'Q<' ],
	alternate_lba => [ 32, 'Q<' ],
	first_usable  => [ 40, 'Q<' ],
	last_usable   => [ 48, 'Q<' ],
	entries_lba   => [ 72, 'Q<' ],
	num_entries   => [ 80, 'V' ],
	entry_size    => [ 84, 'V' ],
	entries_crc   => [ 88, 'V' ],
);
my $f = $fields{$field} or die "$0: unknown field '$field'\n";

my @table;
for my $n (0 .. 255) {
	my $c = $n;
	$c = ($c & 1) ? (0xEDB88320 ^ ($c >> 1)) : ($c >> 1) for 1 .. 8;
	$table[$n] = $c;
}
sub crc32 {
	my $crc = 0xFFFFFFFF;
	$crc = $table[($crc ^ $_) & 0xFF] ^ ($crc >> 8) for unpack('C*', $_[0]);
	return $crc ^ 0xFFFFFFFF;
}

open(my $fh, '+<:raw', $img) or die "$0: cannot open '$img': $!\n";
seek($fh, $lba * $ss, 0) or die "$0: cannot seek in '$img': $!\n";
read($fh, my $hdr, 512) == 512 or die "$0: cannot read the header in '$img'\n";
substr($hdr, 0, 8) eq 'EFI PART' or die "$0: no GPT header at LBA $lba of '$img'\n";
my $hsize = unpack('V', substr($hdr, 12, 4));
$hsize = 92 if $hsize < 92 || $hsize > 512;

substr($hdr, $f->[0], length(pack($f->[1], 0))) = pack($f->[1], $value);
substr($hdr, 16, 4) = pack('V', 0);
substr($hdr, 16, 4) = pack('V', crc32(substr($hdr, 0, $hsize)));

seek($fh, $lba * $ss, 0) or die;
print $fh $hdr or die "$0: cannot write '$img': $!\n";
close($fh) or die "$0: cannot write '$img': $!\n";
