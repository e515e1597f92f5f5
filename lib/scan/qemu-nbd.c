/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qemu-nbd.c - a private qemu-nbd, started by systemd-style socket
 * activation as libnbd's nbd_connect_systemd_socket_activation does, but
 * by us: the child's stderr goes to a file of ours (what qemu-nbd says
 * when it cannot open an image becomes one line of our message, and
 * our own stderr is never redirected, not even for a moment), and its
 * pid is ours to stop and wait for.
 *
 * The listening socket lives in a private directory (mkdtemp, 0700)
 * that is removed as soon as the client is connected; the child gets it
 * as fd 3 with LISTEN_PID and LISTEN_FDS=1, and serves that one client.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scan/scan.h"

extern char **environ;

#define PID_DIGITS 20

/* The environment for the child: ours without LISTEN_*, and the two
 * variables of socket activation; LISTEN_PID's digits are written in the
 * child, into @pid_var (allocated: the caller frees it). */
static char **child_env(char **pid_var)
{
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 3, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "LISTEN_", 7))
			env[k++] = environ[i];
	env[k++] = "LISTEN_FDS=1";
	env[k] = malloc(sizeof("LISTEN_PID=") + PID_DIGITS);
	if (!env[k]) {
		free(env);
		return NULL;
	}
	memcpy(env[k], "LISTEN_PID=", sizeof("LISTEN_PID="));
	*pid_var = env[k];
	return env;
}

/* In the child: @pid in decimal at @at (no stdio after fork). */
static void put_pid(char *at, pid_t pid)
{
	char tmp[PID_DIGITS];
	int k = 0;

	do {
		tmp[k++] = (char)('0' + pid % 10);
		pid /= 10;
	} while (pid && k < PID_DIGITS);
	while (k)
		*at++ = tmp[--k];
	*at = '\0';
}

static int listen_in(struct ba_qemu_nbd *q)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	const char *tmp = getenv("TMPDIR");
	int fd;

	snprintf(q->dir, sizeof(q->dir), "%s/blkalign-nbd.XXXXXX",
		 tmp && *tmp && strlen(tmp) < 40 ? tmp : "/tmp");
	if (!mkdtemp(q->dir)) {
		q->dir[0] = '\0';
		return -errno;
	}
	snprintf(q->sock, sizeof(q->sock), "%s/sock", q->dir);
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", q->sock);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 1)) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	return fd;
}

/**
 * ba_qemu_nbd_start: run @argv (qemu-nbd and its options, no socket
 * option) listening on a private unix socket, @q->sock, its stderr on
 * @errfd (-1: ours).  Returns 0 or -errno with why in @why.
 */
int ba_qemu_nbd_start(char *const argv[], int errfd, struct ba_qemu_nbd *q,
		      char *why, size_t len)
{
	char **env, *pid_var = NULL;
	int sock, rc = 0;
	pid_t pid;

	memset(q, 0, sizeof(*q));
	sock = listen_in(q);
	if (sock < 0) {
		snprintf(why, len, "cannot make a socket for qemu-nbd: %s",
			 strerror(-sock));
		ba_qemu_nbd_unlink(q);
		return sock;
	}
	env = child_env(&pid_var);
	if (!env) {
		close(sock);
		ba_qemu_nbd_unlink(q);
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	pid = fork();
	if (pid == 0) {
		put_pid(pid_var + strlen("LISTEN_PID="), getpid());
		if (errfd >= 0)
			dup2(errfd, STDERR_FILENO);
		if (sock == 3)
			fcntl(3, F_SETFD, 0);
		else if (dup2(sock, 3) < 0)
			_exit(126);
		execvpe(argv[0], argv, env);
		_exit(127);
	}
	if (pid < 0) {
		rc = -errno;
		snprintf(why, len, "cannot start qemu-nbd: %s", strerror(-rc));
		ba_qemu_nbd_unlink(q);
	}
	q->pid = pid > 0 ? pid : 0;
	close(sock);
	free(pid_var);
	free(env);
	return rc;
}

#define SAID_TAIL 2048 /* of qemu-nbd's stderr: its last lines */

/* The @n-th line of the @nl lines at @l (pointers to their starts, each
 * ended by a NUL) without qemu's "qemu-nbd: " prefix. */
static const char *bare(char *const l[], int n)
{
	return strncmp(l[n], "qemu-nbd: ", 10) ? l[n] : l[n] + 10;
}

static bool is_error(const char *line)
{
	return !strncmp(line, "qemu-nbd: ", 10) &&
	       strncmp(line, "qemu-nbd: warning: ", 19);
}

/**
 * ba_qemu_nbd_said: what qemu-nbd wrote to its stderr, the file @errfd,
 * as one line into @why: its last error ("qemu-nbd: Failed to
 * blk_new_open ..."); after it, what it said on an error line of its own
 * just before, which is often why ("VHDX BAT entry 1 end offset ...
 * points after end of file"), and the lines of their own after it ("Is
 * another process using the image?").  Our --image-opts string @opts is
 * said as the file @file it names (@opts NULL: as it is); with @opts
 * NULL the "qemu-nbd: " of the last error goes too.
 * Returns: false if it wrote nothing.
 */
bool ba_qemu_nbd_said(int errfd, const char *opts, const char *file, char *why,
		      size_t len)
{
	char buf[SAID_TAIL + 1], joined[1024], *l[32], *p, *at;
	struct stat st;
	ssize_t got;
	int nl = 0, last = -1;
	size_t k;

	if (errfd < 0 || fstat(errfd, &st) < 0)
		return false;
	got = ba_pread_all(errfd, buf, SAID_TAIL,
			   st.st_size > SAID_TAIL
				   ? (uint64_t)(st.st_size - SAID_TAIL)
				   : 0);
	if (got <= 0)
		return false;
	buf[got] = '\0';
	/* the lines, the last 32 of them, without their ends */
	for (p = buf; *p;) {
		char *e = p + strcspn(p, "\r\n");
		bool more = *e != '\0';

		*e = '\0';
		if (*p) {
			if (nl == 32)
				memmove(l, l + 1, sizeof(l[0]) * --nl);
			l[nl++] = p;
		}
		p = more ? e + 1 : e;
	}
	for (int i = 0; i < nl; i++)
		if (is_error(l[i]))
			last = i;
	if (!nl)
		return false;
	if (last < 0)
		last = nl - 1;
	k = (size_t)snprintf(joined, sizeof(joined), "%.400s",
			     opts ? l[last] : bare(l, last));
	if (last > 0 && is_error(l[last - 1]) && k < sizeof(joined))
		k += (size_t)snprintf(joined + k, sizeof(joined) - k,
				      ": %.300s", bare(l, last - 1));
	for (int i = last + 1; i < nl && k < sizeof(joined); i++)
		k += (size_t)snprintf(joined + k, sizeof(joined) - k,
				      "; %.200s", l[i]);
	at = opts ? strstr(joined, opts) : NULL;
	if (at)
		snprintf(why, len, "%.*s%s%s", (int)(at - joined), joined, file,
			 at + strlen(opts));
	else
		snprintf(why, len, "%s", joined);
	return true;
}

/* The socket and its directory go: connected, nobody needs them. */
void ba_qemu_nbd_unlink(struct ba_qemu_nbd *q)
{
	if (q->sock[0])
		unlink(q->sock);
	if (q->dir[0])
		rmdir(q->dir);
	q->sock[0] = q->dir[0] = '\0';
}

/* Has @pid exited within @ms?  Reaps it if so. */
static bool exited(pid_t pid, int ms)
{
	struct timespec tick = {0, 1000 * 1000};

	for (int waited = 0;; waited++) {
		pid_t r = waitpid(pid, NULL, WNOHANG);

		if (r == pid || (r < 0 && errno != EINTR))
			return true;
		if (waited >= ms)
			return false;
		nanosleep(&tick, NULL);
	}
}

/**
 * ba_qemu_nbd_stop: wait for the child, which exits when its client has
 * gone: @grace_ms, then SIGTERM and 5 s, then SIGKILL.  Idempotent.
 */
void ba_qemu_nbd_stop(struct ba_qemu_nbd *q, int grace_ms)
{
	if (q->pid > 0 && !exited(q->pid, grace_ms)) {
		kill(q->pid, SIGTERM);
		if (!exited(q->pid, 5000)) {
			kill(q->pid, SIGKILL);
			while (waitpid(q->pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
	q->pid = 0;
	ba_qemu_nbd_unlink(q);
}
