/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sandbox.c - a child process that can do nothing but read one file and
 * talk on one socket, for the code of ours that parses untrusted images
 * (vdisk-child.c): a bug in a parser then cannot become more than a
 * wrong answer or a dead child, in a process that usually runs as root.
 *
 * The child is forked (no exec: the parsers are already in memory) and,
 * before it runs a line of parsing:
 *   - keeps two descriptors, the image as fd 3 (read-only, as the parent
 *     opened it) and its end of a socket pair as fd 4, and closes every
 *     other one, standard input, output and error included;
 *   - drops root for nobody (65534) and every supplementary group, when
 *     it is root (a root it cannot drop, as in some containers, keeps
 *     only what seccomp leaves it, below);
 *   - dies with its parent (PR_SET_PDEATHSIG), cannot be traced or dump
 *     core (PR_SET_DUMPABLE 0, RLIMIT_CORE 0), gains no privilege
 *     (PR_SET_NO_NEW_PRIVS);
 *   - loads a seccomp filter that allows read and write on fd 4, pread64
 *     and lseek on fd 3, memory for malloc (brk; mmap, mprotect without
 *     PROT_EXEC; munmap, mremap, madvise) and exit: any other system
 *     call, or another architecture's, kills it (SIGSYS).  No open, no
 *     socket, no fork or exec, no kill, no ioctl.
 * The parent talks to it with a timeout (a parser that loops is killed)
 * and says how it ended when it did not end well.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <seccomp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "scan/scan.h"
#include "sandbox.h"

#define NOBODY	     65534 /* Debian's nobody and nogroup, the overflow ids */
#define STOP_WAIT_MS 1000  /* for a child told to go to exit */

/*
 * The filter, made by libseccomp once per process and kept as the BPF
 * program it exports: the child only installs it (libseccomp's first
 * use probes the kernel, which would cost every child a millisecond).
 */
static pthread_once_t filter_once = PTHREAD_ONCE_INIT;
static struct sock_fprog filter;

/* Argument @n equals @v; argument @n has none of the bits of @mask. */
#define ARG_EQ(n, v)            \
	((struct scmp_arg_cmp){ \
		.arg = (n), .op = SCMP_CMP_EQ, .datum_a = (v), .datum_b = 0})
#define ARG_NONE_OF(n, mask)                             \
	((struct scmp_arg_cmp){.arg = (n),               \
			       .op = SCMP_CMP_MASKED_EQ, \
			       .datum_a = (mask),        \
			       .datum_b = 0})

static int make_filter(scmp_filter_ctx f)
{
	int rc = 0;

#define ALLOW(name, ...)                                                    \
	do {                                                                \
		if (!rc)                                                    \
			rc = seccomp_rule_add(f, SCMP_ACT_ALLOW,            \
					      SCMP_SYS(name), __VA_ARGS__); \
	} while (0)
	ALLOW(read, 1, ARG_EQ(0, BA_SANDBOX_SOCK_FD));
	ALLOW(write, 1, ARG_EQ(0, BA_SANDBOX_SOCK_FD));
	ALLOW(pread64, 1, ARG_EQ(0, BA_SANDBOX_IMAGE_FD));
	ALLOW(lseek, 1, ARG_EQ(0, BA_SANDBOX_IMAGE_FD));
	ALLOW(mmap, 1, ARG_NONE_OF(2, PROT_EXEC));
	ALLOW(mprotect, 1, ARG_NONE_OF(2, PROT_EXEC));
	ALLOW(brk, 0);
	ALLOW(munmap, 0);
	ALLOW(mremap, 0);
	ALLOW(madvise, 0);
	ALLOW(exit, 0);
	ALLOW(exit_group, 0);
#undef ALLOW
	return rc;
}

static void build_filter(void)
{
	scmp_filter_ctx f = seccomp_init(SCMP_ACT_KILL_PROCESS);
	int fd = memfd_create("blkalign-seccomp", MFD_CLOEXEC);
	off_t size;
	void *prog;

	if (!f || fd < 0 || make_filter(f) || seccomp_export_bpf(f, fd) ||
	    (size = lseek(fd, 0, SEEK_END)) <= 0 ||
	    size % sizeof(struct sock_filter) ||
	    size / sizeof(struct sock_filter) > BPF_MAXINSNS)
		goto out;
	prog = malloc((size_t)size);
	if (prog && ba_pread_full(fd, prog, (size_t)size, 0) == 0) {
		filter.filter = prog;
		filter.len =
			(unsigned short)(size / sizeof(struct sock_filter));
	} else {
		free(prog);
	}
out:
	if (fd >= 0)
		close(fd);
	seccomp_release(f);
}

/* Every descriptor but fd 3 (@image) and fd 4 (@sock) closed. */
static int keep_two(int image, int sock)
{
	int a = fcntl(image, F_DUPFD, 10), b = fcntl(sock, F_DUPFD, 10);

	if (a < 0 || b < 0 || dup2(a, BA_SANDBOX_IMAGE_FD) < 0 ||
	    dup2(b, BA_SANDBOX_SOCK_FD) < 0)
		return -1;
	if (close_range(BA_SANDBOX_SOCK_FD + 1, ~0U, 0) < 0) {
		struct rlimit rl;

		if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
			return -1;
		for (rlim_t fd = BA_SANDBOX_SOCK_FD + 1; fd < rl.rlim_cur; fd++)
			close((int)fd);
	}
	for (int fd = 0; fd < BA_SANDBOX_IMAGE_FD; fd++)
		close(fd);
	return 0;
}

/* Root becomes nobody, unless it may not (EPERM: a container's root). */
static int drop_root(void)
{
	if (geteuid() != 0)
		return 0;
	if ((setgroups(0, NULL) && errno != EPERM) ||
	    (setresgid(NOBODY, NOBODY, NOBODY) && errno != EPERM) ||
	    (setresuid(NOBODY, NOBODY, NOBODY) && errno != EPERM))
		return -1;
	return 0;
}

/* In the child, before it parses anything: see the top of this file. */
static int confine(int image, int sock, pid_t parent)
{
	struct rlimit no_core = {0, 0};

	if (keep_two(image, sock) || drop_root())
		return -1;
	/* after the change of ids, which clears both */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent ||
	    prctl(PR_SET_DUMPABLE, 0) || setrlimit(RLIMIT_CORE, &no_core))
		return -1;
	return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0,
		     0) || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter)
		       ? -1
		       : 0;
}

/**
 * ba_sandbox_start: run @fn(@arg) in a confined child (the top of this
 * file) that reads the file open as @image_fd through fd
 * BA_SANDBOX_IMAGE_FD and talks to us on BA_SANDBOX_SOCK_FD; its return
 * is the child's exit status.  A child that cannot be confined exits
 * BA_SANDBOX_UNCONFINED before @fn runs.
 * Returns: 0 with @sb set, or -errno.
 */
int ba_sandbox_start(int image_fd, int (*fn)(void *arg), void *arg,
		     struct ba_sandbox *sb)
{
	pid_t parent = getpid();
	int sv[2], rc = 0;

	memset(sb, 0, sizeof(*sb));
	sb->sock = -1;
	pthread_once(&filter_once, build_filter);
	if (!filter.len)
		return -ENOSYS; /* libseccomp could not make it */
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	sb->pid = fork();
	if (sb->pid == 0) {
		/* the system call itself: a sanitizer's _exit would first run
		 * its leak check, which the filter does not allow */
		if (confine(image_fd, sv[1], parent))
			syscall(SYS_exit_group, BA_SANDBOX_UNCONFINED);
		syscall(SYS_exit_group, fn(arg) & 0xff);
	}
	if (sb->pid < 0) {
		rc = -errno;
		sb->pid = 0;
		close(sv[0]);
	} else {
		sb->sock = sv[0];
	}
	close(sv[1]);
	return rc;
}

/* Milliseconds on a monotonic clock. */
static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/**
 * ba_sandbox_recv: exactly @len bytes from the child, waiting at most
 * @timeout_ms for all of them.
 * Returns: 0; -EPIPE when the child closed its end (it exited or died);
 * -ETIMEDOUT; -errno.
 */
int ba_sandbox_recv(struct ba_sandbox *sb, void *buf, size_t len,
		    int timeout_ms)
{
	int64_t end = now_ms() + timeout_ms;
	size_t done = 0;

	while (done < len) {
		struct pollfd p = {.fd = sb->sock, .events = POLLIN};
		int64_t left = end - now_ms();
		ssize_t n;
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		n = read(sb->sock, (char *)buf + done, len - done);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		if (n == 0)
			return -EPIPE;
		done += (size_t)n;
	}
	return 0;
}

/**
 * ba_sandbox_send: @len bytes to the child (never SIGPIPE: a child
 * gone is -EPIPE).
 * Returns: 0 or -errno.
 */
int ba_sandbox_send(struct ba_sandbox *sb, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = send(sb->sock, (const char *)buf + done, len - done,
				 MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == ECONNRESET ? -EPIPE : -errno;
		done += (size_t)n;
	}
	return 0;
}

/* Has the child exited within @ms?  Its status to @status if so. */
static bool reaped(pid_t pid, int ms, int *status)
{
	struct timespec tick = {0, 1000 * 1000};

	for (int waited = 0;; waited++) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return true;
		if (r < 0 && errno != EINTR) {
			*status =
				0; /* not ours to wait for (SIGCHLD ignored) */
			return true;
		}
		if (waited >= ms)
			return false;
		nanosleep(&tick, NULL);
	}
}

/**
 * ba_sandbox_stop: close our end (a child waiting for a request exits)
 * and reap the child, killed when it does not exit at once (@kill: at
 * once); how it ended, when not by exit status 0, into @why (one line;
 * @why may be NULL).  Idempotent.
 * Returns: 0 when it exited with 0; BA_SANDBOX_UNCONFINED when it could
 * not be confined (it ran nothing of @fn); else 1.
 */
int ba_sandbox_stop(struct ba_sandbox *sb, bool kill_it, char *why, size_t len)
{
	int status = 0;

	if (sb->sock >= 0)
		close(sb->sock);
	sb->sock = -1;
	if (sb->pid <= 0)
		return 0;
	if (kill_it || !reaped(sb->pid, STOP_WAIT_MS, &status)) {
		kill(sb->pid, SIGKILL);
		while (waitpid(sb->pid, &status, 0) < 0 && errno == EINTR)
			;
		if (!kill_it)
			status = 0; /* we killed it: the caller says why */
	}
	sb->pid = 0;
	if (why && WIFSIGNALED(status))
		snprintf(why, len, "was killed by signal %d (%s)%s",
			 WTERMSIG(status), strsignal(WTERMSIG(status)),
			 WTERMSIG(status) == SIGSYS
				 ? ": a system call its sandbox forbids"
				 : "");
	else if (why && WIFEXITED(status) &&
		 WEXITSTATUS(status) == BA_SANDBOX_UNCONFINED)
		snprintf(why, len, "could not be confined in its sandbox");
	else if (why && WIFEXITED(status) && WEXITSTATUS(status))
		snprintf(why, len, "exited with status %d",
			 WEXITSTATUS(status));
	if (WIFEXITED(status) && WEXITSTATUS(status) == BA_SANDBOX_UNCONFINED)
		return BA_SANDBOX_UNCONFINED;
	return WIFSIGNALED(status) ||
	       (WIFEXITED(status) && WEXITSTATUS(status));
}
