/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * opts.c - the option loop the commands share.  A command describes its
 * options once, as its getopt_long table (the short options are the
 * table's letters); the loop prints its usage for -h/--help, says the
 * same "Try 'blkalign <command> --help'" after an unknown option or a
 * missing argument for every command, and hands every other option to
 * the command; -V/--version prints the version, after any command.
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

/* getopt's short options from @longopts: "Jb:h" for -J, -b <n>, -h. */
static int short_options(const struct option *longopts, char *buf, size_t len)
{
	size_t n = 0;

	for (const struct option *o = longopts; o->name; o++) {
		int c = o->val;

		if (o->flag || c >= 128 ||
		    !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			continue;
		if (n + 4 > len)
			return -1;
		buf[n++] = (char)c;
		/* an optional argument is the long option's only (--json=
		 * lines): -J is --json, and -Jb 4096 still -J -b 4096 */
		if (o->has_arg == required_argument)
			buf[n++] = ':';
	}
	buf[n] = '\0';
	return 0;
}

/* "Try 'blkalign CMD --help' ...", once: after the line that said what
 * was wrong with the command line (cli_finish says it for the usage
 * errors that did not). */
void cli_try_help(const char *cmd)
{
	static bool said;

	if (said)
		return;
	said = true;
	fprintf(stderr, "Try '" PROGRAM " %s --help' for more information.\n",
		cmd);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vwarnx(fmt, ap);
	va_end(ap);
	cli_try_help(cmd);
	return BLKALIGN_STATUS_USAGE;
}

/**
 * cli_parse_opts: run getopt_long over @argc/@argv with @cmd's options,
 * giving each option but -h/--help to @fn (its value and argument).
 * Returns: 0 to go on (optind at the first operand); CLI_DONE when
 * --help was printed or @fn returned it (exit 0); else the exit status,
 * BLKALIGN_STATUS_USAGE or what @fn returned.
 */
int cli_parse_opts(const struct cli_cmd *cmd, int argc, char **argv,
		   cli_opt_fn *fn, void *data)
{
	char shortopts[96];
	int c, rc;

	if (short_options(cmd->longopts, shortopts, sizeof(shortopts))) {
		cli_warnx("too many short options for '%s'", cmd->name);
		return BLKALIGN_STATUS_FAILED;
	}
	while ((c = getopt_long(argc, argv, shortopts, cmd->longopts, NULL)) !=
	       -1) {
		if (c == 'h') {
			cmd->usage(stdout);
			return CLI_DONE;
		}
		/* every command's -V is --version, as before the command */
		if (c == 'V') {
			cli_version(stdout);
			return CLI_DONE;
		}
		if (c == '?') {
			/* getopt said what: unknown, ambiguous, no argument */
			cli_try_help(cmd->name);
			return BLKALIGN_STATUS_USAGE;
		}
		/* every command's -J is --json: its one document */
		if (c == 'J' && cli_json_want(cmd->name, optarg))
			return BLKALIGN_STATUS_USAGE;
		rc = fn(data, c, optarg);
		if (rc)
			return rc;
	}
	return 0;
}
