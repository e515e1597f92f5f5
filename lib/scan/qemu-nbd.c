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
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "blkalignP.h"

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
