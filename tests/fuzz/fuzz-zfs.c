/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-zfs.c - libFuzzer target for the ZFS label parser: the input is
 * the packed nvlist of a label (nvs_header_t + XDR).
 *
 * Random bytes never carry a valid label checksum (SHA-256), so the
 * target calls the nvlist walker directly (parse_config(), reached by
 * including the parser's source).  When the walker accepts the input,
 * the prober runs too, on a vdev whose label L0 holds the input sealed
 * with the right checksum here, as zpool would write it (hashing 112 KiB
 * twice is too slow to do for every input: the walker has already
 * refused most of them, and the prober would only say -EINVAL).
 *
 * Build and run: tools/fuzz-run (clang, -Dfuzz=true, in build-fuzz/), or
 *   build-fuzz/tests/fuzz/fuzz-zfs -max_total_time=60 \
 *     tests/fuzz/corpus/fuzz-zfs
 * Seeds: tests/fixtures/fs-make-corpus.
 */
#define ba_zfs_prober fuzz_zfs_prober
#include "probe/zfs.c"
#undef ba_zfs_prober

#include "fuzz.h"

#define VDEV_SIZE (4 * ZFS_LABEL_SIZE) /* the smallest with 4 labels */

/* Seal vdev_phys_t at @phys (label L0) the way OpenZFS does. */
static void seal(uint8_t *phys)
{
	const size_t body = ZFS_PHYS_SIZE - sizeof(struct zfs_eck_disk);
	uint64_t magic = ZFS_ECK_MAGIC, ver[4] = {ZFS_PHYS_OFFSET, 0, 0, 0};
	uint64_t sum[4];
	struct sha256 s;

	memcpy(phys + body, &magic, sizeof(magic));
	memcpy(phys + body + 8, ver, sizeof(ver));
	sha256_init(&s);
	sha256_update(&s, phys, ZFS_PHYS_SIZE);
	sha256_final(&s, sum);
	memcpy(phys + body + 8, sum, sizeof(sum));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	const size_t body = ZFS_PHYS_SIZE - sizeof(struct zfs_eck_disk);
	static uint8_t *dev;
	struct zfs_label l;
	struct ba_content c;
	struct ba_io io;
	uint8_t *copy;
	int rc;

	/* The walker alone, on a buffer of exactly the input's size. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, len);
	rc = parse_config(copy, len, &l);
	FUZZ_CHECK(rc == 0 || rc == -ERANGE || rc == -EINVAL);
	free(copy);

	/* The prober, on a 1 MiB vdev with the input sealed into L0. */
	if (rc || len > body)
		return 0;
	if (!dev) {
		dev = calloc(1, VDEV_SIZE);
		if (!dev)
			return 0;
	}
	memset(dev, 0, VDEV_SIZE);
	memcpy(dev + ZFS_PHYS_OFFSET, data, len);
	seal(dev + ZFS_PHYS_OFFSET);
	ba_io_init_mem(&io, dev, VDEV_SIZE);
	rc = fuzz_zfs_prober.probe(&io, 0, VDEV_SIZE, &c);
	/* The walker accepted it: the prober refuses it only for an
	 * ashift out of range, else reports what the walker found. */
	FUZZ_CHECK(rc == 0 || rc == -EINVAL);
	if (rc == -EINVAL) {
		FUZZ_CHECK(l.has_ashift && (l.ashift < ZFS_ASHIFT_MIN ||
					    l.ashift > ZFS_ASHIFT_MAX));
		return 0;
	}
	FUZZ_CHECK(c.kind == BA_CONTENT_ZFS);
	FUZZ_CHECK(c.zfs_ashift == (l.has_ashift ? l.ashift : 0));
	FUZZ_CHECK(c.data_offset == ZFS_DATA_START);
	return 0;
}
