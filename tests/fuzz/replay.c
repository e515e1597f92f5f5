/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay.c - main() for a fuzz target built without libFuzzer: feed each
 * file named on the command line, and each regular file of each directory
 * named there, to LLVMFuzzerTestOneInput().  meson test runs it on the
 * seed corpus in every build, so the targets stay compiled and the seeds
 * keep passing (under the sanitizers too, in a sanitizer build).
 *
 * Exit status: 0, or 1 when an argument cannot be read or no input was
 * found at all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

/* Inputs larger than this are truncated, as libFuzzer's -max_len would. */
#define REPLAY_MAX (64 * 1024 * 1024)

static int replay_file(const char *path)
{
	struct stat st;
	uint8_t *buf;
	size_t len, done = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "replay: cannot open '%s': %s\n", path,
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	len = st.st_size > REPLAY_MAX ? REPLAY_MAX : (size_t)st.st_size;
	/* Exactly len bytes (at least 1 for malloc), so ASan sees overreads. */
	buf = malloc(len ? len : 1);
	if (!buf) {
		close(fd);
		return -1;
	}
	while (done < len) {
		ssize_t n = read(fd, buf + done, len - done);

		if (n <= 0) {
			fprintf(stderr, "replay: cannot read '%s'\n", path);
			free(buf);
			close(fd);
			return -1;
		}
		done += (size_t)n;
	}
	close(fd);
	fprintf(stderr, "replay: %s (%zu bytes)\n", path, len);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

static int only_visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static int replay_dir(const char *dir, unsigned int *count)
{
	struct dirent **names = NULL;
	int n = scandir(dir, &names, only_visible, alphasort);
	int rc = 0;

	if (n < 0) {
		fprintf(stderr, "replay: cannot list '%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char *path = NULL;
		struct stat st;

		if (asprintf(&path, "%s/%s", dir, names[i]->d_name) < 0) {
			rc = -1;
			break;
		}
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			if (replay_file(path))
				rc = -1;
			else
				(*count)++;
		}
		free(path);
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	unsigned int count = 0;
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;

		if (stat(argv[i], &st) < 0) {
			fprintf(stderr, "replay: '%s': %s\n", argv[i],
				strerror(errno));
			rc = 1;
		} else if (S_ISDIR(st.st_mode)) {
			if (replay_dir(argv[i], &count))
				rc = 1;
		} else if (replay_file(argv[i])) {
			rc = 1;
		} else {
			count++;
		}
	}
	printf("replayed %u inputs\n", count);
	return rc || count == 0 ? 1 : 0;
}
