/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - blkalign-fault: the blkalign commands with fix's I/O through
 * the fault backend (fault-io.c) that $BLKALIGN_FAULT names, e.g.
 * BLKALIGN_FAULT=kill:120 or powercut:40:journal; unset, the system's.
 * For the crash tests in tests/ts/fix; never installed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "fault.h"

int main(int argc, char **argv)
{
	const char *f = getenv("BLKALIGN_FAULT");
	struct fault_spec s;

	if (f && *f) {
		if (fault_parse(f, &s)) {
			fprintf(stderr,
				"blkalign-fault: bad BLKALIGN_FAULT '%s' "
				"(kill|powercut|sigint|eio|enospc|torn|server:N"
				"[:disk|:journal])\n",
				f);
			return 16;
		}
		cli_fix_io = fault_io_new(&s);
	}
	return cli_main(argc, argv);
}
