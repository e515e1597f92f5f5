/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-trace.c - trace's extents (issue 14): a device mapped to the
 * disks below on a sysfs tree built here (trace-map.c, dm tables from
 * dm/table as in a saved tree), events attributed to the extents and
 * judged on each one's disk (trace.c), the tracefs filter (tracefs.c),
 * and the extents through a --save header and back.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "act/trace.h"

static char root[64];

/* root/@rel, its directories made */
static void path_of(const char *rel, char *path, size_t len)
{
	char *slash;

	snprintf(path, len, "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
}

static void put(const char *rel, const char *val)
{
	char path[512];
	FILE *f;

	path_of(rel, path, sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(val, f);
	fclose(f);
}

static void link_to(const char *rel, const char *target)
{
	char path[512];

	path_of(rel, path, sizeof(path));
	assert_int_equal(symlink(target, path), 0);
}

/* A disk: dev, size, physical sector, blk-mq (mq/) unless bio-based. */
static void disk(const char *dir, const char *dev, const char *pss, bool mq)
{
	char rel[256], link[256], target[256];

	snprintf(rel, sizeof(rel), "%s/dev", dir);
	put(rel, dev);
	snprintf(rel, sizeof(rel), "%s/size", dir);
	put(rel, "2097152\n");
	snprintf(rel, sizeof(rel), "%s/queue/physical_block_size", dir);
	put(rel, pss);
	snprintf(rel, sizeof(rel), "%s/alignment_offset", dir);
	put(rel, "0\n");
	if (mq) {
		snprintf(rel, sizeof(rel), "%s/mq/0/cpu_list", dir);
		put(rel, "0\n");
	}
	snprintf(link, sizeof(link), "sys/dev/block/%s", dev);
	snprintf(target, sizeof(target), "../../../%s", dir);
	link_to(link, target);
}

static void part(const char *dir, const char *dev, const char *start,
		 const char *size)
{
	char rel[256], link[256], target[256];

	snprintf(rel, sizeof(rel), "%s/dev", dir);
	put(rel, dev);
	snprintf(rel, sizeof(rel), "%s/partition", dir);
	put(rel, "1\n");
	snprintf(rel, sizeof(rel), "%s/start", dir);
	put(rel, start);
	snprintf(rel, sizeof(rel), "%s/size", dir);
	put(rel, size);
	snprintf(link, sizeof(link), "sys/dev/block/%s", dev);
	snprintf(target, sizeof(target), "../../../%s", dir);
	link_to(link, target);
}

static void dm(const char *name, const char *dev, const char *size,
	       const char *table)
{
	char dir[128], rel[256];

	snprintf(dir, sizeof(dir), "sys/devices/virtual/block/%s", name);
	disk(dir, dev, "4096\n", false);
	snprintf(rel, sizeof(rel), "%s/size", dir);
	put(rel, size);
	snprintf(rel, sizeof(rel), "%s/dm/name", dir);
	put(rel, name);
	snprintf(rel, sizeof(rel), "%s/dm/table", dir);
	put(rel, table);
}

#define VDA "sys/devices/pci0000:00/virtio1/block/vda"
#define VDB "sys/devices/pci0000:00/virtio2/block/vdb"
#define MD0 "sys/devices/virtual/block/md0"

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test-trace.XXXXXX");
	assert_non_null(mkdtemp(root));
	put("sys/block/.keep", ""); /* what a saved tree has */
	disk(VDA, "254:0", "4096\n", true);
	part(VDA "/vda1", "254:1", "2048\n", "1000000\n");
	disk(VDB, "254:16", "512\n", true);
	disk("sys/devices/virtual/block/zram0", "251:0", "4096\n", false);
	/* linear on a partition, a zero hole, linear on a disk */
	dm("dm-0", "252:0", "3000\n",
	   "0 1000 linear 254:1 100\n1000 1000 zero\n"
	   "2000 1000 linear 254:16 5000\n");
	/* a kpartx partition of dm-0: dm-linear over dm-linear */
	dm("dm-1", "252:1", "500\n", "0 500 linear 252:0 63\n");
	dm("dm-2", "252:2", "100\n", "0 100 thin 252:9 1\n");
	dm("dm-3", "252:3", "2048\n",
	   "0 2048 striped 2 128 254:0 0 254:16 8\n");
	dm("dm-4", "252:4", "1000\n",
	   "0 1000 crypt aes-xts-plain64 - 0 254:16 4096 1 sector_size:4096\n");
	dm("dm-5", "252:5", "100\n", "0 100 linear 251:0 0\n");
	/* RAID-5 of vda1 and vdb (data at 2048 and 4096), a partition */
	disk(MD0, "9:0", "4096\n", false);
	put(MD0 "/size", "4000\n");
	put(MD0 "/md/level", "raid5\n");
	put(MD0 "/md/raid_disks", "3\n");
	put(MD0 "/md/chunk_size", "65536\n");
	put(MD0 "/md/dev-vda1/offset", "2048\n");
	put(MD0 "/md/dev-vda1/size", "1000\n");
	link_to(MD0 "/md/dev-vda1/block",
		"../../../../../pci0000:00/virtio1/block/vda/vda1");
	put(MD0 "/md/dev-vdb/offset", "4096\n");
	put(MD0 "/md/dev-vdb/size", "1000\n");
	link_to(MD0 "/md/dev-vdb/block",
		"../../../../../pci0000:00/virtio2/block/vdb");
	part(MD0 "/md0p1", "259:0", "63\n", "1000\n");
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

static struct blkalign_trace *tracer(void)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_trace *t = NULL;

	assert_non_null(ctx);
	assert_int_equal(blkalign_ctx_set_sysroot(ctx, root), 0);
	assert_int_equal(blkalign_trace_new(ctx, NULL, NULL, &t), 0);
	t->ctx = ctx; /* blkalign_trace_new took a reference */
	blkalign_ctx_unref(ctx);
	return t;
}

struct want {
	unsigned int major, minor;
	uint64_t first, end, layer_off;
	uint32_t pss;
	const char *name;
};

static const struct {
	const char *what;
	unsigned int major, minor;
	uint64_t size;
	int rc;
	size_t n;
	struct want e[4];
} maps[] = {
	{"disk",
	 254,
	 16,
	 2097152,
	 0,
	 1,
	 {{254, 16, 0, BA_TRACE_WHOLE, 0, 512, "vdb"}}},
	{"partition",
	 254,
	 1,
	 1000000,
	 0,
	 1,
	 {{254, 0, 2048, 1002048, 0, 4096, "vda"}}},
	/* the zero target reaches no disk; the second segment is at
	 * layer byte 2000 * 512 */
	{"dm-linear",
	 252,
	 0,
	 3000,
	 0,
	 2,
	 {{254, 0, 2148, 3148, 0, 4096, "vda"},
	  {254, 16, 5000, 6000, 2000 * 512, 512, "vdb"}}},
	{"kpartx: dm over dm over a partition",
	 252,
	 1,
	 500,
	 0,
	 1,
	 {{254, 0, 2211, 2711, 0, 4096, "vda"}}},
	{"dm thin: refused", 252, 2, 100, -EOPNOTSUPP, 0, {{0}}},
	{"dm-striped",
	 252,
	 3,
	 2048,
	 0,
	 2,
	 {{254, 0, 0, 1024, 0, 4096, "vda"},
	  {254, 16, 8, 1032, 0, 512, "vdb"}}},
	{"dm-crypt",
	 252,
	 4,
	 1000,
	 0,
	 1,
	 {{254, 16, 4096, 5096, 0, 512, "vdb"}}},
	{"on a bio-based disk: refused", 252, 5, 100, -EOPNOTSUPP, 0, {{0}}},
	/* whole members, the layer from their data offset */
	{"md",
	 9,
	 0,
	 4000,
	 0,
	 2,
	 {{254, 0, 2048, 1002048, (uint64_t)-2048 * 512, 4096, "vda"},
	  {254, 16, 0, BA_TRACE_WHOLE, (uint64_t)-4096 * 512, 512, "vdb"}}},
	/* sectors 63..1063 of a 2 data + parity RAID-5, 128-sector
	 * chunks: stripes 0..4, member sectors 0..640 of the data */
	{"md partition",
	 259,
	 0,
	 1000,
	 0,
	 2,
	 {{254, 0, 2048 + 2048, 2048 + 2048 + 640, (uint64_t)-63 * 512, 4096,
	   "vda"},
	  {254, 16, 4096, 4096 + 640, (uint64_t)-63 * 512, 512, "vdb"}}},
};

static void test_map(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++) {
		struct blkalign_trace *t = tracer();
		int rc = ba_trace_map(t, maps[i].major, maps[i].minor,
				      maps[i].size);

		print_message("%s\n", maps[i].what);
		assert_int_equal(rc, maps[i].rc);
		if (!rc)
			assert_int_equal(t->next, maps[i].n);
		for (size_t k = 0; !rc && k < maps[i].n; k++) {
			const struct want *w = &maps[i].e[k];
			const struct ba_trace_extent *e = &t->ext[k];

			print_message("  extent %zu\n", k);
			assert_int_equal(e->major, w->major);
			assert_int_equal(e->minor, w->minor);
			assert_int_equal(e->first, w->first);
			assert_int_equal(e->end, w->end);
			assert_int_equal(e->layer_off, w->layer_off);
			assert_int_equal(e->pss, w->pss);
			assert_string_equal(e->name, w->name);
		}
		blkalign_trace_free(t);
	}
}

static struct ba_trace_event ev(enum ba_trace_kind kind, unsigned int minor,
				const char *rwbs, uint64_t sector, uint32_t nr,
				uint64_t ts)
{
	struct ba_trace_event e = {.kind = kind,
				   .ts_ns = ts,
				   .major = 8,
				   .minor = minor,
				   .sector = sector,
				   .nr_sector = nr};

	snprintf(e.rwbs, sizeof(e.rwbs), "%s", rwbs);
	return e;
}

/* sda [2048, 4096) at layer 0, sdb [100, 200) at layer byte 1 MiB + 512,
 * sda [10000, 10008) with 512-byte sectors, the whole of sdc */
static struct blkalign_trace *three_disks(void)
{
	static const struct ba_trace_extent ext[] = {
		{8, 0, 2048, 4096, 0, 4096, 0, "sda"},
		{8, 16, 100, 200, 1048576 + 512, 4096, 0, "sdb"},
		{8, 0, 10000, 10008, 0, 512, 0, "sda"},
		{8, 32, 0, BA_TRACE_WHOLE, 0, 4096, 0, "sdc"},
	};
	struct blkalign_trace *t = NULL;

	assert_int_equal(blkalign_trace_new(NULL, NULL, NULL, &t), 0);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		assert_int_equal(ba_trace_extent_add(t, &ext[i]), 0);
	t->major = 8;
	t->partition = true;
	t->start = 2048 * 512;
	return t;
}

static void test_attribution(void **state)
{
	struct blkalign_trace *t = three_disks();
	const struct blkalign_trace_summary *s;
	const struct ba_trace_event evs[] = {
		ev(BA_TRACE_ISSUE, 0, "W", 2048, 8, 1),	  /* sda: aligned */
		ev(BA_TRACE_ISSUE, 0, "W", 2049, 8, 2),	  /* sda: off */
		ev(BA_TRACE_ISSUE, 0, "W", 4096, 8, 3),	  /* past the end */
		ev(BA_TRACE_ISSUE, 0, "W", 2047, 8, 4),	  /* before */
		ev(BA_TRACE_ISSUE, 16, "R", 100, 8, 5),	  /* sdb, off 4K */
		ev(BA_TRACE_ISSUE, 16, "FWS", 199, 1, 6), /* sdb: a write */
		ev(BA_TRACE_ISSUE, 0, "W", 10001, 1, 7),  /* sda, 512e */
		ev(BA_TRACE_ISSUE, 48, "W", 2048, 8, 8),  /* another disk */
		ev(BA_TRACE_ISSUE, 16, "FF", 0, 0, 9),	  /* flush: sdb */
		ev(BA_TRACE_ISSUE, 32, "W", 7, 1, 10),	  /* sdc */
		ev(BA_TRACE_COMPLETE, 0, "W", 2048, 8, 11),
	};

	(void)state;
	for (size_t i = 0; i < sizeof(evs) / sizeof(evs[0]); i++)
		assert_int_equal(ba_trace_feed_event(t, &evs[i]), 0);
	s = blkalign_trace_summary(t);
	assert_int_equal(s->events, 8);
	assert_int_equal(s->write.requests, 5);
	assert_int_equal(s->write.bytes, (8 + 8 + 1 + 1 + 1) * 512);
	assert_int_equal(s->read.requests, 1);
	assert_int_equal(s->flush.requests, 1);
	/* 2049 (sda, 4096) and 199 (sdb) and 7 (sdc) are off their grids,
	 * 10001 on sda's 512-byte extent is not */
	assert_int_equal(s->write.off_physical, 3);
	/* the sdb read at layer byte 1 MiB + 512 is off the 4 KiB grid */
	assert_int_equal(s->read.off_page_in_layer, 1);
	assert_int_equal(s->write.off_page_in_layer, 4);
	assert_int_equal(s->write.completed, 1);
	assert_int_equal(s->nbelow, 4);
	assert_string_equal(s->below[0].name, "sda");
	assert_int_equal(s->below[0].start, 2048 * 512);
	assert_int_equal(s->below[0].size, 2048 * 512);
	assert_int_equal(s->below[0].write_requests, 2);
	assert_int_equal(s->below[0].write_bytes, 8192);
	assert_int_equal(s->below[0].off_physical, 1);
	assert_int_equal(s->below[1].read_requests, 1);
	assert_int_equal(s->below[1].read_bytes, 4096);
	assert_int_equal(s->below[1].write_requests, 1);
	assert_int_equal(s->below[1].write_bytes, 512);
	assert_int_equal(s->below[2].write_requests, 1);
	assert_int_equal(s->below[2].off_physical, 0);
	assert_int_equal(s->below[3].write_requests, 1);
	assert_int_equal(s->below[3].size, 0);
	blkalign_trace_free(t);
}

static void test_filter(void **state)
{
	struct blkalign_trace *t = three_disks();
	char *f = ba_trace_filter(t, 4000);

	(void)state;
	assert_non_null(f);
	assert_string_equal(
		f, "(dev == 8388608 && sector >= 2048 && sector < 4096) || "
		   "(dev == 8388608 && nr_sector == 0) || "
		   "(dev == 8388624 && sector >= 100 && sector < 200) || "
		   "(dev == 8388624 && nr_sector == 0) || "
		   "(dev == 8388608 && sector >= 10000 && sector < 10008) || "
		   "dev == 8388640");
	free(f);
	/* too long for the kernel: the disks alone */
	f = ba_trace_filter(t, 64);
	assert_non_null(f);
	assert_string_equal(f, "dev == 8388608 || dev == 8388624 || "
			       "dev == 8388640");
	free(f);
	blkalign_trace_free(t);
}

/* The --save header carries the extents: a replay is judged the same. */
static void test_header(void **state)
{
	struct blkalign_trace *t = three_disks(), *r = NULL;
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	t->opts.raw = f;
	ba_trace_write_header(t);
	fclose(f);
	t->opts.raw = NULL;
	assert_int_equal(blkalign_trace_new(NULL, NULL, NULL, &r), 0);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		assert_int_equal(blkalign_trace_feed(r, line), 0);
	assert_int_equal(r->next, t->next);
	for (size_t i = 0; i < t->next; i++) {
		assert_int_equal(r->ext[i].major, t->ext[i].major);
		assert_int_equal(r->ext[i].minor, t->ext[i].minor);
		assert_int_equal(r->ext[i].first, t->ext[i].first);
		assert_int_equal(r->ext[i].end, t->ext[i].end);
		assert_int_equal(r->ext[i].layer_off, t->ext[i].layer_off);
		assert_int_equal(r->ext[i].pss, t->ext[i].pss);
		assert_string_equal(r->ext[i].name, t->ext[i].name);
	}
	assert_int_equal(r->start, t->start);
	/* a malformed extent line is an error, not an extent */
	assert_int_equal(blkalign_trace_feed(r, "# blkalign-trace-extent x"),
			 -EINVAL);
	assert_int_equal(r->next, t->next);
	free(buf);
	blkalign_trace_free(r);
	blkalign_trace_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map),
		cmocka_unit_test(test_attribution),
		cmocka_unit_test(test_filter),
		cmocka_unit_test(test_header),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
