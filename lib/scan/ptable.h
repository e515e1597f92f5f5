/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ptable.h - the partitions-only libblkid probe the scan and the NBD
 * source share (scan/ only: analyze/ and out/ never see libblkid). */
#ifndef BLKALIGN_SCAN_PTABLE_H
#define BLKALIGN_SCAN_PTABLE_H

#include <blkid.h>
#include <stdint.h>

int ba_ptable_probe(int fd, uint32_t sector_size, blkid_probe *out);

#endif
