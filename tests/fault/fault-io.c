/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fault-io.c - a fix I/O backend (struct blkalign_fix_io) that injects
 * one fault at the N-th write of the run, counting the writes to the
 * disk and the journal alike (`fix --json`'s "writes"), or only those of
 * one file:
 *
 *   kill      half of write N lands (whole sectors), then SIGKILL
 *   powercut  every write stays in memory until its file is flushed
 *             (reads see it); at write N the unflushed ones are lost and
 *             the process exits with 137, as a disk with a volatile write
 *             cache loses them when the power goes
 *   sigint    SIGINT raised just before write N (as from the terminal)
 *   eio       write N fails with EIO, nothing written; later ones work
 *   enospc    write N fails with ENOSPC, nothing written
 *   torn      half of write N lands, it fails with EIO, and every later
 *             write and flush fails too (a device that died mid-write)
 *   server    half of write N lands, then the qemu-nbd that serves an
 *             image in a qemu format is SIGKILLed (what it had not
 *             flushed, qcow2's metadata caches, is lost as in a power
 *             cut on the server's side); write N and the rest fail
 *
 * Test code: the shipped library has no hooks; tests/fault/main.c
 * selects this backend for the blkalign commands.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"

struct pending {
	struct pending *next;
	const struct blkalign_fix_channel *ch; /* the file it is for */
	uint64_t off;
	size_t len;
	uint8_t *buf;
};

static struct fault_spec spec;
static uint64_t nwrites;
static bool dead;
static struct pending *pend, **tail = &pend; /* oldest first */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static const struct blkalign_fix_io *sys(void)
{
	return blkalign_fix_io_default();
}

/* The powercut's unflushed writes of @ch laid over what was read, in the
 * order they were made (a newer one over an older one wins). */
static void overlay(const struct blkalign_fix_channel *ch, uint8_t *buf,
		    size_t len, uint64_t off)
{
	for (struct pending *p = pend; p; p = p->next) {
		uint64_t a = off > p->off ? off : p->off;
		uint64_t b = off + len < p->off + p->len ? off + len
							 : p->off + p->len;

		if (p->ch == ch && a < b)
			memcpy(buf + (a - off), p->buf + (a - p->off),
			       (size_t)(b - a));
	}
}

static int f_read(void *data, enum blkalign_fix_file file,
		  struct blkalign_fix_channel *ch, void *buf, size_t len,
		  uint64_t off)
{
	int rc = sys()->read(sys()->data, file, ch, buf, len, off);

	(void)data;
	if (!rc && spec.kind == FAULT_POWERCUT) {
		pthread_mutex_lock(&lock);
		overlay(ch, buf, len, off);
		pthread_mutex_unlock(&lock);
	}
	return rc;
}

static int hold(const struct blkalign_fix_channel *ch, const void *buf,
		size_t len, uint64_t off)
{
	struct pending *p = calloc(1, sizeof(*p));
	void *b = NULL;

	/* aligned: written later to an O_DIRECT file */
	if (!p || posix_memalign(&b, 4096, len ? len : 1)) {
		free(p);
		return -ENOMEM;
	}
	p->buf = b;
	memcpy(p->buf, buf, len);
	p->ch = ch;
	p->off = off;
	p->len = len;
	pthread_mutex_lock(&lock);
	*tail = p;
	tail = &p->next;
	pthread_mutex_unlock(&lock);
	return 0;
}

static int half(enum blkalign_fix_file file, struct blkalign_fix_channel *ch,
		const void *buf, size_t len, uint64_t off)
{
	size_t h = len / 2 / 512 * 512;

	return h ? sys()->write(sys()->data, file, ch, buf, h, off) : 0;
}

/* The state of process @pid ('Z' for a zombie), its parent in @ppid and
 * its name in @comm; 0 when it is gone. */
static char proc_state(long pid, long *ppid, char *comm, size_t len)
{
	char path[64], buf[512], *lp, *rp;
	char state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fgets(buf, sizeof(buf), f) && (lp = strchr(buf, '(')) &&
	    (rp = strrchr(buf, ')')) &&
	    sscanf(rp + 1, " %c %ld", &state, ppid) == 2)
		snprintf(comm, len, "%.*s", (int)(rp - lp - 1), lp + 1);
	fclose(f);
	return state;
}

/* SIGKILL every qemu-nbd child of this process and wait until each is
 * dead (a zombie: libnbd reaps it when the handle closes). */
static void kill_servers(void)
{
	DIR *d = opendir("/proc");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid = strtol(e->d_name, NULL, 10), ppid = 0;
		char comm[64] = "";

		if (pid <= 0 || !proc_state(pid, &ppid, comm, sizeof(comm)) ||
		    ppid != (long)getpid() || strcmp(comm, "qemu-nbd"))
			continue;
		kill((pid_t)pid, SIGKILL);
		for (int i = 0; i < 500; i++) {
			struct timespec ms10 = {0, 10000000};
			char s = proc_state(pid, &ppid, comm, sizeof(comm));

			if (!s || s == 'Z')
				break;
			nanosleep(&ms10, NULL);
		}
	}
	closedir(d);
}

static int f_write(void *data, enum blkalign_fix_file file,
		   struct blkalign_fix_channel *ch, const void *buf, size_t len,
		   uint64_t off)
{
	bool counted = spec.file < 0 || (int)file == spec.file;
	uint64_t n =
		counted ? __atomic_add_fetch(&nwrites, 1, __ATOMIC_SEQ_CST) : 0;
	bool now = counted && n == spec.at;

	(void)data;
	if (dead)
		return -EIO;
	switch (spec.kind) {
	case FAULT_KILL:
		if (now) {
			(void)half(file, ch, buf, len, off);
			raise(SIGKILL);
		}
		break;
	case FAULT_POWERCUT:
		if (counted && n >= spec.at)
			_exit(137); /* the power is gone: what is held too */
		return hold(ch, buf, len, off);
	case FAULT_SIGINT:
		if (now)
			raise(SIGINT); /* the handler's flag; the write goes on
					*/
		break;
	case FAULT_EIO:
		if (now)
			return -EIO;
		break;
	case FAULT_ENOSPC:
		if (now)
			return -ENOSPC;
		break;
	case FAULT_SERVER:
		if (now) {
			(void)half(file, ch, buf, len, off);
			kill_servers();
		}
		break;
	case FAULT_TORN:
		if (now) {
			(void)half(file, ch, buf, len, off);
			dead = true;
			return -EIO;
		}
		break;
	default:
		break;
	}
	return sys()->write(sys()->data, file, ch, buf, len, off);
}

/* Write @ch's held writes in the order they were made (or, @write false,
 * drop them), and forget them. */
static int apply(struct blkalign_fix_channel *ch, bool write)
{
	struct pending **pp = &pend;
	int rc = 0;

	while (*pp) {
		struct pending *p = *pp;

		if (p->ch != ch) {
			pp = &p->next;
			continue;
		}
		*pp = p->next;
		if (write && !rc)
			rc = sys()->write(sys()->data, BLKALIGN_FIX_FILE_TARGET,
					  ch, p->buf, p->len, p->off);
		free(p->buf);
		free(p);
	}
	tail = pp;
	return rc;
}

static int f_flush(void *data, enum blkalign_fix_file file,
		   struct blkalign_fix_channel *ch)
{
	int rc = 0;

	(void)data;
	if (dead)
		return -EIO;
	if (spec.kind == FAULT_POWERCUT) {
		pthread_mutex_lock(&lock);
		rc = apply(ch, true);
		pthread_mutex_unlock(&lock);
	}
	return rc ? rc : sys()->flush(sys()->data, file, ch);
}

/* A file closed without a flush keeps nothing it was not flushed with. */
static void f_close(void *data, enum blkalign_fix_file file,
		    struct blkalign_fix_channel *ch)
{
	(void)data;
	(void)file;
	pthread_mutex_lock(&lock);
	(void)apply(ch, false);
	pthread_mutex_unlock(&lock);
}

static const struct blkalign_fix_io fault_io = {
	.size = sizeof(struct blkalign_fix_io), /* BLKALIGN_FIX_IO_INIT's */
	.read = f_read,
	.write = f_write,
	.flush = f_flush,
	.close = f_close,
};

const struct blkalign_fix_io *fault_io_new(const struct fault_spec *s)
{
	spec = *s;
	return &fault_io;
}

/* "kind:N" or "kind:N:disk|journal" into @s; 0 or -1. */
int fault_parse(const char *text, struct fault_spec *s)
{
	static const char *const kinds[] = {
		[FAULT_KILL] = "kill",	   [FAULT_POWERCUT] = "powercut",
		[FAULT_SIGINT] = "sigint", [FAULT_EIO] = "eio",
		[FAULT_ENOSPC] = "enospc", [FAULT_TORN] = "torn",
		[FAULT_SERVER] = "server",
	};
	const char *colon = strchr(text, ':');
	char *end;

	memset(s, 0, sizeof(*s));
	s->file = -1;
	if (!colon)
		return -1;
	for (int k = FAULT_KILL; k <= FAULT_SERVER; k++)
		if (strlen(kinds[k]) == (size_t)(colon - text) &&
		    !strncmp(text, kinds[k], (size_t)(colon - text)))
			s->kind = k;
	if (!s->kind)
		return -1;
	errno = 0;
	s->at = strtoull(colon + 1, &end, 10);
	if (errno || end == colon + 1 || !s->at)
		return -1;
	if (!*end)
		return 0;
	if (!strcmp(end, ":disk"))
		s->file = BLKALIGN_FIX_FILE_TARGET;
	else if (!strcmp(end, ":journal"))
		s->file = BLKALIGN_FIX_FILE_JOURNAL;
	else
		return -1;
	return 0;
}
