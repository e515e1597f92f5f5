/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-image-refs.c - the names an image holds of other files
 * (scan/image-refs.c), against what qemu 7.2 reads: descriptor lines as
 * vmdk_parse_extents's sscanf("%10s %" SCNd64 " %10s \"%511[^\n\r\"]\"")
 * takes them (and the other access modes of VMware's Virtual Disk Format
 * 1.1, which name files too), the text ending at its first NUL
 * (vmdk_read_desc); parentFileNameHint="NAME" (vmdk_parent_open); and
 * qcow2 and qed headers built here from docs/interop/qcow2.txt and
 * qed_spec.txt, in files, through blkalign_image_refs(), whose names are
 * joined to the image's directory as qemu's path_combine does, protocol
 * names left out.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "image-refs.h"

/* The refs a walk gives, one a line: "E NAME SECTORS rw|ro sparse|other"
 * for an extent, "B NAME" for a backing file or parent, "D NAME". */
struct got {
	char buf[4096];
	size_t len;
};

static int collect(void *data, const struct ba_image_ref *r)
{
	struct got *g = data;
	char *end = g->buf + g->len;
	size_t room = sizeof(g->buf) - g->len;
	int n = (int)r->name_len, k;

	if (r->kind == BLKALIGN_REF_EXTENT)
		k = snprintf(end, room, "E %.*s %llu %s %s\n", n, r->name,
			     (unsigned long long)r->sectors,
			     r->rw ? "rw" : "ro",
			     r->sparse ? "sparse" : "other");
	else
		k = snprintf(end, room, "%c %.*s\n",
			     r->kind == BLKALIGN_REF_BACKING ? 'B' : 'D', n,
			     r->name);
	assert_true(k > 0 && (size_t)k < room);
	g->len += (size_t)k;
	return 0;
}

struct desc_row {
	const char *name;
	const char *text;
	size_t len; /* 0: strlen(text) */
	const char *want;
};

static const struct desc_row desc_rows[] = {
	{"qemu-img twoGbMaxExtentSparse",
	 "# Disk DescriptorFile\nversion=1\nCID=93005b4a\nparentCID=ffffffff\n"
	 "createType=\"twoGbMaxExtentSparse\"\n\n# Extent description\n"
	 "RW 4194304 SPARSE \"d-s001.vmdk\"\nRW 2097152 SPARSE "
	 "\"d-s002.vmdk\"\n\n# The Disk Data Base\n#DDB\n\n"
	 "ddb.virtualHWVersion = \"4\"\n",
	 0,
	 "E d-s001.vmdk 4194304 rw sparse\nE d-s002.vmdk 2097152 rw sparse\n"},
	{"monolithicFlat, with its offset",
	 "RW 10485760 FLAT \"m-flat.vmdk\" 0\n", 0,
	 "E m-flat.vmdk 10485760 rw other\n"},
	{"CRLF lines",
	 "RW 100 SPARSE \"a.vmdk\"\r\nRW 200 FLAT \"b.vmdk\" 0\r\n", 0,
	 "E a.vmdk 100 rw sparse\nE b.vmdk 200 rw other\n"},
	{"tabs and leading blanks", "  \tRW\t100\tSPARSE\t\"a b.vmdk\"", 0,
	 "E a b.vmdk 100 rw sparse\n"},
	{"RDONLY and NOACCESS name files too",
	 "RDONLY 8 FLAT \"r.vmdk\" 0\nNOACCESS 8 SPARSE \"n.vmdk\"\n", 0,
	 "E r.vmdk 8 ro other\nE n.vmdk 8 ro sparse\n"},
	{"a ZERO extent names no file", "RW 100 ZERO\n", 0, ""},
	{"access is case-sensitive", "rw 100 SPARSE \"x.vmdk\"\n", 0, ""},
	{"0 sectors: no extent", "RW 0 SPARSE \"x.vmdk\"\n", 0, ""},
	{"a sign: no extent", "RW -8 SPARSE \"x.vmdk\"\n", 0, ""},
	{"an empty name", "RW 1 FLAT \"\" 0\n", 0, ""},
	{"an unterminated name", "RW 1 SPARSE \"abc\n\"\n", 0, ""},
	{"a CR inside the name", "RW 1 SPARSE \"a\rb\"\n", 0, ""},
	{"the text ends at its first NUL",
	 "RW 1 FLAT \"a.vmdk\" 0\n\0RW 1 FLAT \"b.vmdk\" 0\n", 43,
	 "E a.vmdk 1 rw other\n"},
	{"no newline at the end", "RW 7 SPARSE \"z.vmdk\"", 0,
	 "E z.vmdk 7 rw sparse\n"},
	{"parentFileNameHint", "parentFileNameHint=\"base.vmdk\"\n", 0,
	 "B base.vmdk\n"},
	{"parentFileNameHint, blanks around =",
	 "parentFileNameHint = \"/vm/base.vmdk\"\r\n", 0, "B /vm/base.vmdk\n"},
	{"another key", "parentFileNameHintX=\"y.vmdk\"\n", 0, ""},
	{"parentFileNameHint unquoted", "parentFileNameHint=y.vmdk\n", 0, ""},
};

/* A name of @n bytes in an extent line. */
static char *long_line(size_t n)
{
	char *name = malloc(n + 1), *line = NULL;

	assert_non_null(name);
	memset(name, 'n', n);
	name[n] = '\0';
	assert_true(asprintf(&line, "RW 1 SPARSE \"%s\"\n", name) > 0);
	free(name);
	return line;
}

static void test_desc(void **state)
{
	const struct desc_row *row = *state;
	struct got g = {{0}, 0};
	size_t len = row->len ? row->len : strlen(row->text);
	/* a copy of exactly @len bytes: a read past them is a bug */
	char *text = malloc(len ? len : 1);

	assert_non_null(text);
	memcpy(text, row->text, len);
	assert_int_equal(ba_vmdk_desc_walk(text, len, collect, &g), 0);
	if (strcmp(g.buf, row->want))
		fail_msg("%s: got\n%s, expected\n%s", row->name, g.buf,
			 row->want);
	free(text);
}

/* qemu's "%511[^\n\r\"]": 511 bytes of name, not 512 */
static void test_name_bound(void **state)
{
	char *l511 = long_line(511), *l512 = long_line(512);
	struct got g = {{0}, 0};

	(void)state;
	assert_int_equal(ba_vmdk_desc_walk(l511, strlen(l511), collect, &g), 0);
	assert_true(g.len > 0);
	g.len = 0;
	g.buf[0] = '\0';
	assert_int_equal(ba_vmdk_desc_walk(l512, strlen(l512), collect, &g), 0);
	assert_int_equal(g.len, 0);
	free(l511);
	free(l512);
}

/* blkalign_image_refs() on files: "KIND PATH" a line. */
static int collect_path(void *data, const char *path,
			enum blkalign_image_ref kind)
{
	struct got *g = data;
	int k = snprintf(g->buf + g->len, sizeof(g->buf) - g->len, "%c %s\n",
			 kind == BLKALIGN_REF_EXTENT	? 'E'
			 : kind == BLKALIGN_REF_BACKING ? 'B'
							: 'D',
			 path);

	assert_true(k > 0 && (size_t)k < sizeof(g->buf) - g->len);
	g->len += (size_t)k;
	return 0;
}

static char dir[] = "/tmp/test-image-refs.XXXXXX";
static const char *const made[] = {"d.vmdk", "o.qcow2", "o.qed", "raw.img"};

static char *write_file(const char *name, const void *buf, size_t len)
{
	char *path = NULL;
	int fd;

	assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, buf, len), (ssize_t)len);
	close(fd);
	return path;
}

static void expect_refs(const char *path, const char *want)
{
	struct got g = {{0}, 0};

	assert_int_equal(blkalign_image_refs(path, collect_path, &g), 0);
	if (strcmp(g.buf, want))
		fail_msg("%s: got\n%s, expected\n%s", path, g.buf, want);
}

static void test_descriptor_file(void **state)
{
	static const char text[] =
		"# Disk DescriptorFile\nversion=1\n"
		"parentFileNameHint=\"base.vmdk\"\n"
		"RW 8 SPARSE \"d-s001.vmdk\"\n"
		"RW 8 FLAT \"/srv/vm/d-f002.vmdk\" 0\n"
		"RW 8 FLAT \"nbd://host/export\" 0\n"
		"RW 8 FLAT \"json:{\\\"driver\\\": \\\"raw\\\"}\" 0\n"
		"RW 8 FLAT \"sub/x:y.vmdk\" 0\n";
	char *path = write_file("d.vmdk", text, sizeof(text) - 1), *want;

	(void)state;
	/* relative names in the descriptor's directory; "nbd:" and
	 * "json:" are protocols; a colon after a slash is a file name */
	assert_true(asprintf(&want,
			     "B %s/base.vmdk\nE %s/d-s001.vmdk\n"
			     "E /srv/vm/d-f002.vmdk\nE %s/sub/x:y.vmdk\n",
			     dir, dir, dir) > 0);
	expect_refs(path, want);
	free(want);
	free(path);
}

static void be32_at(uint8_t *b, size_t at, uint32_t v)
{
	v = htobe32(v);
	memcpy(b + at, &v, 4);
}

static void be64_at(uint8_t *b, size_t at, uint64_t v)
{
	v = htobe64(v);
	memcpy(b + at, &v, 8);
}

static void le32_at(uint8_t *b, size_t at, uint32_t v)
{
	v = htole32(v);
	memcpy(b + at, &v, 4);
}

static void le64_at(uint8_t *b, size_t at, uint64_t v)
{
	v = htole64(v);
	memcpy(b + at, &v, 8);
}

/* A qcow2 v3 header (64 KiB clusters) with a backing file name at 512
 * and, after the 104-byte header, a feature table extension then the
 * data file extension (0x44415441), incompatible bit 2 set. */
static void test_qcow2(void **state)
{
	static uint8_t img[65536];
	char *path, *want;

	(void)state;
	memcpy(img, "QFI\xfb", 4);
	be32_at(img, 4, 3);	       /* version */
	be64_at(img, 8, 512);	       /* backing_file_offset */
	be32_at(img, 16, 10);	       /* backing_file_size */
	be32_at(img, 20, 16);	       /* cluster_bits */
	be64_at(img, 72, 1u << 2);     /* incompatible: external data file */
	be32_at(img, 100, 104);	       /* header_length */
	be32_at(img, 104, 0x6803f857); /* feature name table */
	be32_at(img, 108, 3);	       /* 3 bytes, padded to 8 */
	be32_at(img, 120, 0x44415441); /* data file name */
	be32_at(img, 124, 8);
	memcpy(img + 128, "data.raw", 8);
	memcpy(img + 512, "base.qcow2", 10);
	path = write_file("o.qcow2", img, sizeof(img));
	assert_true(asprintf(&want, "B %s/base.qcow2\nD %s/data.raw\n", dir,
			     dir) > 0);
	expect_refs(path, want);
	free(want);

	/* a name longer than qemu's 1023 bytes, or past the first cluster:
	 * qemu refuses the image; no name */
	be32_at(img, 16, 1024);
	be64_at(img, 72, 0);
	free(path);
	path = write_file("o.qcow2", img, sizeof(img));
	expect_refs(path, "");
	be32_at(img, 16, 10);
	be64_at(img, 8, 65530);
	free(path);
	path = write_file("o.qcow2", img, sizeof(img));
	expect_refs(path, "");
	free(path);
	memset(img, 0, sizeof(img));
}

/* A qed header: 64 KiB clusters, a header of one cluster, the backing
 * file feature, its name at byte 64. */
static void test_qed(void **state)
{
	uint8_t img[512] = {0};
	char *path, *want;

	(void)state;
	memcpy(img, "QED\0", 4);
	le32_at(img, 4, 65536); /* cluster_size */
	le32_at(img, 8, 4);	/* table_size */
	le32_at(img, 12, 1);	/* header_size, clusters */
	le64_at(img, 16, 1);	/* features: backing file */
	le32_at(img, 56, 64);	/* backing_filename_offset */
	le32_at(img, 60, 5);	/* backing_filename_size */
	memcpy(img + 64, "b.qed", 5);
	path = write_file("o.qed", img, sizeof(img));
	assert_true(asprintf(&want, "B %s/b.qed\n", dir) > 0);
	expect_refs(path, want);
	free(want);
	free(path);
	le64_at(img, 16, 0); /* the feature off: the name is not one */
	path = write_file("o.qed", img, sizeof(img));
	expect_refs(path, "");
	free(path);
}

/* Not an image, not a file, nothing there. */
static void test_others(void **state)
{
	struct got g = {{0}, 0};
	char *path = write_file("raw.img", "hello", 5);

	(void)state;
	expect_refs(path, "");
	expect_refs(dir, "");
	free(path);
	assert_int_equal(
		blkalign_image_refs("/nonexistent/x.vmdk", collect_path, &g),
		-ENOENT);
}

int main(void)
{
	const struct CMUnitTest files[] = {
		cmocka_unit_test(test_name_bound),
		cmocka_unit_test(test_descriptor_file),
		cmocka_unit_test(test_qcow2),
		cmocka_unit_test(test_qed),
		cmocka_unit_test(test_others),
	};
	int failed;

	if (!mkdtemp(dir))
		return 1;
	failed = RUN_TABLE(test_desc, desc_rows);
	failed += cmocka_run_group_tests(files, NULL, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(made); i++) {
		char *path = NULL;

		if (asprintf(&path, "%s/%s", dir, made[i]) > 0)
			unlink(path);
		free(path);
	}
	if (rmdir(dir))
		failed++;
	return failed;
}
