/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz-common.c - helpers shared by the fuzz targets.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, what);
	abort();
}
