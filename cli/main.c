/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * main.c - blkalign: find, explain and fix misaligned storage layouts.
 * Dispatches to one subcommand per file (cmd-<name>.c) from a table;
 * blkalign.c's main() calls it (test programs link the commands with a
 * main of their own, tests/fault/).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct command commands[] = {
	{"check", cmd_check, "audit the alignment of images and devices"},
	{"model", cmd_model, "predict the I/O cost of a layout for workloads"},
	{"trace", cmd_trace, "record the block requests a command causes"},
	{"bench", cmd_bench, "measure what misalignment costs on the device"},
	{"plan", cmd_plan, "compute an aligned layout for a disk (no writes)"},
	{"fix", cmd_fix, "realign partitions in place, crash-safely"},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " <command> [options] [target...]\n"
	      " " PROGRAM " [target...]            same as 'check'\n"
	      "\nFind, explain and fix misaligned storage layouts.\n"
	      "\nCommands:\n",
	      out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(out, " %-10s %s\n", commands[i].name,
			commands[i].summary);
	fputs("\nOptions:\n"
	      " -h, --help     display this help\n"
	      " -V, --version  display version\n"
	      "\nRun '" PROGRAM " <command> --help' for the options of a "
	      "command.\nFor more details see blkalign(8).\n",
	      out);
}

void cli_vwarnx(const char *fmt, va_list ap)
{
	char msg[2048];

	/* the failure document of --json keeps it too (cut at 2 KiB) */
	vsnprintf(msg, sizeof(msg), fmt, ap);
	fprintf(stderr, PROGRAM ": %s\n", msg);
	cli_json_note(msg);
}

void cli_warnx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vwarnx(fmt, ap);
	va_end(ap);
}

/* The library's log function for every command: its messages as warnings. */
void cli_log_to_stderr(void *data, const char *msg)
{
	(void)data;
	cli_warnx("%s", msg);
}

/* A command's @status on its way out: its --json document, and after a
 * usage error where to look (util-linux's second line). */
static int finish(const char *cmd, int status)
{
	status = cli_json_finish(status);
	if (status < 128 && (status & BLKALIGN_STATUS_USAGE))
		cli_try_help(cmd);
	return status;
}

int cli_main(int argc, char **argv)
{
	const char *name;

	if (argc < 2)
		return finish("check", cmd_check(argc, argv));
	name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(name, "-V") || !strcmp(name, "--version")) {
		cli_version(stdout);
		return 0;
	}
	for (size_t i = 0; i < NCOMMANDS; i++) {
		char prog[64];

		if (strcmp(name, commands[i].name))
			continue;
		/* getopt's messages then read "blkalign check: ..." */
		snprintf(prog, sizeof(prog), PROGRAM " %s", name);
		argv[1] = prog;
		return finish(name, commands[i].fn(argc - 1, argv + 1));
	}
	/* No command: options or targets go to 'check'. */
	if (name[0] == '-' || strchr(name, '/') || access(name, F_OK) == 0)
		return finish("check", cmd_check(argc, argv));
	cli_warnx("unknown command '%s'", name);
	usage(stderr);
	return BLKALIGN_STATUS_USAGE;
}
