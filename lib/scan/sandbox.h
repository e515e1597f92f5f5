/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sandbox.h - a child that can only read one file and talk on one socket
 * (sandbox.c), for the parsers of untrusted images (vdisk-child.c).
 */
#ifndef BLKALIGN_SANDBOX_H
#define BLKALIGN_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The child's two descriptors. */
#define BA_SANDBOX_IMAGE_FD 3
#define BA_SANDBOX_SOCK_FD  4
/* The exit status of a child that could not be confined (it runs
 * nothing of its function): ba_sandbox_stop returns it. */
#define BA_SANDBOX_UNCONFINED 126

struct ba_sandbox {
	pid_t pid; /* 0: none */
	int sock;  /* our end; -1: closed */
};

int ba_sandbox_start(int image_fd, int (*fn)(void *arg), void *arg,
		     struct ba_sandbox *sb);
int ba_sandbox_send(struct ba_sandbox *sb, const void *buf, size_t len);
int ba_sandbox_recv(struct ba_sandbox *sb, void *buf, size_t len,
		    int timeout_ms);
int ba_sandbox_stop(struct ba_sandbox *sb, bool kill_it, char *why, size_t len);

#endif
