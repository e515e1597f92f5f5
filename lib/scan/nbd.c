/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nbd.c - the NBD source of the scan: a disk image in a format qemu reads
 * (qcow2, vmdk, vhdx, vpc, vdi, qed), served by a private qemu-nbd
 * (qemu-nbd.c starts it by socket activation; read-only but for fix), or
 * an NBD URI (nbd://, nbd+unix://...) that libnbd connects to.
 *
 * libblkid reads through a file descriptor, so the bytes read from the
 * export land in a memfd of the export's size: sparse, so its unread
 * ranges cost nothing and read as zeros.  Our own parsers read through
 * struct ba_io, whose nbd backend fetches every range they ask for
 * before reading it from the memfd, so they see exactly the export.
 * libblkid cannot tell us what it is about to read, so the memfd is
 * filled before each probe with what libblkid's probers read of a
 * region: its first and last MiB (ba_io_expose()).  Before the partition
 * table is read, ba_nbd_prepare() fills the first and last MiB of the
 * disk, runs our dos walk and GPT check through the backend (every EBR
 * of the chain and both GPT headers and entry arrays, wherever they
 * are), then probes partitions with libblkid and fills the head and tail
 * of each partition it finds until a pass fetches nothing new (BSD or
 * Solaris labels nested in dos slices).  Reads stay bounded by that:
 * a few MiB per partition, never the whole disk.  Every byte fetched is
 * fetched once; their count is the device's bytes_read.  What the
 * export's block status says reads as zeros is not fetched (fetch()).
 *
 * A plain image in a format blkalign reads itself (vdisk.h) is not
 * served by qemu-nbd for check: ba_nbd_open_local() puts our own reader,
 * in its sandboxed child (vdisk-child.c), where the server was, and
 * fetch() reads the disk through it into the same memfd, by the same
 * rules (the format's tables say which ranges read as zeros, as block
 * status would).  Nothing else changes: the probe, the bounds, the
 * counts.  A fetch that fails there, or from the qemu-nbd of an image,
 * is remembered (ba_nbd_broken): the scan's record of such an image is
 * worth nothing, and the caller starts it over through qemu-nbd (our
 * reader gave up on a table entry) or fails the target.
 *
 * libnbd can block in a connect, a handshake or a read from a server
 * that does not answer: everything goes through its asynchronous calls
 * and nbd_poll() with a timeout.  The qemu-nbd child exits when its one
 * client goes; ba_nbd_close() waits for it, and kills one that does not
 * exit, on every path.
 */
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libnbd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "scan/scan.h"
#include "nbd-dl.h"
#include "ptable.h"
#include "vdisk.h"

#define CONNECT_TIMEOUT_MS 10000
#define READ_TIMEOUT_MS	   30000
#define FILL_ALIGN	   (4 * KIB) /* fetch whole 4 KiB blocks */
#define FETCH_MAX	   (4 * MIB) /* bytes per NBD read */
#define EXPOSE_BYTES	   MIB	     /* a region's head and tail */
#define PREPARE_PASSES	   16

struct ba_nbd {
	struct nbd_handle *h;
	int memfd;
	uint64_t size;
	uint64_t fetched; /* bytes read from the export */
	uint64_t skipped; /* asked for, not read: the export said zeros */
	int status; /* base:allocation: 0 not asked yet, 1 usable, -1 not */
	int failed; /* -ETIMEDOUT: a command may still be answered */
	struct ba_nbd_range {
		uint64_t start, end;
	} * have; /* in the memfd: sorted, disjoint, not adjacent */
	size_t nhave, cap;
	int errfd;		   /* qemu-nbd's stderr, to say why it failed */
	struct ba_qemu_nbd server; /* our qemu-nbd child, if any */
	/* or our own reader of the image file (no handle then) */
	struct ba_vdisk_child *vc;
	int lock_fd; /* the image, holding qemu's read locks */
	int broken;  /* BA_NBD_GAVE_UP, BA_NBD_FAILED: the first failure */
	char broken_why[512];
};

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int nbd_rc(void)
{
	int e = sym_nbd_get_errno();

	return e > 0 ? -e : -EIO;
}

/*
 * Run the state machine until the handshake is done (@cookie 0) or
 * command @cookie completes, for at most @timeout_ms.
 * Returns: 0, -ETIMEDOUT or -errno (nbd_get_error() says more).
 */
static int wait_for(struct nbd_handle *h, int64_t cookie, int timeout_ms)
{
	int64_t end = now_ms() + timeout_ms;

	for (;;) {
		int64_t left;
		int r;

		if (cookie) {
			r = sym_nbd_aio_command_completed(h, (uint64_t)cookie);
			if (r == 1)
				return 0;
			if (r < 0)
				return nbd_rc();
		} else if (sym_nbd_aio_is_ready(h)) {
			return 0;
		} else if (sym_nbd_aio_is_dead(h) || sym_nbd_aio_is_closed(h)) {
			return -ECONNRESET;
		}
		left = end - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		if (sym_nbd_poll(h, (int)left) < 0)
			return nbd_rc();
	}
}

/* "why": libnbd's last error, else strerror(-@rc), into @why. */
static void say_nbd(char *why, size_t len, int rc)
{
	const char *e = rc == -ETIMEDOUT ? NULL : sym_nbd_get_error();

	if (rc == -ETIMEDOUT)
		snprintf(why, len, "no answer from the NBD server within %d s",
			 CONNECT_TIMEOUT_MS / 1000);
	else
		snprintf(why, len, "%s", e && *e ? e : strerror(-rc));
}

/**
 * ba_nbd_close: disconnect, stop the qemu-nbd child (if any) and wait for
 * it, and free @n.  NULL is a no-op.
 */
void ba_nbd_close(struct ba_nbd *n)
{
	if (!n)
		return;
	/* the child exits when its one client goes: give it a moment */
	if (n->h)
		sym_nbd_close(n->h);
	ba_qemu_nbd_stop(&n->server, 2000);
	ba_vdisk_child_close(n->vc);
	if (n->lock_fd >= 0)
		close(n->lock_fd);
	if (n->memfd >= 0)
		close(n->memfd);
	if (n->errfd >= 0)
		close(n->errfd);
	free(n->have);
	free(n);
}

/*
 * A connection to be made: libnbd loaded (nbd-dl.c; @what needs it) and
 * a handle.  Returns: 0 with @out set, or -errno with why in @why.
 */
static int nbd_new(const char *what, struct ba_nbd **out, char *why, size_t len)
{
	struct ba_nbd *n;
	int rc = ba_nbd_dl_load(what, why, len);

	*out = NULL;
	if (rc)
		return rc;
	n = calloc(1, sizeof(*n));
	if (n)
		n->h = sym_nbd_create();
	if (!n || !n->h) {
		free(n);
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	n->memfd = -1;
	n->errfd = -1;
	n->lock_fd = -1;
	/*
	 * Ask for block status (fetch() reads no range the export says
	 * reads as zeros); a server without it connects all the same and
	 * is read as before.  The call only fails without memory.
	 */
	if (sym_nbd_add_meta_context(n->h, LIBNBD_CONTEXT_BASE_ALLOCATION) < 0)
		n->status = -1;
	*out = n;
	return 0;
}

/* The memfd of the export's @size. */
static int make_memfd(struct ba_nbd *n, int64_t size, char *why, size_t len)
{
	n->size = (uint64_t)size;
	n->memfd = memfd_create("blkalign-nbd", MFD_CLOEXEC);
	if (n->memfd < 0 || ftruncate(n->memfd, (off_t)size) < 0) {
		int rc = -errno;

		snprintf(why, len,
			 "cannot make a memory file of %" PRId64 " bytes: %s",
			 size, strerror(-rc));
		return rc;
	}
	return 0;
}

/* After the handshake: the export's size and the memfd of that size. */
static int attach(struct ba_nbd *n, char *why, size_t len)
{
	int64_t size = sym_nbd_get_size(n->h);

	if (size < 0) {
		say_nbd(why, len, nbd_rc());
		return -EIO;
	}
	return make_memfd(n, size, why, len);
}

/**
 * ba_nbd_open_local: read the image file open as @fd (@size bytes, in
 * the format qemu calls @format) with blkalign's own reader (vdisk.h) in
 * its sandboxed child, under qemu's read lock (ba_vdisk_lock).  @fd is
 * the caller's: a duplicate is kept.
 * Returns: 0 with @out set; -ENOTSUP when the reader leaves the image
 * to qemu, -EBUSY when a qemu writes it, -EINVAL when it looks damaged,
 * -ENOSYS when its sandbox cannot run here (each: let qemu-nbd read it,
 * or say why it cannot); -ECHILD when the
 * reader's child died or broke its protocol (a bug of ours: the target
 * fails); -errno; why (one line) in @why.
 */
int ba_nbd_open_local(int fd, uint64_t size, const char *format,
		      struct ba_nbd **out, char *why, size_t len)
{
	struct ba_nbd *n = calloc(1, sizeof(*n));
	uint64_t vsize = 0;
	int rc;

	*out = NULL;
	if (!n) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	n->memfd = -1;
	n->errfd = -1;
	n->status = -1;
	n->lock_fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	rc = n->lock_fd < 0 ? -errno : ba_vdisk_lock(n->lock_fd);
	if (rc) {
		snprintf(why, len, "%s",
			 rc == -EBUSY ? "a qemu has it open for writing"
				      : strerror(-rc));
		goto out;
	}
	rc = ba_vdisk_child_open(n->lock_fd, size, format, &n->vc, &vsize, why,
				 len);
	if (!rc)
		rc = make_memfd(n, (int64_t)vsize, why, len);
out:
	if (rc) {
		ba_nbd_close(n);
		return rc;
	}
	*out = n;
	return 0;
}

/** ba_nbd_reader: who reads the export: "blkalign", "qemu-nbd", "nbd". */
const char *ba_nbd_reader(const struct ba_nbd *n)
{
	return n->vc ? "blkalign" : n->server.pid ? "qemu-nbd" : "nbd";
}

/* @name on $PATH, as execvp would find it. */
static bool on_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t k = strcspn(path, ":");

		if (snprintf(buf, sizeof(buf), "%.*s/%s", (int)k,
			     k ? path : ".", name) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		path += k + (path[k] == ':');
	}
	return false;
}

/*
 * qemu's --image-opts value for @file: the driver given, the file opened
 * by the file protocol whatever its name says (a name with a colon is
 * not parsed as a protocol), commas doubled as qemu's option syntax
 * wants.  NULL when out of memory.
 */
static char *image_opts(const char *format, const char *file, bool writable)
{
	size_t n = strlen(file), k = 0;
	char *esc = malloc(2 * n + 1), *out = NULL;

	if (!esc)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		esc[k++] = file[i];
		if (file[i] == ',')
			esc[k++] = ',';
	}
	esc[k] = '\0';
	if (asprintf(&out,
		     "driver=%s,read-only=%s,file.driver=file,"
		     "file.filename=%s",
		     format, writable ? "off" : "on", esc) < 0)
		out = NULL;
	free(esc);
	return out;
}

/**
 * ba_nbd_open_image: serve the image file @path of format @format
 * (qemu's driver name) by a private qemu-nbd and connect to it: read-only
 * unless @writable (fix), then qemu-nbd takes qemu's write lock on the
 * image, and refuses while a VM or another qemu has it.
 * Returns: 0 with @out set, or -errno with why (one line) in @why.
 */
int ba_nbd_open_image(const char *path, const char *format, bool writable,
		      struct ba_nbd **out, char *why, size_t len)
{
	char *argv[5], *opts, what[64];
	struct ba_nbd *n = NULL;
	size_t k = 0;
	int rc;

	*out = NULL;
	if (!on_path("qemu-nbd")) {
		snprintf(why, len,
			 "qemu-nbd is not installed (Debian: qemu-utils); "
			 "it reads %s images",
			 format);
		return -ENOENT;
	}
	snprintf(what, sizeof(what), "%s images", format);
	rc = nbd_new(what, &n, why, len);
	if (rc)
		return rc;
	opts = image_opts(format, path, writable);
	argv[k++] = "qemu-nbd";
	if (!writable)
		argv[k++] = "--read-only";
	argv[k++] = "--image-opts";
	argv[k++] = opts;
	argv[k] = NULL;
	if (!opts) {
		rc = -ENOMEM;
		snprintf(why, len, "out of memory");
		goto out;
	}
	/* qemu-nbd's stderr: what it says when it cannot open the image */
	n->errfd = memfd_create("blkalign-qemu-nbd-stderr", MFD_CLOEXEC);
	rc = ba_qemu_nbd_start(argv, n->errfd, &n->server, why, len);
	if (rc)
		goto out;
	rc = sym_nbd_aio_connect_unix(n->h, n->server.sock) < 0
		     ? nbd_rc()
		     : wait_for(n->h, 0, CONNECT_TIMEOUT_MS);
	ba_qemu_nbd_unlink(&n->server);
	if (rc) {
		/* let qemu-nbd finish its message (a hung one is killed) */
		sym_nbd_close(n->h);
		n->h = NULL;
		ba_qemu_nbd_stop(&n->server, rc == -ETIMEDOUT ? 0 : 5000);
		if (!ba_qemu_nbd_said(n->errfd, opts, path, why, len))
			say_nbd(why, len, rc);
		goto out;
	}
	rc = attach(n, why, len);
out:
	free(opts);
	if (rc) {
		ba_nbd_close(n);
		return rc;
	}
	*out = n;
	return 0;
}

/**
 * ba_nbd_is_uri: @target names an NBD export (nbd://, nbds://,
 * nbd+unix://, nbds+unix://, nbd+vsock://, nbds+vsock://).
 */
bool ba_nbd_is_uri(const char *target)
{
	static const char *const schemes[] = {
		"nbd://",	"nbds://",	"nbd+unix://",
		"nbds+unix://", "nbd+vsock://", "nbds+vsock://",
	};

	for (size_t i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (!strncmp(target, schemes[i], strlen(schemes[i])))
			return true;
	return false;
}

/**
 * ba_nbd_open_uri: connect to the NBD export @uri (read-only: nothing
 * but reads is ever sent).
 * Returns: 0 with @out set, or -errno with why (one line) in @why.
 */
int ba_nbd_open_uri(const char *uri, struct ba_nbd **out, char *why, size_t len)
{
	struct ba_nbd *n;
	int rc = nbd_new("NBD exports", &n, why, len);

	*out = NULL;
	if (rc)
		return rc;
	if (!sym_nbd_supports_uri(n->h)) {
		snprintf(why, len, "this libnbd cannot parse NBD URIs");
		rc = -ENOTSUP;
		goto out;
	}
	rc = sym_nbd_aio_connect_uri(n->h, uri) < 0
		     ? nbd_rc()
		     : wait_for(n->h, 0, CONNECT_TIMEOUT_MS);
	if (rc) {
		say_nbd(why, len, rc);
		goto out;
	}
	rc = attach(n, why, len);
out:
	if (rc) {
		ba_nbd_close(n);
		return rc;
	}
	*out = n;
	return 0;
}

uint64_t ba_nbd_size(const struct ba_nbd *n)
{
	return n->size;
}

uint64_t ba_nbd_bytes_read(const struct ba_nbd *n)
{
	return n->fetched;
}

/* The memfd holding what was fetched: libblkid reads it. */
int ba_nbd_fd(const struct ba_nbd *n)
{
	return n->memfd;
}

/* Record [start, end) as in the memfd, merging with its neighbours. */
static int have_add(struct ba_nbd *n, uint64_t start, uint64_t end)
{
	size_t i = 0, j;

	while (i < n->nhave && n->have[i].end < start)
		i++;
	j = i;
	while (j < n->nhave && n->have[j].start <= end) {
		if (n->have[j].start < start)
			start = n->have[j].start;
		if (n->have[j].end > end)
			end = n->have[j].end;
		j++;
	}
	if (i == j) {
		if (n->nhave == n->cap) {
			size_t cap = n->cap ? 2 * n->cap : 16;
			void *p = realloc(n->have, cap * sizeof(*n->have));

			if (!p)
				return -ENOMEM;
			n->have = p;
			n->cap = cap;
		}
		memmove(n->have + i + 1, n->have + i,
			(n->nhave - i) * sizeof(*n->have));
		n->nhave++;
		j = i + 1;
	}
	n->have[i].start = start;
	n->have[i].end = end;
	memmove(n->have + i + 1, n->have + j,
		(n->nhave - j) * sizeof(*n->have));
	n->nhave -= j - i - 1;
	return 0;
}

static int pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t w = pwrite(fd, (const char *)buf + done, len - done,
				   (off_t)(off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		done += (size_t)w;
	}
	return 0;
}

#define STATUS_MAX     (1024 * MIB) /* bytes per NBD block status request */
#define STATUS_EXTENTS 64	    /* extents kept from one reply */

/* Bytes of the ranges asked for that the export said read as zeros. */
uint64_t ba_nbd_bytes_skipped(const struct ba_nbd *n)
{
	return n->skipped;
}

/*
 * Wait for the @k commands in @cookies; the first error, or 0.  A command
 * that timed out may be answered later, into a buffer or a reply that is
 * gone by then: the handle is not polled again, every later command
 * fails.
 */
static int wait_all(struct ba_nbd *n, const int64_t *cookies, size_t k,
		    int timeout_ms)
{
	int rc = 0;

	for (size_t i = 0; i < k && rc != -ETIMEDOUT; i++) {
		int r = wait_for(n->h, cookies[i], timeout_ms);

		if (r && !rc)
			rc = r;
	}
	if (rc == -ETIMEDOUT)
		n->failed = rc;
	return rc;
}

/* Wait for @cookie (an nbd_aio_* result: < 0 is its error) for
 * READ_TIMEOUT_MS. */
static int wait_cmd(struct ba_nbd *n, int64_t cookie)
{
	return cookie < 0 ? nbd_rc() : wait_all(n, &cookie, 1, READ_TIMEOUT_MS);
}

/* Read [start, end) from the export into the memfd, all of it. */
static int read_range(struct ba_nbd *n, uint64_t start, uint64_t end, void *buf)
{
	for (uint64_t at = start; at < end;) {
		size_t k =
			end - at < FETCH_MAX ? (size_t)(end - at) : FETCH_MAX;
		int rc;

		rc = wait_cmd(n, sym_nbd_aio_pread(n->h, buf, k, at,
						   NBD_NULL_COMPLETION, 0));
		if (rc)
			return rc;
		rc = pwrite_full(n->memfd, buf, k, at);
		if (rc)
			return rc;
		n->fetched += k;
		at += k;
	}
	return 0;
}

/*
 * What one base:allocation reply said of [at, end): its first
 * extents from @at (merged when alike, cut at @end), and whether each
 * reads as zeros.
 */
struct status_reply {
	uint64_t at, end;
	bool got;
	size_t n;
	struct {
		uint64_t end;
		bool zero;
	} ext[STATUS_EXTENTS];
};

/* libnbd's extent callback: fill the status_reply @data. */
static int status_extents(void *data, const char *context, uint64_t offset,
			  uint32_t *entries, size_t nr_entries, int *error)
{
	struct status_reply *r = data;
	uint64_t at = r->at;

	(void)error;
	/* a buggy server may answer twice, or for another context */
	if (r->got || strcmp(context, LIBNBD_CONTEXT_BASE_ALLOCATION) ||
	    offset != r->at)
		return 0;
	r->got = true;
	for (size_t i = 0; i + 1 < nr_entries && at < r->end; i += 2) {
		bool zero = entries[i + 1] & LIBNBD_STATE_ZERO;
		uint64_t len = entries[i];

		if (len == 0)
			break;
		/* the last extent may reach past the range asked for */
		at = len < r->end - at ? at + len : r->end;
		if (r->n && r->ext[r->n - 1].zero == zero) {
			r->ext[r->n - 1].end = at;
			continue;
		}
		if (r->n == STATUS_EXTENTS)
			break; /* the rest is asked again */
		r->ext[r->n].end = at;
		r->ext[r->n].zero = zero;
		r->n++;
	}
	return 0;
}

/*
 * Block status of [at, end) (at most STATUS_MAX of it) into @r.
 * Returns: 0 or -errno (an error reply, or the connection's).
 */
static int status_of(struct ba_nbd *n, uint64_t at, uint64_t end,
		     struct status_reply *r)
{
	uint64_t count = end - at < STATUS_MAX ? end - at : STATUS_MAX;
	nbd_extent_callback cb = {.callback = status_extents, .user_data = r};

	memset(r, 0, sizeof(*r));
	r->at = at;
	r->end = at + count;
	return wait_cmd(n, sym_nbd_aio_block_status(n->h, count, at, cb,
						    NBD_NULL_COMPLETION, 0));
}

/*
 * [start, end) reads as zeros in the export: make sure it does in the
 * memfd (a range forgotten, or written halfway by a fetch that failed,
 * may hold bytes) without writing any; read it if that fails.
 */
static int zero_range(struct ba_nbd *n, uint64_t start, uint64_t end, void *buf)
{
	if (fallocate(n->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		      (off_t)start, (off_t)(end - start)) < 0)
		return read_range(n, start, end, buf);
	n->skipped += end - start;
	return 0;
}

/*
 * Fetch what the block status reply @r covers of [r->at, end): zero
 * extents are skipped in the whole 4 KiB blocks they cover, the rest
 * is read.
 * Returns: where the next reply must start, or -errno.
 */
static int64_t fetch_covered(struct ba_nbd *n, const struct status_reply *r,
			     uint64_t end, void *buf)
{
	uint64_t pos = r->at, from = r->at, next;
	int rc;

	for (size_t i = 0; i < r->n; i++) {
		uint64_t zs = (from + FILL_ALIGN - 1) / FILL_ALIGN * FILL_ALIGN;
		uint64_t ze = r->ext[i].end == end
				      ? end
				      : r->ext[i].end / FILL_ALIGN * FILL_ALIGN;

		if (r->ext[i].zero && zs < ze) {
			rc = read_range(n, pos, zs, buf);
			if (!rc)
				rc = zero_range(n, zs, ze, buf);
			if (rc)
				return rc;
			pos = ze;
		}
		from = r->ext[i].end;
	}
	/*
	 * Read up to the last whole block the reply covers; the rest is
	 * asked again.  A reply that covers less than a block is read to
	 * the block's end, so that every reply makes progress.
	 */
	next = from == end ? end : from / FILL_ALIGN * FILL_ALIGN;
	if (next <= r->at) {
		next = (from + FILL_ALIGN - 1) / FILL_ALIGN * FILL_ALIGN;
		if (next > end)
			next = end;
	}
	if (next < pos)
		next = pos;
	rc = read_range(n, pos, next, buf);
	return rc ? rc : (int64_t)next;
}

/* A piece our reader's child sent: into the memfd, or skipped as zeros
 * (the memfd reads as zeros where nothing was written: ranges are never
 * forgotten here, as this source takes no writes). */
static int put_local(void *arg, uint64_t off, const void *data, size_t len)
{
	struct ba_nbd *n = arg;
	int rc = data ? pwrite_full(n->memfd, data, len, off) : 0;

	if (!rc)
		*(data ? &n->fetched : &n->skipped) += len;
	return rc;
}

/* The first failure of the image under the scan, for ba_nbd_broken. */
static void broke(struct ba_nbd *n, int how, const char *why)
{
	if (n->broken)
		return;
	n->broken = how;
	snprintf(n->broken_why, sizeof(n->broken_why), "%s", why);
}

/**
 * ba_nbd_broken: whether reading the image behind @n failed under the
 * scan, which then saw an incomplete disk: BA_NBD_GAVE_UP (our reader
 * cannot vouch for a table entry: qemu's turn), BA_NBD_FAILED (our
 * reader's child died, or qemu-nbd failed a read), with why in @why;
 * 0 when all went well, or for an NBD URI (its reads fail as a disk's).
 */
int ba_nbd_broken(const struct ba_nbd *n, char *why, size_t len)
{
	if (n->broken)
		snprintf(why, len, "%s", n->broken_why);
	return n->broken;
}

static int fetch_local(struct ba_nbd *n, uint64_t start, uint64_t end)
{
	char why[256];
	int rc = ba_vdisk_child_fetch(n->vc, start, end, put_local, n, why,
				      sizeof(why));

	if (rc == -ECHILD)
		broke(n, BA_NBD_FAILED, why);
	else if (rc && rc != -ENOMEM)
		broke(n, BA_NBD_GAVE_UP, why);
	return rc ? rc : have_add(n, start, end);
}

/*
 * Fetch [start, end) from the export into the memfd.  With block status
 * (base:allocation), what the export says reads as zeros is not read:
 * the memfd reads as zeros where nothing was written.  That is every
 * extent with NBD_STATE_ZERO, a hole (NBD_STATE_HOLE too) or not: the
 * NBD spec defines ZERO as "the extent will read as zeroes", allocated
 * or not (qemu says it of a qcow2 zero cluster, of preallocated space it
 * knows is zero), so skipping it gives the bytes a read would.  HOLE
 * alone is no promise of zeros (it only says unallocated) and is read
 * like data.  A server without block status, or whose reply says nothing
 * of the range (an error, no extent, another context), is read as before.
 * Fewer bytes fetched also stop ba_nbd_prepare's passes no later: a pass
 * that only found zeros leaves the memfd as it was, so the next pass
 * would ask for the same ranges.
 */
static int fetch(struct ba_nbd *n, uint64_t start, uint64_t end, void *buf)
{
	uint64_t at = start;
	int rc = n->failed;

	/* the scan's record is dropped: no use reading on */
	if (n->broken)
		return -EIO;
	if (n->vc)
		return fetch_local(n, start, end);

	if (!rc && !n->status)
		n->status = sym_nbd_can_meta_context(
				    n->h, LIBNBD_CONTEXT_BASE_ALLOCATION) == 1
				    ? 1
				    : -1;
	while (!rc && at < end) {
		struct status_reply r;
		int64_t next;

		rc = n->status > 0 ? status_of(n, at, end, &r) : -ENOTSUP;
		if (rc == -ETIMEDOUT)
			break;
		if (rc || !r.n) {
			/* a server that refused once is not asked again */
			if (rc && n->status > 0)
				n->status = -1;
			rc = read_range(n, at, end, buf);
			break;
		}
		next = fetch_covered(n, &r, end, buf);
		if (next < 0)
			rc = (int)next;
		else
			at = (uint64_t)next;
	}
	if (rc && n->server.pid) {
		char said[300], why[512];

		/* qemu says why on its stderr ("qcow2: Marking image as
		 * corrupt: ..."), the reply only EIO */
		if (rc == -ETIMEDOUT)
			snprintf(said, sizeof(said), "no answer within 30 s");
		else if (!ba_qemu_nbd_said(n->errfd, NULL, NULL, said,
					   sizeof(said)))
			snprintf(said, sizeof(said), "%s", strerror(-rc));
		snprintf(why, sizeof(why),
			 "qemu-nbd failed to read bytes %" PRIu64 " to %" PRIu64
			 " of the disk: %s",
			 at, end, said);
		broke(n, BA_NBD_FAILED, why);
	}
	return rc ? rc : have_add(n, start, end);
}

/**
 * ba_nbd_fill: make [off, off + len) of the export readable in the
 * memfd, fetching (in whole 4 KiB blocks) what is not there yet; what
 * the export says reads as zeros is not read (fetch()).
 * Returns: 0 or -errno.
 */
int ba_nbd_fill(struct ba_nbd *n, uint64_t off, uint64_t len)
{
	uint64_t start, end;
	void *buf = NULL;
	size_t i = 0;
	int rc = 0;

	if (off >= n->size || len == 0)
		return 0;
	if (len > n->size - off)
		len = n->size - off;
	start = off / FILL_ALIGN * FILL_ALIGN;
	end = (off + len + FILL_ALIGN - 1) / FILL_ALIGN * FILL_ALIGN;
	if (end > n->size)
		end = n->size;
	while (start < end && rc == 0) {
		uint64_t gap_end = end;

		while (i < n->nhave && n->have[i].end <= start)
			i++;
		if (i < n->nhave && n->have[i].start <= start) {
			start = n->have[i].end;
			continue;
		}
		if (i < n->nhave && n->have[i].start < gap_end)
			gap_end = n->have[i].start;
		if (!buf) {
			buf = malloc(FETCH_MAX);
			if (!buf)
				return -ENOMEM;
		}
		rc = fetch(n, start, gap_end, buf);
		start = gap_end;
		/* have_add may have merged entries: search again */
		i = 0;
	}
	free(buf);
	return rc;
}

/* Fill the head and the tail of [off, off + size) for libblkid. */
static int expose(struct ba_nbd *n, uint64_t off, uint64_t size)
{
	uint64_t k = size < EXPOSE_BYTES ? size : EXPOSE_BYTES;
	int rc = ba_nbd_fill(n, off, k);

	return rc ? rc : ba_nbd_fill(n, off + size - k, k);
}

static ssize_t nbd_io_pread(struct ba_io *io, void *buf, size_t len,
			    uint64_t off)
{
	int rc = ba_nbd_fill(io->nbd, off, len);

	return rc ? rc : ba_pread_all(io->fd, buf, len, off);
}

static int nbd_io_expose(struct ba_io *io, uint64_t off, uint64_t size)
{
	return expose(io->nbd, off, size);
}

static const struct ba_io_ops nbd_ops = {
	.name = "nbd",
	.pread = nbd_io_pread,
	.expose = nbd_io_expose,
};

void ba_io_init_nbd(struct ba_io *io, struct ba_nbd *n)
{
	memset(io, 0, sizeof(*io));
	io->ops = &nbd_ops;
	io->fd = n->memfd;
	io->nbd = n;
	io->size = n->size;
}

/*
 * One libblkid partitions-only pass over the memfd, the probe
 * ba_ptable_read makes (ba_ptable_probe), filling the head and tail of every
 * partition it lists.
 */
static int partitions_pass(struct ba_nbd *n, uint32_t lss)
{
	blkid_probe pr;
	blkid_partlist ls;
	int rc, np;

	rc = ba_ptable_probe(n->memfd, lss, &pr);
	if (rc)
		return rc;
	ls = blkid_probe_get_partitions(pr);
	np = ls ? blkid_partlist_numof_partitions(ls) : 0;
	for (int i = 0; i < np && !rc; i++) {
		blkid_partition par = blkid_partlist_get_partition(ls, i);
		blkid_loff_t start = par ? blkid_partition_get_start(par) : -1;
		blkid_loff_t size = par ? blkid_partition_get_size(par) : -1;

		if (start < 0 || size <= 0 ||
		    (uint64_t)start > n->size / BA_SECTOR ||
		    (uint64_t)size > n->size / BA_SECTOR - (uint64_t)start)
			continue;
		rc = expose(n, (uint64_t)start * BA_SECTOR,
			    (uint64_t)size * BA_SECTOR);
	}
	blkid_free_probe(pr);
	return rc;
}

/**
 * ba_nbd_prepare: fill the memfd behind @io with what libblkid will read
 * of the partition table (see the top of this file), for a logical
 * sector size of @lss.
 * Returns: 0 or -errno.
 */
int ba_nbd_prepare(struct ba_io *io, uint32_t lss)
{
	struct ba_nbd *n = io->nbd;
	struct ba_dos_check *dos = calloc(1, sizeof(*dos));
	struct ba_gpt_check *gpt = calloc(1, sizeof(*gpt));
	int rc = -ENOMEM;

	if (!dos || !gpt)
		goto out;
	rc = expose(n, 0, n->size);
	if (rc)
		goto out;
	/* their reads are what we need; a broken table is the scan's
	 * business, an I/O error shows again there */
	ba_dos_check(io, lss, dos);
	ba_gpt_check(io, lss, gpt);
	for (int pass = 0; pass < PREPARE_PASSES; pass++) {
		uint64_t before = n->fetched;

		rc = partitions_pass(n, lss);
		if (rc || n->fetched == before)
			break;
	}
out:
	free(dos);
	free(gpt);
	return rc;
}

/*
 * Reading and writing the export for fix (lib/act/fix-io.c): straight
 * to the server, not through the memfd, in requests of at most FETCH_MAX
 * bytes, up to RW_DEPTH of them in flight.  fix's reader and writer
 * threads share one handle: rw_lock makes each call whole.  A write
 * makes the memfd forget the blocks it touched (the next scan fetches
 * them again), so the memfd never shows a disk older than the export.
 */
#define RW_DEPTH	 8
#define WRITE_TIMEOUT_MS 120000 /* a flush of a big qcow2 can take long */

static pthread_mutex_t rw_lock = PTHREAD_MUTEX_INITIALIZER;

static int transfer(struct ba_nbd *n, void *rbuf, const void *wbuf, size_t len,
		    uint64_t off)
{
	int64_t cookies[RW_DEPTH];
	size_t done = 0;
	int rc = n->h ? n->failed : -EROFS; /* our own reader only reads */

	if (!rc && (off > n->size || len > n->size - off))
		return -ENOSPC;
	while (done < len && !rc) {
		size_t q = 0;
		int w;

		while (q < RW_DEPTH && done < len) {
			size_t k =
				len - done < FETCH_MAX ? len - done : FETCH_MAX;
			int64_t c =
				rbuf ? sym_nbd_aio_pread(n->h,
							 (char *)rbuf + done, k,
							 off + done,
							 NBD_NULL_COMPLETION, 0)
				     : sym_nbd_aio_pwrite(
					       n->h, (const char *)wbuf + done,
					       k, off + done,
					       NBD_NULL_COMPLETION, 0);

			if (c < 0) {
				rc = nbd_rc();
				break;
			}
			cookies[q++] = c;
			done += k;
		}
		w = wait_all(n, cookies, q,
			     rbuf ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS);
		if (!rc)
			rc = w;
	}
	return rc;
}

/* Drop the whole blocks around [off, off + len) from the memfd. */
static int forget(struct ba_nbd *n, uint64_t off, uint64_t len)
{
	uint64_t start = off / FILL_ALIGN * FILL_ALIGN;
	uint64_t end = (off + len + FILL_ALIGN - 1) / FILL_ALIGN * FILL_ALIGN;
	/* one range can split in two: one entry more at most */
	size_t cap = n->nhave + 1, k = 0;
	struct ba_nbd_range *keep = malloc(cap * sizeof(*keep));

	if (!keep)
		return -ENOMEM;
	for (size_t i = 0; i < n->nhave; i++) {
		struct ba_nbd_range r = n->have[i];

		if (r.end <= start || r.start >= end) {
			keep[k++] = r;
			continue;
		}
		if (r.start < start)
			keep[k++] = (struct ba_nbd_range){r.start, start};
		if (r.end > end)
			keep[k++] = (struct ba_nbd_range){end, r.end};
	}
	free(n->have);
	n->have = keep;
	n->nhave = k;
	n->cap = cap;
	if (end > n->size)
		end = n->size;
	/* what a scan reads next comes from the server again; punching
	 * only gives the memory back */
	(void)fallocate(n->memfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			(off_t)start, (off_t)(end - start));
	return 0;
}

/** ba_nbd_pread: @len bytes at @off of the export, from the server. */
int ba_nbd_pread(struct ba_nbd *n, void *buf, size_t len, uint64_t off)
{
	int rc;

	pthread_mutex_lock(&rw_lock);
	rc = transfer(n, buf, NULL, len, off);
	pthread_mutex_unlock(&rw_lock);
	return rc;
}

/** ba_nbd_pwrite: write @len bytes at @off of the export. */
int ba_nbd_pwrite(struct ba_nbd *n, const void *buf, size_t len, uint64_t off)
{
	int rc;

	pthread_mutex_lock(&rw_lock);
	rc = transfer(n, NULL, buf, len, off);
	/* even a failed write may have changed some blocks */
	if (forget(n, off, len) && !rc)
		rc = -ENOMEM;
	pthread_mutex_unlock(&rw_lock);
	return rc;
}

/** ba_nbd_flush: the server's writes on stable storage (NBD_CMD_FLUSH). */
int ba_nbd_flush(struct ba_nbd *n)
{
	int64_t c;
	int rc;

	pthread_mutex_lock(&rw_lock);
	rc = n->h ? n->failed : -EROFS;
	if (!rc) {
		c = sym_nbd_aio_flush(n->h, NBD_NULL_COMPLETION, 0);
		rc = c < 0 ? nbd_rc() : wait_all(n, &c, 1, WRITE_TIMEOUT_MS);
	}
	pthread_mutex_unlock(&rw_lock);
	return rc;
}

/** ba_nbd_writable: the export takes writes and flushes. */
bool ba_nbd_writable(const struct ba_nbd *n)
{
	return n->h && sym_nbd_is_read_only(n->h) == 0 &&
	       sym_nbd_can_flush(n->h) == 1;
}
