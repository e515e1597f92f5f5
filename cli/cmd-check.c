/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-check.c - `blkalign check`: audit images and block devices, print
 * the report (text or JSON) and exit with the status bitmask.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_SYSROOT = 256,
	OPT_COLOR,
	OPT_LIST_CODES,
	OPT_FROM,
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " check [options] [<image>|<device>...]\n"
	      " " PROGRAM
	      " check [options] --from <report.json> [<device>...]\n"
	      "\nAudit the alignment of disk images and block devices: partition\n"
	      "starts, ends and sizes against the physical sector, I/O and page\n"
	      "grids.  With no target, audit every block device of this machine.\n"
	      "Nothing is ever opened for writing.\n"
	      "\nOptions:\n"
	      " -J, --json                      print the report as JSON\n"
	      "     --sysroot <dir>             read sysfs below <dir> instead of /sys\n" CLI_SOURCE_HELP
	      " -b, --logical-sector-size <n>   image: logical sector size (default 512)\n"
	      "     --physical-sector-size <n>  image: physical sector size (default: logical)\n"
	      "     --min-io <n>                image: minimum I/O size (default: physical)\n"
	      "     --opt-io <n>                image: optimal I/O size (default 0)\n"
	      "     --alignment-offset <n>      image: alignment offset (default 0)\n"
	      "     --page-size <n>             page size for the soft block size rule\n"
	      "     --color[=<when>]            colorize: auto, always or never\n"
	      "     --list-codes                list every finding code and exit\n"
	      " -h, --help                      display this help\n"
	      "\nSizes take the suffixes K, M, G (or KiB, MiB, GiB).\n"
	      "\nExit status (a bitmask):\n"
	      "  0  aligned\n"
	      "  1  a warning or error finding\n"
	      "  2  incomplete: something could not be read\n"
	      "  4  operational error\n"
	      " 16  usage error\n"
	      "\nFor more details see blkalign(8).\n",
	      out);
}

static void list_codes(void)
{
	for (const struct blkalign_code *c = blkalign_finding_codes(); c->code;
	     c++)
		printf("%-28s %-8s %s\n", c->code,
		       blkalign_severity_name(c->severity), c->summary);
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'J'},
		{"sysroot", required_argument, NULL, OPT_SYSROOT},
		{"from", required_argument, NULL, OPT_FROM},
		CLI_TOPO_LONGOPTS,
		{"color", optional_argument, NULL, OPT_COLOR},
		{"list-codes", no_argument, NULL, OPT_LIST_CODES},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct cli_topo topo = {0};
	struct blkalign_report *report = NULL;
	struct blkalign_ctx *ctx = NULL;
	struct cli_source src = {0};
	const char *color = "auto";
	unsigned int status = 0;
	bool json = false;
	int c, rc;

	while ((c = getopt_long(argc, argv, "Jb:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'J':
			json = true;
			break;
		case OPT_SYSROOT:
			src.sysroot = optarg;
			break;
		case OPT_FROM:
			src.from = optarg;
			break;
		case OPT_COLOR:
			color = optarg ? optarg : "always";
			if (strcmp(color, "auto") && strcmp(color, "always") &&
			    strcmp(color, "never")) {
				cli_warnx("invalid color mode '%s'", color);
				return BLKALIGN_STATUS_USAGE;
			}
			break;
		case OPT_LIST_CODES:
			list_codes();
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			rc = cli_topo_opt(&topo, c, optarg);
			if (rc > 0)
				break;
			if (rc == 0)
				fprintf(stderr,
					"Try '" PROGRAM " check --help' "
					"for more information.\n");
			return BLKALIGN_STATUS_USAGE;
		}
	}

	if (cli_source_usage(&src, &topo))
		return BLKALIGN_STATUS_USAGE;
	ctx = blkalign_ctx_new();
	if (!ctx) {
		cli_warnx("out of memory");
		return BLKALIGN_STATUS_FAILED;
	}
	blkalign_ctx_set_log_fn(ctx, cli_log_to_stderr, NULL);
	if (cli_topo_apply(&topo, ctx)) {
		status = BLKALIGN_STATUS_USAGE;
		goto out;
	}
	if (src.sysroot && cli_set_sysroot(ctx, src.sysroot)) {
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	report = blkalign_report_new(ctx);
	if (!report) {
		cli_warnx("out of memory");
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	if (optind >= argc && src.from) {
		if (cli_source_check(report, &src, NULL))
			status |= BLKALIGN_STATUS_FAILED;
	} else if (optind >= argc) {
		rc = blkalign_check_all(report);
		if (rc) {
			cli_warnx("cannot list block devices: %s",
				  strerror(-rc));
			status |= BLKALIGN_STATUS_FAILED;
		}
	}
	for (int i = optind; i < argc; i++) {
		rc = cli_source_check(report, &src, argv[i]);
		if (rc == -ENOMEM) {
			cli_warnx("out of memory");
			status |= BLKALIGN_STATUS_FAILED;
		} else if (rc && src.from) {
			status |= BLKALIGN_STATUS_FAILED;
		}
	}
	for (size_t i = 0; i < blkalign_report_ndevices(report); i++) {
		const struct blkalign_device *d =
			blkalign_report_device(report, i);

		for (size_t k = 0; k < d->nproblems; k++)
			if (d->failed)
				cli_warnx("%s", d->problems[k]);
			else
				cli_warnx("%s: %s", d->path, d->problems[k]);
	}
	if (json) {
		if (blkalign_report_write_json(report, stdout)) {
			cli_warnx("cannot write the JSON report");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		rc = blkalign_report_write_text(
			report, stdout,
			cli_use_color(color) ? BLKALIGN_TEXT_COLOR : 0);
		/* -EIO: the flush below says so */
		if (rc == -ENOMEM) {
			cli_warnx("out of memory");
			status |= BLKALIGN_STATUS_FAILED;
		}
	}
	if (fflush(stdout) == EOF) {
		cli_warnx("write error: %s", strerror(errno));
		status |= BLKALIGN_STATUS_FAILED;
	}
	status |= blkalign_report_status(report);
out:
	blkalign_report_unref(report);
	blkalign_ctx_unref(ctx);
	return (int)status;
}
