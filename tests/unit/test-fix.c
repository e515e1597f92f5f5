/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-fix.c - the pieces of `blkalign fix` that need no disk: the
 * journal file (round trip, the newest valid record wins, one damaged
 * copy of a record, the head or the header is read from the other, both
 * copies of the newest record torn fall back to the one before, damage
 * to both copies of the header is refused), the mover on a
 * regular file (both directions, step and batch mode, steps that do not
 * divide the length, the head hidden at the destination behind the
 * marker) and the FAT
 * and NTFS "hidden sectors" patch, and the channels of the I/O backend
 * (ten qcow2 images written at once).  Crashes are tested in tests/ts/fix.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xxhash.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "fix.h"

static char dir[] = "/tmp/test-fix.XXXXXX";

static void path_in(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

/* A journal for a made-up geometry: two patches, a head of 4 KiB. */
static void make_journal(struct ba_journal *j, uint8_t *blob)
{
	memset(j, 0, sizeof(*j));
	j->g.disk_size = 64 * MIB;
	j->g.lss = 512;
	j->g.number = 1;
	j->g.old_start = 63 * 512;
	j->g.old_size = 8 * MIB;
	j->g.new_start = MIB;
	j->g.new_size = 8 * MIB;
	j->g.len = 8 * MIB;
	j->g.head_len = 4096;
	j->g.step = 1016320 / 4096 * 4096;
	j->g.npatches = 2;
	j->g.chains = 1;
	j->g.region = j->g.len;
	for (int i = 0; i < 4 * 512; i++)
		blob[i] = (uint8_t)(i * 7 + 1);
	j->patches[0] = (struct ba_fix_patch){0, 512, blob, blob + 512};
	j->patches[1] =
		(struct ba_fix_patch){32256, 512, blob + 1024, blob + 1536};
	j->head = ba_file_alloc(4096);
	assert_non_null(j->head);
	memset(j->head, 0xab, 4096);
	j->st.phase = BA_PH_PREPARED;
}

/* Overwrite @len bytes at @off of the file @p with @c. */
static void damage(const char *p, uint64_t off, size_t len, uint8_t c)
{
	uint8_t junk[4096];
	int fd = open(p, O_WRONLY);

	assert_true(fd >= 0 && len <= sizeof(junk));
	memset(junk, c, len);
	assert_int_equal(pwrite(fd, junk, len, (off_t)off), (ssize_t)len);
	close(fd);
}

static uint64_t slot_off(const struct ba_journal *j, uint64_t k)
{
	return j->rec_off + 4096 * (k % BA_J_RECS);
}

static void test_journal_round_trip(void **state)
{
	struct ba_journal j, r;
	struct ba_fix_io io;
	uint8_t blob[2048], head[4096];
	uint64_t seq;
	char p[256];

	(void)state;
	memset(head, 0xab, sizeof(head)); /* make_journal's */
	ba_fix_io_init(&io, NULL);
	path_in(p, sizeof(p), "rt.journal");
	unlink(p);
	make_journal(&j, blob);
	assert_int_equal(ba_journal_create(&j, &io, p), 0);
	assert_int_equal(ba_journal_create(&j, &io, p), -EEXIST);
	j.st.phase = BA_PH_MOVING;
	j.st.from = j.g.old_start;
	j.st.to = j.g.new_start;
	j.st.hi = j.g.len;
	j.st.done = 3 * j.g.step;
	assert_int_equal(ba_journal_record(&j, NULL), 0);
	seq = j.st.seq;
	/* a second opener is refused while the journal is in use */
	assert_int_equal(ba_journal_open(&r, &io, p, false), -EBUSY);
	ba_journal_close(&j);
	assert_int_equal(ba_journal_open(&r, &io, p, true), 0);
	assert_int_equal(r.st.phase, BA_PH_MOVING);
	assert_int_equal(r.st.done, 3 * j.g.step);
	assert_int_equal(r.st.seq, seq);
	assert_int_equal(r.h.copies, 2);
	assert_int_equal(r.g.new_start, MIB);
	assert_int_equal(r.g.npatches, 2);
	assert_int_equal(r.patches[1].off, 32256);
	assert_memory_equal(r.patches[1].new, blob + 1536, 512);
	assert_memory_equal(r.head, head, 4096);
	assert_int_equal(r.h.hdr[1], BA_JC_OK);
	assert_int_equal(r.h.size, r.h.want);
	ba_journal_close(&r);

	/* one copy of the newest record damaged: the other is the state */
	damage(p, slot_off(&r, seq) + 16, 64, 0x5a);
	assert_int_equal(ba_journal_open(&r, &io, p, false), 0);
	assert_int_equal(r.st.phase, BA_PH_MOVING);
	assert_int_equal(r.h.copies, 1);
	ba_journal_close(&r);
	/* both (a crash tore them before the sync): the record before */
	damage(p, slot_off(&r, seq + 1) + 16, 64, 0x5a);
	assert_int_equal(ba_journal_open(&r, &io, p, false), 0);
	assert_int_equal(r.st.phase, BA_PH_PREPARED);
	assert_int_equal(r.st.seq, seq - 1);
	ba_journal_close(&r);

	/* header copy A damaged: copy B; head copy A damaged: copy B */
	damage(p, 100, 1, 'X');
	damage(p, r.head_p.off[0] + 8, 8, 0);
	assert_int_equal(ba_journal_open(&r, &io, p, true), 0);
	assert_int_equal(r.h.hdr[0], BA_JC_BAD);
	assert_int_equal(r.h.hdr[1], BA_JC_OK);
	assert_int_equal(r.h.head[0], BA_JC_BAD);
	assert_int_equal(r.h.head[1], BA_JC_OK);
	assert_memory_equal(r.head, head, 4096);
	ba_journal_close(&r);
	/* both head copies: no head (resume and rollback refuse) */
	damage(p, r.head_p.off[1] + 8, 8, 0);
	assert_int_equal(ba_journal_open(&r, &io, p, false), 0);
	assert_null(r.head);
	ba_journal_close(&r);
	/* both headers: not a journal, never half-trusted */
	damage(p, r.hdr_off[1] + 100, 1, 'X');
	assert_int_equal(ba_journal_open(&r, &io, p, false), -EBADMSG);
	ba_journal_close(&r);
	unlink(p);
}

struct move_row {
	const char *name;
	uint64_t from, to, len, step, head;
	bool batch;
	uint32_t chains; /* what ba_fix_chains makes of it, by hand */
};

/* Offsets in bytes on a 16 MiB file; len bytes move from `from` to `to`. */
static const struct move_row move_rows[] = {
	/* 63 -> 2048: shift 1016320, 4 KiB pieces of 1015808.  16 MiB a
	 * level: 16 chains; regions ceil(5243392 / 16) -> 1015808 (one
	 * step), < the shift: the shift rounded up to steps, 2031616;
	 * ceil(5243392 / 2031616) = 3, the last (1180160) >= the shift: 3 */
	{"right-step", 63 * 512, MIB, 5 * MIB + 512, 1015808, 4096, false, 3},
	/* steps of 12 KiB: 1365 a level -> 64 chains; 3 MiB / 64 rounded
	 * to steps = 49152 < the shift: 1019904 (83 steps); 4 regions, the
	 * last 86016 < the shift: 3 */
	{"right-step-small", 63 * 512, MIB, 3 * MIB, 12288, 65536, false, 3},
	/* 2047 -> 2048: shift 512, batches of 1 MiB: one chain */
	{"right-batch", 2047 * 512, MIB, 3 * MIB + 1536, MIB, 4096, true, 1},
	/* left by 680448 bytes (30001 -> 28672 sectors, scaled down):
	 * 24 chains of 679936; 4 MiB / 24 -> 174763 -> 679936 (one step)
	 * < the shift: 1359872; ceil(4194304 / 1359872) = 4, the last
	 * 114688 < the shift: 3 */
	{"left-step", 2 * MIB + 680448, 2 * MIB, 4 * MIB, 679936, 4096, false,
	 3},
	{"left-batch", 2 * MIB + 4096, 2 * MIB, 2 * MIB, 262144, 8192, true, 1},
	/* no overlap at all: 2 MiB < 2 x the shift: one chain */
	{"far", 0, 8 * MIB, 2 * MIB, MIB, 4096, false, 1},
};

static void fill(uint8_t *p, size_t n, uint32_t seed)
{
	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static void test_move(void **state)
{
	const struct move_row *m = *state;
	const size_t disk = 16 * MIB;
	struct blkalign_fix_opts o = {.size = sizeof(o)};
	struct ba_fix_run r = {0};
	struct ba_journal j;
	struct ba_file dev;
	struct ba_fix_io io;
	uint8_t *orig = malloc(disk), *after = malloc(disk);
	char dp[256], jp[256];
	int fd;

	assert_non_null(orig);
	assert_non_null(after);
	fill(orig, disk, 42);
	path_in(dp, sizeof(dp), "disk");
	path_in(jp, sizeof(jp), "move.journal");
	unlink(jp);
	fd = open(dp, O_RDWR | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, orig, disk), (ssize_t)disk);
	close(fd);
	ba_fix_io_init(&io, NULL);
	assert_int_equal(ba_file_open(&dev, &io, BLKALIGN_FIX_FILE_TARGET, dp,
				      O_RDWR, false),
			 0);

	memset(&j, 0, sizeof(j));
	j.g.disk_size = disk;
	j.g.lss = 512;
	j.g.number = 1;
	j.g.old_start = m->from;
	j.g.new_start = m->to;
	j.g.old_size = j.g.new_size = j.g.len = m->len;
	j.g.head_len = m->head;
	j.g.step = m->step;
	j.g.batch = m->batch;
	j.head = ba_file_alloc(m->head);
	assert_non_null(j.head);
	memcpy(j.head, orig + m->from, m->head);
	ba_fix_chains(&j.g);
	assert_int_equal(j.g.chains, m->chains);
	if (ba_fix_bound_len(&j.g)) {
		struct ba_fix_run tmp = {.dev = &dev, .j = &j};

		j.bound = ba_file_alloc(ba_fix_bound_len(&j.g));
		assert_non_null(j.bound);
		assert_int_equal(ba_fix_read_bounds(&tmp, m->to > m->from,
						    m->from, j.bound),
				 0);
		/* what fix.c records: the move reads them back by it */
		j.g.bound_hash =
			XXH3_64bits(j.bound, (size_t)ba_fix_bound_len(&j.g));
	}
	j.st.phase = BA_PH_MOVING;
	j.st.from = m->from;
	j.st.to = m->to;
	j.st.lo = 0;
	j.st.hi = m->len;
	assert_int_equal(ba_journal_create(&j, &io, jp), 0);
	r.dev = &dev;
	r.j = &j;
	r.opts = &o;
	r.total = m->len;
	assert_int_equal(ba_fix_move(&r, BA_PH_FINISH), 0);
	assert_int_equal(j.st.phase, BA_PH_FINISH);
	assert_int_equal(r.moved, m->len);
	ba_file_close(&dev);

	fd = open(dp, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(read(fd, after, disk), (ssize_t)disk);
	close(fd);
	/* the head hidden at the destination (the marker, zeros), the rest
	 * is the source's */
	{
		uint8_t *hidden = calloc(1, m->head);

		assert_non_null(hidden);
		ba_fix_hide_head(&j.g, hidden, 0, m->head);
		assert_memory_equal(hidden, BA_FIX_MARKER "\n",
				    sizeof(BA_FIX_MARKER));
		assert_memory_equal(after + m->to, hidden, m->head);
		free(hidden);
	}
	assert_memory_equal(after + m->to + m->head, orig + m->from + m->head,
			    m->len - m->head);
	/* nothing outside both ranges changed */
	for (uint64_t i = 0; i < disk; i++) {
		bool in = (i >= m->from && i < m->from + m->len) ||
			  (i >= m->to && i < m->to + m->len);

		if (!in && after[i] != orig[i])
			fail_msg("%s: byte %llu outside the move changed",
				 m->name, (unsigned long long)i);
	}
	ba_journal_close(&j);
	unlink(jp);
	unlink(dp);
	free(orig);
	free(after);
}

struct fat_row {
	const char *name;
	const char *content;
	uint16_t root_entries, fat16_sectors;
	uint32_t hidden;
	uint32_t want_kind;
};

static const struct fat_row fat_rows[] = {
	{"fat16", "vfat", 512, 32, 63, BA_FIX_FS_FAT},
	{"fat32", "vfat", 0, 0, 63, BA_FIX_FS_FAT32},
	{"ntfs", "ntfs", 0, 0, 63, BA_FIX_FS_NTFS},
	/* hidden sectors not the partition's start: left alone */
	{"fat-hidden-0", "vfat", 512, 32, 0, BA_FIX_FS_NONE},
	{"ext4", "ext4", 0, 0, 63, BA_FIX_FS_NONE},
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void test_fat(void **state)
{
	const struct fat_row *f = *state;
	struct ba_journal j;
	uint8_t head[8192] = {0};

	put16(head + 0x0b, 512);
	put16(head + 0x11, f->root_entries);
	put16(head + 0x16, f->fat16_sectors);
	put32(head + 0x1c, f->hidden);
	put16(head + 0x32, 6); /* FAT32: backup boot sector at 6 */
	memcpy(head + 6 * 512, head, 512);
	assert_int_equal(
		ba_fix_fs_patch_kind(f->content, head, sizeof(head), 63 * 512),
		f->want_kind);
	memset(&j, 0, sizeof(j));
	j.g.fs_patch = f->want_kind;
	j.g.head_len = sizeof(head);
	ba_fix_patch_head(&j, head, 2048 * 512);
	assert_int_equal(get32(head + 0x1c), f->want_kind ? 2048 : f->hidden);
	assert_int_equal(get32(head + 6 * 512 + 0x1c),
			 f->want_kind == BA_FIX_FS_FAT32 ? 2048 : f->hidden);
}

/* A (tiny) NTFS whose backup boot sector, its last sector, is inside the
 * head: patched there too (bigger ones: tests/ts/fix/ntfs). */
static void test_ntfs_backup_in_head(void **state)
{
	struct ba_journal j;
	uint8_t head[8192] = {0};

	(void)state;
	memcpy(head + 3, "NTFS    ", 8);
	put16(head + 0x0b, 512);
	put32(head + 0x1c, 63);
	put32(head + 0x28, 11); /* total sectors: backup at sector 11 */
	memcpy(head + 11 * 512, head, 512);
	memset(&j, 0, sizeof(j));
	j.g.fs_patch = BA_FIX_FS_NTFS;
	j.g.head_len = sizeof(head);
	j.g.len = 12 * 512;
	ba_fix_patch_head(&j, head, 2048 * 512);
	assert_int_equal(get32(head + 0x1c), 2048);
	assert_int_equal(get32(head + 11 * 512 + 0x1c), 2048);
	assert_memory_equal(head, head + 11 * 512, 512);
}

/* exFAT's boot checksum as the spec's BootChecksum pseudo-code writes it
 * (sectors 0-10, VolumeFlags and PercentInUse left out), over sectors of
 * 512 bytes: the test's own, not the library's. */
static uint32_t exfat_sum(const uint8_t *r)
{
	uint32_t c = 0;

	for (int i = 0; i < 11 * 512; i++)
		if (i != 106 && i != 107 && i != 112)
			c = (c << 31 | c >> 1) + r[i];
	return c;
}

/* A boot region at @r: signature, 512-byte sectors, @off as
 * PartitionOffset, some other fields, its checksum sector. */
static void exfat_region(uint8_t *r, uint64_t off)
{
	uint32_t c;

	memcpy(r + 3, "EXFAT   ", 8);
	for (int i = 0; i < 8; i++)
		r[0x40 + i] = (uint8_t)(off >> (8 * i));
	put32(r + 0x50, 2048); /* FatOffset */
	r[106] = 0x02;	       /* VolumeFlags: not in the sum */
	r[108] = 9;	       /* BytesPerSectorShift */
	r[109] = 3;
	r[112] = 42; /* PercentInUse: not in the sum */
	r[510] = 0x55, r[511] = 0xaa;
	c = exfat_sum(r);
	for (int i = 0; i < 512; i += 4)
		put32(r + 11 * 512 + i, c);
}

/* exFAT: PartitionOffset (sectors) moved in both boot regions and their
 * checksums made again; patched only when it held the old start; a
 * region whose checksum was already wrong is left as it was. */
static void test_exfat(void **state)
{
	static uint8_t head[32768], before[32768];
	struct ba_journal j;

	(void)state;
	memset(head, 0, sizeof(head));
	exfat_region(head, 63);
	exfat_region(head + 12 * 512, 63);
	assert_int_equal(
		ba_fix_fs_patch_kind("exfat", head, sizeof(head), 63 * 512),
		BA_FIX_FS_EXFAT);
	assert_int_equal(
		ba_fix_fs_patch_kind("exfat", head, sizeof(head), 64 * 512),
		BA_FIX_FS_NONE);
	memset(&j, 0, sizeof(j));
	j.g.fs_patch = BA_FIX_FS_EXFAT;
	j.g.head_len = sizeof(head);
	ba_fix_patch_head(&j, head, 2048 * 512);
	for (int k = 0; k < 2; k++) {
		const uint8_t *r = head + k * 12 * 512;

		assert_int_equal(get32(r + 0x40), 2048);
		assert_int_equal(get32(r + 0x44), 0);
		assert_int_equal(get32(r + 11 * 512), exfat_sum(r));
		assert_int_equal(get32(r + 11 * 512 + 508), exfat_sum(r));
		assert_int_equal(r[112], 42);
	}
	/* 0 ("ignore it") is not the start: left alone */
	memset(head, 0, sizeof(head));
	exfat_region(head, 0);
	assert_int_equal(
		ba_fix_fs_patch_kind("exfat", head, sizeof(head), 63 * 512),
		BA_FIX_FS_NONE);
	/* a backup region with a bad checksum is not made to look good */
	memset(head, 0, sizeof(head));
	exfat_region(head, 63);
	exfat_region(head + 12 * 512, 63);
	head[12 * 512 + 200] ^= 1;
	memcpy(before, head, sizeof(head));
	ba_fix_patch_head(&j, head, 2048 * 512);
	assert_int_equal(get32(head + 0x40), 2048);
	assert_memory_equal(head + 12 * 512, before + 12 * 512, 12 * 512);
}

/* ------------------------------------------------------------------ */
/* channels: a backend names each open file by its own handle */

#define NIMAGES 10 /* more than the 8 a table of channels once held */

struct seen {
	const struct blkalign_fix_channel *ch[NIMAGES];
	int fd[NIMAGES];
	size_t n;
};

static int rec_write(void *data, enum blkalign_fix_file file,
		     struct blkalign_fix_channel *ch, const void *buf,
		     size_t len, uint64_t off)
{
	struct seen *s = data;

	if (s->n < NIMAGES) {
		s->ch[s->n] = ch;
		s->fd[s->n++] = blkalign_fix_channel_fd(ch);
	}
	return blkalign_fix_io_default()->write(NULL, file, ch, buf, len, off);
}

static int rec_read(void *data, enum blkalign_fix_file file,
		    struct blkalign_fix_channel *ch, void *buf, size_t len,
		    uint64_t off)
{
	(void)data;
	return blkalign_fix_io_default()->read(NULL, file, ch, buf, len, off);
}

static int rec_flush(void *data, enum blkalign_fix_file file,
		     struct blkalign_fix_channel *ch)
{
	(void)data;
	return blkalign_fix_io_default()->flush(NULL, file, ch);
}

static int run(const char *const argv[])
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st)
		       ? WEXITSTATUS(st)
		       : -1;
}

/*
 * Ten qcow2 images open for writing at once, each written through its
 * channel (the default backend writes the NBD export the channel holds),
 * then read back through a fresh qemu-nbd: the bytes are in each disk
 * image, at its own offset, and the backend saw one channel per file,
 * whose descriptor is the one the file holds.
 */
static void test_channels(void **state)
{
	struct blkalign_fix_io ops = BLKALIGN_FIX_IO_INIT;
	struct ba_file f[NIMAGES];
	struct seen seen = {0};
	struct ba_fix_io io;
	char path[NIMAGES][256], why[256];
	uint8_t *buf = ba_file_alloc(4096), *back = ba_file_alloc(4096);

	(void)state;
	assert_true(buf && back);
	ops.data = &seen;
	ops.read = rec_read;
	ops.write = rec_write;
	ops.flush = rec_flush;
	ba_fix_io_init(&io, &ops);
	for (int i = 0; i < NIMAGES; i++) {
		char name[32];
		const char *argv[] = {"qemu-img", "create", "-q", "-f",
				      "qcow2",	  path[i],  "1M", NULL};

		snprintf(name, sizeof(name), "chan%d.qcow2", i);
		path_in(path[i], sizeof(path[i]), name);
		if (run(argv)) {
			print_message("[  SKIP    ] qemu-img cannot make "
				      "an image here\n");
			skip();
		}
	}
	for (int i = 0; i < NIMAGES; i++) {
		int rc = ba_file_open_target(&f[i], &io, path[i], true, why,
					     sizeof(why));

		if (rc)
			fail_msg("image %d: %s (%s)", i, strerror(-rc), why);
		assert_non_null(f[i].nbd);
	}
	for (int i = 0; i < NIMAGES; i++) {
		memset(buf, 'a' + i, 4096);
		assert_int_equal(ba_file_write(&f[i], buf, 4096, 4096 * i), 0);
		assert_int_equal(ba_file_flush(&f[i]), 0);
		assert_int_equal(seen.fd[i], f[i].fd);
		for (int k = 0; k < i; k++)
			assert_ptr_not_equal(seen.ch[k], seen.ch[i]);
	}
	assert_int_equal(seen.n, NIMAGES);
	for (int i = 0; i < NIMAGES; i++)
		ba_file_close(&f[i]);
	for (int i = 0; i < NIMAGES; i++) {
		struct ba_file g;

		assert_int_equal(ba_file_open_target(&g, &io, path[i], false,
						     why, sizeof(why)),
				 0);
		assert_int_equal(ba_file_read(&g, back, 4096, 4096 * i), 0);
		memset(buf, 'a' + i, 4096);
		assert_memory_equal(back, buf, 4096);
		ba_file_close(&g);
		unlink(path[i]);
	}
	free(buf);
	free(back);
}

int main(void)
{
	const struct CMUnitTest journal[] = {
		cmocka_unit_test(test_journal_round_trip),
		cmocka_unit_test(test_ntfs_backup_in_head),
		cmocka_unit_test(test_exfat),
		cmocka_unit_test(test_channels),
	};
	int failed;

	if (!mkdtemp(dir))
		return 1;
	failed = cmocka_run_group_tests(journal, NULL, NULL);
	failed += RUN_TABLE(test_move, move_rows);
	failed += RUN_TABLE(test_fat, fat_rows);
	rmdir(dir);
	return failed;
}
