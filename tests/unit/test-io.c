/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-io.c - the bounded reader: 0 inside the device, 1 ("absent") for
 * any range not entirely inside it, including ranges whose end overflows
 * 64 bits, -EINVAL above BA_IO_MAX_READ, -EIO for a short read of a file
 * smaller than the size it was opened with.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"

#define DEV_SIZE 100

struct io_row {
	const char *name;
	uint64_t off;
	size_t len;
	int want;
};

static const struct io_row io_rows[] = {
	{"whole-device", 0, DEV_SIZE, 0},
	{"exact-end", 50, 50, 0},
	{"one-byte-past-end", 50, 51, 1},
	{"last-byte", 99, 1, 0},
	{"empty-at-end", DEV_SIZE, 0, 0},
	{"empty-past-end", DEV_SIZE + 1, 0, 1},
	{"off-at-end", DEV_SIZE, 1, 1},
	{"off-beyond-size", 1000, 1, 1},
	{"off-uint64-max", UINT64_MAX, 1, 1},
	/* off + len wraps to 9: must not be taken as inside */
	{"off-plus-len-overflows", UINT64_MAX - 10, 20, 1},
	{"len-half-size-max", 50, SIZE_MAX / 2 + 1, -EINVAL},
	{"len-max-read-absent", 0, BA_IO_MAX_READ, 1},
	{"len-over-max-read", 0, BA_IO_MAX_READ + 1, -EINVAL},
	{"len-size-max", 0, SIZE_MAX, -EINVAL},
};

static uint8_t dev[DEV_SIZE];

static void test_mem_read(void **state)
{
	const struct io_row *r = *state;
	static uint8_t buf[DEV_SIZE];
	struct ba_io io;
	int rc;

	for (size_t i = 0; i < DEV_SIZE; i++)
		dev[i] = (uint8_t)(i * 7 + 1);
	ba_io_init_mem(&io, dev, DEV_SIZE);
	memset(buf, 0, sizeof(buf));
	/* The buffer holds only DEV_SIZE bytes: a read that should have
	 * been refused overflows it, which ASan reports. */
	rc = ba_io_read(&io, r->off, r->len, buf);
	EXPECT_S64(r, "ba_io_read", rc, r->want);
	if (rc == 0) {
		if (r->len && memcmp(buf, dev + r->off, r->len) != 0)
			fail_msg("%s: wrong bytes", r->name);
		EXPECT_U64(r, "bytes_read", io.bytes_read, r->len);
	} else {
		EXPECT_U64(r, "bytes_read", io.bytes_read, 0);
	}
}

/* fd backend: a 64-byte file opened as a 128-byte device. */
struct fd_row {
	const char *name;
	uint64_t off;
	size_t len;
	int want;
};

static const struct fd_row fd_rows[] = {
	{"inside-file", 0, 64, 0},
	{"inside-device-past-file", 32, 64, -EIO},
	{"wholly-past-file", 64, 64, -EIO},
	{"past-device", 100, 64, 1},
	{"bad-fd", 0, 1, -EBADF},
};

static void test_fd_read(void **state)
{
	const struct fd_row *r = *state;
	uint8_t data[64], buf[64];
	struct ba_io io;
	int fd = memfd_create("test-io", MFD_CLOEXEC);

	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(255 - i);
	assert_int_equal(write(fd, data, sizeof(data)), sizeof(data));
	if (strcmp(r->name, "bad-fd") == 0) {
		close(fd);
		fd = -1;
	}
	ba_io_init_fd(&io, fd, 128);
	EXPECT_S64(r, "ba_io_read", ba_io_read(&io, r->off, r->len, buf),
		   r->want);
	if (r->want == 0 && memcmp(buf, data + r->off, r->len) != 0)
		fail_msg("%s: wrong bytes", r->name);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	int failed = 0;

	failed += RUN_TABLE(test_mem_read, io_rows);
	failed += RUN_TABLE(test_fd_read, fd_rows);
	return failed ? 1 : 0;
}
