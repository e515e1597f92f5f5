/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-image.c - the whole audit of an image file on hostile bytes:
 * libblkid's partition probing (dos with EBR chains, gpt, bsd, sun, sgi,
 * mac, atari...), our GPT check, every rule and the JSON writer.
 *
 * Input layout (so small inputs can stand for large disks, with a GPT
 * backup or other metadata at their end):
 *   bytes 0-3  sparse size: the image is extended (ftruncate) to this
 *              many 512-byte sectors, little endian, capped at 64 GiB;
 *              0 or less than the payload keeps the payload's size
 *   byte 4     geometry (the check options an image can be given):
 *              bit 0    logical sector 4096
 *              bit 1    physical sector 4096
 *              bits 2-3 min I/O: default, 64 KiB, 128 KiB, 12 KiB
 *              bits 4-5 opt I/O: 0, 256 KiB, 192 KiB, 33553920
 *              bit 6    alignment offset 3584 (512e only)
 *              bit 7    page size 64 KiB
 *   bytes 5-6  tail: the last this many 512-byte sectors of the payload
 *              (little endian; all of it at most) go to the end of the
 *              image instead of its start
 *   bytes 7-   the payload (at most 4 MiB): the first bytes of the image,
 *              then the tail
 * tests/fuzz/make-corpus packs images this way.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blkalign.h"
#include "fuzz.h"

#define HEADER_BYTES 7
#define MAX_PAYLOAD  (4u << 20)
#define MAX_SPARSE   ((uint64_t)64 << 30)

static void geometry(struct blkalign_ctx *ctx, uint8_t g)
{
	static const uint32_t min_io[] = {0, 65536, 131072, 12288};
	static const uint32_t opt_io[] = {0, 262144, 196608, 33553920};
	struct blkalign_image_geometry geo = {.size = sizeof(geo)};

	geo.logical_sector_size = (g & 1) ? 4096 : 512;
	geo.physical_sector_size = (g & 3) ? 4096 : 512;
	geo.minimum_io_size = min_io[(g >> 2) & 3];
	geo.optimal_io_size = opt_io[(g >> 4) & 3];
	if ((g & 0x40) && geo.logical_sector_size == 512 &&
	    geo.physical_sector_size == 4096) {
		geo.alignment_offset = 3584;
		geo.alignment_offset_set = true;
	}
	/* Impossible combinations (e.g. 33553920 on 4Kn) keep the default. */
	(void)blkalign_ctx_set_image_geometry(ctx, &geo);
	FUZZ_CHECK(blkalign_ctx_set_page_size(ctx, (g & 0x80) ? 65536 : 4096) ==
		   0);
}

static int write_all(int fd, const uint8_t *p, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* What the report promises its readers (the CLI, the JSON writer). */
static void check_report(const struct blkalign_report *r)
{
	for (size_t i = 0; i < blkalign_report_ndevices(r); i++) {
		const struct blkalign_device *d = blkalign_report_device(r, i);

		FUZZ_CHECK(d && blkalign_device_get_name(d) &&
			   blkalign_device_get_path(d));
		/*
		 * An image that claims a qemu format it does not hold (a
		 * truncated vhdx, a bare vmdk extent) is not audited: the
		 * operational-error bit, with why; nothing else fails.
		 */
		if (blkalign_device_get_failed(d)) {
			FUZZ_CHECK(blkalign_report_status(r) ==
				   BLKALIGN_STATUS_FAILED);
			FUZZ_CHECK(blkalign_device_get_nproblems(d) >= 1);
			continue;
		}
		FUZZ_CHECK((blkalign_report_status(r) & ~3u) == 0);
		FUZZ_CHECK(blkalign_device_get_nlayers(d) >= 1);
		for (size_t j = 0; j < blkalign_device_get_nlayers(d); j++) {
			const struct blkalign_layer *l =
				blkalign_device_get_layer(d, j);

			FUZZ_CHECK(blkalign_layer_get_name(l) != NULL);
			FUZZ_CHECK(blkalign_layer_get_parent(l) >= -1 &&
				   blkalign_layer_get_parent(l) <
					   (int)blkalign_device_get_nlayers(d));
			FUZZ_CHECK(
				blkalign_layer_get_soft_block_size(l) >= 512 &&
				blkalign_layer_get_soft_block_size(l) <= 65536);
		}
		for (size_t j = 0; j < blkalign_device_get_nfindings(d); j++) {
			const struct blkalign_finding *f =
				blkalign_device_get_finding(d, j);

			FUZZ_CHECK(blkalign_finding_get_code(f) &&
				   blkalign_finding_get_message(f) &&
				   blkalign_finding_get_explanation(f) &&
				   blkalign_finding_get_fix(f));
			FUZZ_CHECK(blkalign_finding_get_layer(f) >= 0 &&
				   blkalign_finding_get_layer(f) <
					   (int)blkalign_device_get_nlayers(d));
			if (j)
				FUZZ_CHECK(blkalign_finding_get_severity(
						   blkalign_device_get_finding(
							   d, j - 1)) >=
					   blkalign_finding_get_severity(f));
		}
		for (size_t j = 0; j < blkalign_device_get_nproblems(d); j++)
			FUZZ_CHECK(blkalign_device_get_problem(d, j) != NULL);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct blkalign_report *r = NULL;
	struct blkalign_ctx *ctx = NULL;
	const uint8_t *payload = data + HEADER_BYTES;
	uint64_t sparse, image;
	size_t len, tail;
	char path[64];
	FILE *out;
	int fd, rc;

	if (size < HEADER_BYTES)
		return 0;
	len = size - HEADER_BYTES;
	if (len > MAX_PAYLOAD)
		len = MAX_PAYLOAD;
	sparse = ((uint64_t)data[0] | (uint64_t)data[1] << 8 |
		  (uint64_t)data[2] << 16 | (uint64_t)data[3] << 24) *
		 512;
	if (sparse > MAX_SPARSE)
		sparse = MAX_SPARSE;
	tail = ((size_t)data[5] | (size_t)data[6] << 8) * 512;
	if (tail > len)
		tail = len;
	image = sparse > len ? sparse : len;

	fd = memfd_create("fuzz-image", MFD_CLOEXEC);
	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(ftruncate(fd, (off_t)image) == 0);
	FUZZ_CHECK(write_all(fd, payload, len - tail, 0) == 0);
	FUZZ_CHECK(write_all(fd, payload + len - tail, tail, image - tail) ==
		   0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);

	ctx = blkalign_ctx_new();
	FUZZ_CHECK(ctx != NULL);
	geometry(ctx, data[4]);
	r = blkalign_report_new(ctx);
	FUZZ_CHECK(r != NULL);
	rc = blkalign_check_path(r, path);
	FUZZ_CHECK(rc == 0);
	FUZZ_CHECK(blkalign_report_ndevices(r) == 1);
	check_report(r);

	out = fopen("/dev/null", "w");
	FUZZ_CHECK(out != NULL);
	FUZZ_CHECK(blkalign_report_write_json(r, out) == 0);
	FUZZ_CHECK(blkalign_report_write_text(r, out, BLKALIGN_TEXT_COLOR) ==
		   0);
	fclose(out);

	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
	close(fd);
	return 0;
}
