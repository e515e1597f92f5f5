/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-image-refs.c - the names an image holds of other files
 * (scan/image-refs.c) on hostile bytes: VMDK descriptor lines (extents,
 * parentFileNameHint), a sparse VMDK's embedded descriptor, a qcow2's
 * backing file name and header extensions, a qed's backing file name.
 *
 * Input: the bytes are the first bytes of the file, and are walked as a
 * descriptor text as they are (not NUL-terminated: a read past them is a
 * bug); the file is then zero-padded to 64 KiB (qemu-img's default
 * qcow2 cluster, where its extensions end) so that seeds stay small.
 * Every name must lie inside the bytes it came from, be 1 to 4095 bytes
 * and, in a descriptor, hold no quote, line end or NUL.
 * tests/fuzz/make-image-refs-seeds makes the seeds with qemu-img.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "fuzz.h"
#include "image-refs.h"

#define MIN_FILE (64u * 1024)
#define MAX_FILE (4u << 20)

struct bounds {
	const char *lo, *hi; /* the names must lie in [lo, hi) */
	bool text;	     /* a descriptor's: no quote, CR, LF or NUL */
	size_t n;
};

static int check_ref(void *data, const struct ba_image_ref *ref)
{
	struct bounds *b = data;

	FUZZ_CHECK(ref->name_len >= 1 && ref->name_len <= 4095);
	FUZZ_CHECK(ref->kind == BLKALIGN_REF_EXTENT ||
		   ref->kind == BLKALIGN_REF_BACKING ||
		   ref->kind == BLKALIGN_REF_DATA_FILE);
	if (b->text) {
		FUZZ_CHECK(ref->name >= b->lo && ref->name < b->hi);
		FUZZ_CHECK(ref->name_len <= (size_t)(b->hi - ref->name));
		FUZZ_CHECK(!memchr(ref->name, '"', ref->name_len));
		FUZZ_CHECK(!memchr(ref->name, '\n', ref->name_len));
		FUZZ_CHECK(!memchr(ref->name, '\r', ref->name_len));
		FUZZ_CHECK(!memchr(ref->name, '\0', ref->name_len));
	}
	if (ref->kind == BLKALIGN_REF_EXTENT)
		FUZZ_CHECK(ref->sectors > 0 && ref->name_len <= 511);
	b->n++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* the padded file of a small input, zeros again after each run:
	 * no 64 KiB to allocate and clear per input */
	static uint8_t pad[MIN_FILE];
	struct bounds b = {(const char *)data, (const char *)data + size, true,
			   0};
	struct ba_io io;
	uint8_t *buf = pad;

	if (size > MAX_FILE)
		return 0;
	/* the walk on the bytes as they are: no terminator to rely on */
	FUZZ_CHECK(ba_vmdk_desc_walk((const char *)data, size, check_ref, &b) ==
		   0);

	if (size > MIN_FILE) {
		buf = malloc(size);
		FUZZ_CHECK(buf != NULL);
	}
	memcpy(buf, data, size);
	ba_io_init_mem(&io, buf, size > MIN_FILE ? size : MIN_FILE);
	b = (struct bounds){NULL, NULL, false, 0};
	FUZZ_CHECK(ba_image_refs_io(&io, check_ref, &b) == 0);
	if (buf == pad)
		memset(pad, 0, size);
	else
		free(buf);
	return 0;
}
