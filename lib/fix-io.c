/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fix-io.c - the files fix writes: the target (O_DIRECT when the file
 * system allows it) and the journal.  Every write and flush goes through
 * here, which is where the crash tests hook in (fix.h): a SIGKILL in the
 * middle of a write, or a power cut that loses every unflushed write.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix.h"

static uint64_t nwrites, nflushes;
static uint64_t kill_at, powercut_at, signal_at;
static bool hooks_read;

static uint64_t env_u64(const char *name)
{
	const char *v = getenv(name);
	char *end;
	unsigned long long n;

	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoull(v, &end, 10);
	return errno || *end ? 0 : (uint64_t)n;
}

static void read_hooks(void)
{
	if (hooks_read)
		return;
	kill_at = env_u64("BLKALIGN_TEST_KILL_AT");
	powercut_at = env_u64("BLKALIGN_TEST_POWERCUT_AT");
	signal_at = env_u64("BLKALIGN_TEST_SIGINT_AT");
	hooks_read = true;
}

uint64_t ba_fix_writes(void)
{
	return nwrites;
}

uint64_t ba_fix_flushes(void)
{
	return nflushes;
}

void *ba_file_alloc(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, 4096, len ? len : 4096))
		return NULL;
	memset(p, 0, len);
	return p;
}

/**
 * ba_file_buffer: an O_DIRECT buffer of @len bytes that the caller fills
 * by reading before it uses it: not zeroed (zeroing tens of MiB costs
 * more than a level's flush), and in huge pages where the kernel has
 * them for the asking, so that the first read faults in few pages.
 */
void *ba_file_buffer(size_t len)
{
	size_t huge = (size_t)2 << 20;
	void *p = NULL;

	if (len < huge)
		return ba_file_alloc(len);
	if (posix_memalign(&p, huge, len))
		return NULL;
	(void)madvise(p, len, MADV_HUGEPAGE); /* only a hint */
	return p;
}

/**
 * ba_file_open: open @path with @flags (plus O_DIRECT when @direct and the
 * file system takes it).  Returns 0 or -errno.
 */
int ba_file_open(struct ba_file *f, const char *path, int flags, bool direct)
{
	struct stat st;
	int fd = -1;

	read_hooks();
	memset(f, 0, sizeof(*f));
	f->fd = -1;
	f->path = path;
	if (direct)
		fd = open(path, flags | O_DIRECT | O_CLOEXEC, 0600);
	if (fd < 0 && (!direct || errno == EINVAL))
		fd = open(path, flags | O_CLOEXEC, 0600);
	else
		f->direct = direct;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &f->size)) {
			int e = -errno;

			close(fd);
			return e;
		}
	} else {
		f->size = (uint64_t)st.st_size;
	}
	f->fd = fd;
	pthread_mutex_init(&f->lock, NULL);
	return 0;
}

void ba_file_close(struct ba_file *f)
{
	struct ba_fwrite *w, *n;

	if (f->fd < 0)
		return;
	for (w = f->pending; w; w = n) {
		n = w->next;
		free(w->buf);
		free(w);
	}
	f->pending = NULL;
	close(f->fd);
	f->fd = -1;
	pthread_mutex_destroy(&f->lock);
}

static int full_pread(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pread(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO; /* short: past the end */
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

static int full_pwrite(int fd, const uint8_t *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		buf += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* The power-cut hook's writes not yet flushed, laid over what was read. */
static void overlay(struct ba_file *f, uint8_t *buf, size_t len, uint64_t off)
{
	for (struct ba_fwrite *w = f->pending; w; w = w->next) {
		uint64_t a = off > w->off ? off : w->off;
		uint64_t b = off + len < w->off + w->len ? off + len
							 : w->off + w->len;

		if (a < b)
			memcpy(buf + (a - off), w->buf + (a - w->off),
			       (size_t)(b - a));
	}
}

int ba_file_read(struct ba_file *f, void *buf, size_t len, uint64_t off)
{
	int rc = full_pread(f->fd, buf, len, off);

	if (rc || !powercut_at)
		return rc;
	pthread_mutex_lock(&f->lock);
	overlay(f, buf, len, off);
	pthread_mutex_unlock(&f->lock);
	return 0;
}

/* Pending writes in the order they were made (the list is newest first). */
static int apply_pending(struct ba_fwrite *w, int fd)
{
	int rc;

	if (!w)
		return 0;
	rc = apply_pending(w->next, fd);
	if (!rc)
		rc = full_pwrite(fd, w->buf, w->len, w->off);
	free(w->buf);
	free(w);
	return rc;
}

int ba_file_write(struct ba_file *f, const void *buf, size_t len, uint64_t off)
{
	uint64_t n = __atomic_add_fetch(&nwrites, 1, __ATOMIC_SEQ_CST);
	struct ba_fwrite *w;

	if (signal_at && n == signal_at)
		raise(SIGINT); /* as from the terminal: the handler's flag */
	if (kill_at && n == kill_at) {
		/* Half of this write lands, then the process dies. */
		size_t half = len / 2 / 512 * 512;

		if (half)
			(void)full_pwrite(f->fd, buf, half, off);
		raise(SIGKILL);
	}
	if (!powercut_at)
		return full_pwrite(f->fd, buf, len, off);
	if (n >= powercut_at)
		_exit(137); /* the power is gone: pending writes too */
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->buf = ba_file_alloc(len);
	if (!w->buf) {
		free(w);
		return -ENOMEM;
	}
	memcpy(w->buf, buf, len);
	w->off = off;
	w->len = len;
	pthread_mutex_lock(&f->lock);
	w->next = f->pending;
	f->pending = w;
	pthread_mutex_unlock(&f->lock);
	return 0;
}

int ba_file_flush(struct ba_file *f)
{
	int rc = 0;

	__atomic_add_fetch(&nflushes, 1, __ATOMIC_SEQ_CST);
	if (powercut_at) {
		pthread_mutex_lock(&f->lock);
		rc = apply_pending(f->pending, f->fd);
		f->pending = NULL;
		pthread_mutex_unlock(&f->lock);
		if (rc)
			return rc;
	}
	return fdatasync(f->fd) ? -errno : 0;
}
