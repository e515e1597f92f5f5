/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fault.h - the fault-injecting fix backend of the tests (fault-io.c). */
#ifndef BLKALIGN_FAULT_H
#define BLKALIGN_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "blkalign.h"

enum fault_kind {
	FAULT_NONE = 0,
	FAULT_KILL,
	FAULT_POWERCUT,
	FAULT_SIGINT,
	FAULT_EIO,
	FAULT_ENOSPC,
	FAULT_TORN,
	FAULT_SERVER,
};

struct fault_spec {
	enum fault_kind kind;
	uint64_t at; /* the N-th write (from 1) */
	int file;    /* an enum blkalign_fix_file, or -1: any */
};

int fault_parse(const char *text, struct fault_spec *s);
const struct blkalign_fix_io *fault_io_new(const struct fault_spec *s);

#endif /* BLKALIGN_FAULT_H */
