/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-sandbox.c - the child blkalign's image readers run in
 * (lib/scan/sandbox.c): what it may do (read the image, talk on its
 * socket, take and give back memory, exit) works, and each thing it may
 * not do kills it with SIGSYS: open a file, write anywhere but its
 * socket, read its socket with pread, map executable memory, make a
 * socket, run a program, signal its parent.  A child that answers
 * nothing is killed at the timeout.  And, seen from /proc while it
 * waits: its two descriptors only, seccomp filtering, no new privileges,
 * and nobody's uid and gid when we are root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "analyze/analyze.h"
#include "out/out.h"
#include "scan/scan.h"
#include "sandbox.h"

#define IMAGE_TEXT "an image, as far as the child knows"

/* The children: each returns its exit status, or is killed trying. */
static int child_allowed(void *arg)
{
	char buf[sizeof(IMAGE_TEXT)];
	size_t big = 8 << 20;
	char *p = malloc(big), *q = malloc(100);

	(void)arg;
	/* pread and lseek on the image, memory (mmap'd, brk'd), socket */
	if (!p || !q ||
	    pread(BA_SANDBOX_IMAGE_FD, buf, sizeof(buf), 0) != sizeof(buf) ||
	    lseek(BA_SANDBOX_IMAGE_FD, 0, SEEK_DATA) != 0)
		return 1;
	memset(p, 1, big);
	p = realloc(p, 2 * big);
	if (!p)
		return 2;
	free(p);
	free(q);
	return write(BA_SANDBOX_SOCK_FD, buf, sizeof(buf)) == sizeof(buf) ? 0
									  : 3;
}

static int child_open(void *arg)
{
	(void)arg;
	return syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY) >= 0;
}

static int child_write_stderr(void *arg)
{
	(void)arg;
	return syscall(SYS_write, 2, "x", 1) == 1;
}

static int child_write_image(void *arg)
{
	(void)arg;
	return syscall(SYS_write, BA_SANDBOX_IMAGE_FD, "x", 1) == 1;
}

static int child_pread_socket(void *arg)
{
	char c;

	(void)arg;
	return syscall(SYS_pread64, BA_SANDBOX_SOCK_FD, &c, 1, 0) == 1;
}

static int child_mmap_exec(void *arg)
{
	(void)arg;
	return mmap(NULL, 4096, PROT_READ | PROT_EXEC,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) != MAP_FAILED;
}

static int child_socket(void *arg)
{
	(void)arg;
	return syscall(SYS_socket, AF_INET, SOCK_STREAM, 0) >= 0;
}

static int child_exec(void *arg)
{
	static char *const argv[] = {"true", NULL};

	(void)arg;
	return syscall(SYS_execve, "/bin/true", argv, NULL) == 0;
}

static int child_kill_parent(void *arg)
{
	(void)arg;
	return syscall(SYS_kill, 1, 0) == 0;
}

/* Waits for a byte, so that the parent can look at it in /proc. */
static int child_wait(void *arg)
{
	char c;

	(void)arg;
	return read(BA_SANDBOX_SOCK_FD, &c, 1) == 1 ? 0 : 1;
}

static int child_spin(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	for (;;)
		n++;
	return 0;
}

struct sandbox_row {
	const char *name;
	int (*fn)(void *arg);
	int signal; /* it dies of this, or 0: exits 0 */
};

static const struct sandbox_row rows[] = {
	{"read-image-memory-socket", child_allowed, 0},
	{"open-a-file", child_open, SIGSYS},
	{"write-to-stderr", child_write_stderr, SIGSYS},
	{"write-to-the-image", child_write_image, SIGSYS},
	{"pread-the-socket", child_pread_socket, SIGSYS},
	{"map-executable-memory", child_mmap_exec, SIGSYS},
	{"make-a-socket", child_socket, SIGSYS},
	{"run-a-program", child_exec, SIGSYS},
	{"signal-a-process", child_kill_parent, SIGSYS},
};

/* A file holding IMAGE_TEXT, open read-only. */
static int image_file(void)
{
	char path[] = "/tmp/blkalign-test-sandbox.XXXXXX";
	int fd = mkstemp(path), ro;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, IMAGE_TEXT, sizeof(IMAGE_TEXT)),
			 sizeof(IMAGE_TEXT));
	ro = open(path, O_RDONLY | O_CLOEXEC);
	unlink(path);
	close(fd);
	assert_true(ro >= 0);
	return ro;
}

static void test_child(void **state)
{
	const struct sandbox_row *r = *state;
	char buf[sizeof(IMAGE_TEXT)], why[256] = "";
	struct ba_sandbox sb;
	int fd = image_file(), rc;

	assert_int_equal(ba_sandbox_start(fd, r->fn, NULL, &sb), 0);
	close(fd);
	rc = ba_sandbox_recv(&sb, buf, sizeof(buf), 10000);
	if (!r->signal) {
		assert_int_equal(rc, 0);
		assert_memory_equal(buf, IMAGE_TEXT, sizeof(buf));
		assert_int_equal(ba_sandbox_stop(&sb, false, why, sizeof(why)),
				 0);
		return;
	}
	/* it says nothing: it is dead before it could */
	assert_int_equal(rc, -EPIPE);
	assert_int_equal(ba_sandbox_stop(&sb, false, why, sizeof(why)), 1);
	if (!strstr(why, "signal 31") || !strstr(why, "sandbox forbids"))
		fail_msg("%s: ended as '%s', not by SIGSYS", r->name, why);
}

/* The line of /proc/@pid/status that starts with @key, its value. */
static void status_of(pid_t pid, const char *key, char *out, size_t len)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			size_t k;

			snprintf(out, len, "%.100s", line + strlen(key));
			k = strcspn(out, "\n");
			while (k && out[k - 1] == ' ')
				k--;
			out[k] = '\0';
		}
	fclose(f);
}

static void test_confined(void **state)
{
	char path[64], v[128], fds[64] = "";
	struct ba_sandbox sb;
	struct dirent *e;
	int fd = image_file(), n = 0;
	DIR *d;

	(void)state;
	assert_int_equal(ba_sandbox_start(fd, child_wait, NULL, &sb), 0);
	close(fd);
	/* it is confined before it runs child_wait: wait for the filter */
	for (int i = 0; i < 1000; i++) {
		status_of(sb.pid, "Seccomp:", v, sizeof(v));
		if (!strcmp(v, "\t2"))
			break;
		usleep(1000);
	}
	assert_string_equal(v, "\t2");
	status_of(sb.pid, "NoNewPrivs:", v, sizeof(v));
	assert_string_equal(v, "\t1");
	if (geteuid() == 0) {
		status_of(sb.pid, "Uid:", v, sizeof(v));
		assert_string_equal(v, "\t65534\t65534\t65534\t65534");
		status_of(sb.pid, "Gid:", v, sizeof(v));
		assert_string_equal(v, "\t65534\t65534\t65534\t65534");
		status_of(sb.pid, "Groups:", v, sizeof(v));
		assert_string_equal(v, "\t");
		status_of(sb.pid, "CapEff:", v, sizeof(v));
		assert_string_equal(v, "\t0000000000000000");
	}
	snprintf(path, sizeof(path), "/proc/%d/fd", (int)sb.pid);
	d = opendir(path);
	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			size_t k = strlen(fds);

			snprintf(fds + k, sizeof(fds) - k, "%s%.8s",
				 k ? " " : "", e->d_name);
			n++;
		}
	closedir(d);
	if (n != 2 || (strcmp(fds, "3 4") && strcmp(fds, "4 3")))
		fail_msg("the child holds descriptors '%s', not 3 and 4", fds);
	assert_int_equal(ba_sandbox_send(&sb, "x", 1), 0);
	assert_int_equal(ba_sandbox_stop(&sb, false, NULL, 0), 0);
}

static void test_timeout(void **state)
{
	struct ba_sandbox sb;
	char c, why[256] = "";
	int fd = image_file();

	(void)state;
	assert_int_equal(ba_sandbox_start(fd, child_spin, NULL, &sb), 0);
	close(fd);
	assert_int_equal(ba_sandbox_recv(&sb, &c, 1, 200), -ETIMEDOUT);
	/* killed by us: SIGKILL, said as such */
	assert_int_equal(ba_sandbox_stop(&sb, true, why, sizeof(why)), 1);
	assert_non_null(strstr(why, "signal 9"));
}

int main(void)
{
	const struct CMUnitTest more[] = {
		cmocka_unit_test(test_confined),
		cmocka_unit_test(test_timeout),
	};
	int failed = 0;

	failed += RUN_TABLE(test_child, rows);
	failed += cmocka_run_group_tests_name("sandbox", more, NULL, NULL);
	return failed ? 1 : 0;
}
