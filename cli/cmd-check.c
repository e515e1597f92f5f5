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
	      " " PROGRAM " check [options] [<image>|<device>|<nbd-uri>...]\n"
	      " " PROGRAM
	      " check [options] --from <report.json> [<device>...]\n"
	      "\nAudit the alignment of disk images and block devices: partition\n"
	      "starts, ends and sizes against the physical sector, I/O and page\n"
	      "grids.  With no target, audit every block device of this machine.\n"
	      "Nothing is ever opened for writing.\n"
	      "\nTargets: a raw image, or one in a qemu format (qcow2, vmdk, vhdx,\n"
	      "vpc, vdi, qed: read through a private read-only qemu-nbd); an NBD\n"
	      "URI (nbd://host[:port]/export, nbd+unix:///export?socket=path);\n"
	      "a block device or a partition node.\n"
	      "\nOptions:\n"
	      " -J, --json                      print the report as JSON\n"
	      "     --sysroot <dir>             read sysfs below <dir> instead of /sys\n" CLI_SOURCE_HELP
	      " -b, --logical-sector-size <n>   image: logical sector size (default: the image's, else 512)\n"
	      "     --physical-sector-size <n>  image: physical sector size (default: the image's, else logical)\n"
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

static const struct cli_cmd check_cmd = {"check", longopts, usage};

struct check_args {
	struct cli_topo topo;
	struct cli_source src;
	const char *color;
	bool json;
};

static int check_opt(void *data, int c, const char *arg)
{
	struct check_args *a = data;

	switch (c) {
	case 'J':
		a->json = true;
		return 0;
	case OPT_SYSROOT:
		a->src.sysroot = arg;
		return 0;
	case OPT_FROM:
		a->src.from = arg;
		return 0;
	case OPT_COLOR:
		a->color = arg ? arg : "always";
		if (strcmp(a->color, "auto") && strcmp(a->color, "always") &&
		    strcmp(a->color, "never")) {
			cli_warnx("invalid color mode '%s'", a->color);
			return BLKALIGN_STATUS_USAGE;
		}
		return 0;
	case OPT_LIST_CODES:
		list_codes();
		return CLI_DONE;
	}
	/* a bad value: said */
	return cli_topo_opt(&a->topo, c, arg) > 0 ? 0 : BLKALIGN_STATUS_USAGE;
}

/* The targets audited into @report (none: every block device, or with
 * --from every saved one), and what could not be read said. */
static unsigned int audit(struct blkalign_report *report,
			  const struct check_args *a, int argc, char **argv)
{
	unsigned int status = 0;
	int rc;

	if (optind >= argc && a->src.from) {
		if (cli_source_check(report, &a->src, NULL))
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
		rc = cli_source_check(report, &a->src, argv[i]);
		if (rc == -ENOMEM) {
			cli_warnx("out of memory");
			status |= BLKALIGN_STATUS_FAILED;
		} else if (rc && a->src.from) {
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
	return status;
}

/* The report on stdout, as text or JSON. */
static unsigned int print_report(const struct blkalign_report *report,
				 const struct check_args *a)
{
	unsigned int status = 0;
	int rc;

	if (a->json) {
		if (blkalign_report_write_json(report, stdout)) {
			cli_warnx("cannot write the JSON report");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		rc = blkalign_report_write_text(
			report, stdout,
			cli_use_color(a->color) ? BLKALIGN_TEXT_COLOR : 0);
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
	return status;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = {.color = "auto"};
	struct blkalign_report *report = NULL;
	struct blkalign_ctx *ctx = NULL;
	unsigned int status = 0;
	int rc;

	rc = cli_parse_opts(&check_cmd, argc, argv, check_opt, &a);
	if (rc)
		return rc == CLI_DONE ? 0 : rc;
	if (cli_source_usage(&a.src, &a.topo))
		return BLKALIGN_STATUS_USAGE;
	ctx = blkalign_ctx_new();
	if (!ctx) {
		cli_warnx("out of memory");
		return BLKALIGN_STATUS_FAILED;
	}
	blkalign_ctx_set_log_fn(ctx, cli_log_to_stderr, NULL);
	if (cli_topo_apply(&a.topo, ctx)) {
		status = BLKALIGN_STATUS_USAGE;
		goto out;
	}
	if (a.src.sysroot && cli_set_sysroot(ctx, a.src.sysroot)) {
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	report = blkalign_report_new(ctx);
	if (!report) {
		cli_warnx("out of memory");
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	status = audit(report, &a, argc, argv);
	status |= print_report(report, &a);
	status |= blkalign_report_status(report);
out:
	blkalign_report_unref(report);
	blkalign_ctx_unref(ctx);
	return (int)status;
}
