/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-plan.c - `blkalign plan`: audit one image or disk like check, then
 * print the aligned layout of its partitions (what moves, by how much,
 * what to copy, how long) as a diff, as JSON or as an sfdisk script.
 * Nothing is ever opened for writing.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define DEFAULT_THROUGHPUT (100ULL * 1024 * 1024) /* bytes/s, assumed */

enum {
	OPT_SFDISK = 256,
	OPT_PARTITION,
	OPT_THROUGHPUT,
	OPT_SYSROOT,
	OPT_FROM,
	OPT_SVG,
	OPT_HTML,
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " plan [options] <image>|<device>\n"
	      " " PROGRAM " plan [options] --from <report.json> [<device>]\n"
	      "\nAudit a disk image or whole disk like 'check', then compute the\n"
	      "aligned layout of its partitions: starts moved up to the grain,\n"
	      "sizes ending on it, never cutting into the data in use and never\n"
	      "overlapping what follows.  Nothing is written.\n"
	      "\nOptions:\n" CLI_JSON_HELP_34
	      "     --sfdisk                    print the planned layout as an sfdisk script\n"
	      "     --partition <n>             plan partition <n> only\n"
	      "     --throughput <size>         copy speed per second for the time\n"
	      "                                 estimates (default 100M, an assumption)\n"
	      "     --svg <file>                also draw the disk today and as planned\n"
	      "                                 into <file> (SVG)\n"
	      "     --html <file>               ... into <file> as one HTML page, with\n"
	      "                                 tables of the numbers\n"
	      "     --sysroot <dir>             plan from a saved sysfs tree (no --sfdisk)\n" CLI_SOURCE_HELP
		      CLI_TOPO_HELP CLI_TABLE_FLAT_HELP("plan's table")
			      CLI_COLOR_HELP
	      " -h, --help                      display this help\n"
	      " -V, --version                   display the version\n"
	      "\nSizes take the suffixes K, M, G (or KiB, MiB, GiB).\n"
	      "\nExit status (a bitmask):\n"
	      "  0  nothing needs to move (optional moves aside)\n"
	      "  1  the plan moves or resizes a partition\n"
	      "  2  incomplete: a partition cannot be planned, or something\n"
	      "     could not be read\n"
	      "  4  operational error\n"
	      " 16  usage error\n"
	      "\nFor more details see blkalign-plan(8) and docs/plan.md.\n",
	      out);
}

/* The exit bits of what @p plans (@only: that partition, 0: all). */
static unsigned int plan_status(const struct blkalign_plan *p, int only)
{
	unsigned int status = 0;
	size_t shown = 0;

	for (size_t k = 0; k < blkalign_plan_get_nparts(p); k++) {
		const struct blkalign_plan_part *pp =
			blkalign_plan_get_part(p, k);
		enum blkalign_plan_action a = blkalign_plan_part_get_action(pp);

		if (only && blkalign_plan_part_get_number(pp) != only)
			continue;
		shown++;
		if (a == BLKALIGN_PLAN_MOVE || a == BLKALIGN_PLAN_RESIZE)
			status |= BLKALIGN_STATUS_FINDINGS;
		if (a == BLKALIGN_PLAN_IMPOSSIBLE)
			status |= BLKALIGN_STATUS_INCOMPLETE;
	}
	if (only && !shown) {
		status |= cli_usage_error(
			"plan", "'%s' has no partition %d to plan",
			blkalign_device_get_path(blkalign_plan_get_device(p)),
			only);
	}
	return status;
}

static const struct option longopts[] = {
	CLI_JSON_LONGOPT,
	{"sfdisk", no_argument, NULL, OPT_SFDISK},
	{"partition", required_argument, NULL, OPT_PARTITION},
	{"throughput", required_argument, NULL, OPT_THROUGHPUT},
	{"sysroot", required_argument, NULL, OPT_SYSROOT},
	{"from", required_argument, NULL, OPT_FROM},
	{"svg", required_argument, NULL, OPT_SVG},
	{"html", required_argument, NULL, OPT_HTML},
	CLI_TOPO_LONGOPTS,
	CLI_TABLE_FLAT_LONGOPTS,
	CLI_COLOR_LONGOPT,
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd plan_cmd = {"plan", longopts, usage};

struct plan_args {
	struct cli_topo topo;
	struct cli_source src;
	struct cli_table table;
	const char *color;
	const char *svg, *html; /* the disk map's files */
	uint64_t tput;		/* bytes/s */
	int only;		/* --partition, 0: all */
	bool json, sfdisk;
	const char *target; /* NULL: the one device of --from */
};

static int plan_opt(void *data, int c, const char *arg)
{
	struct plan_args *a = data;

	switch (c) {
	case 'J':
		a->json = true;
		return 0;
	case OPT_SFDISK:
		a->sfdisk = true;
		return 0;
	case OPT_PARTITION:
		return cli_parse_partition(arg, &a->only)
			       ? BLKALIGN_STATUS_USAGE
			       : 0;
	case OPT_THROUGHPUT:
		if (cli_parse_size(arg, &a->tput) || !a->tput) {
			cli_warnx("invalid throughput '%s'", arg);
			return BLKALIGN_STATUS_USAGE;
		}
		return 0;
	case OPT_SYSROOT:
		a->src.sysroot = arg;
		return 0;
	case OPT_FROM:
		a->src.from = arg;
		return 0;
	case OPT_SVG:
		a->svg = arg;
		return 0;
	case OPT_HTML:
		a->html = arg;
		return 0;
	case CLI_OPT_COLOR:
		return cli_color_arg(arg, &a->color);
	}
	return cli_table_topo_opt(&a->table, &a->topo, c, arg);
}

/* The options, then the target: 0 to go on, CLI_DONE or the status. */
static int parse_args(int argc, char **argv, struct plan_args *a)
{
	int rc = cli_parse_opts(&plan_cmd, argc, argv, plan_opt, a);

	if (rc)
		return rc;
	if (a->table.list_columns) {
		cli_table_list_columns(BLKALIGN_TEXT_TABLE_PLAN);
		return CLI_DONE;
	}
	if (cli_table_usage(&a->table, "plan"))
		return BLKALIGN_STATUS_USAGE;
	if (a->json && a->sfdisk) {
		cli_warnx("--json and --sfdisk exclude each other");
		return BLKALIGN_STATUS_USAGE;
	}
	if (cli_source_usage(&a->src, &a->topo))
		return BLKALIGN_STATUS_USAGE;
	if (a->src.sysroot && a->sfdisk) {
		cli_warnx("--sfdisk needs the device or image: a sysfs tree "
			  "records neither the table type nor its identifiers");
		return BLKALIGN_STATUS_USAGE;
	}
	if (optind + 1 != argc && !(a->src.from && optind == argc))
		return cli_usage_error(
			"plan", optind >= argc ? "no target given"
					       : "plan takes one target");
	a->target = optind < argc ? argv[optind] : NULL;
	return 0;
}

/* The plan as text, JSON or an sfdisk script, and stdout flushed: the
 * status. */
static unsigned int write_plan(const struct plan_args *a,
			       struct blkalign_plan *plan)
{
	unsigned int status = 0;
	struct blkalign_text_opts o;
	int rc;

	if (!a->json && !a->sfdisk) {
		o = cli_table_text_opts(&a->table, cli_use_color(a->color));
		rc = blkalign_plan_write_text(plan, a->only, (double)a->tput,
					      stdout, &o);
		/* -EIO: the flush below says so */
		if (rc && rc != -EIO) {
			cli_warnx("cannot write the plan: %s", strerror(-rc));
			status |= BLKALIGN_STATUS_FAILED;
		}
	}
	if (a->json &&
	    blkalign_plan_write_json(&plan, 1, a->only, (double)a->tput,
				     cli_json_stdout())) {
		cli_warnx("cannot write the JSON plan");
		status |= BLKALIGN_STATUS_FAILED;
	}
	if (a->sfdisk && blkalign_plan_write_sfdisk(plan, a->only, stdout)) {
		cli_warnx("cannot write the sfdisk script");
		status |= BLKALIGN_STATUS_FAILED;
	}
	if (fflush(stdout) == EOF) {
		cli_warnx("write error: %s", strerror(errno));
		status |= BLKALIGN_STATUS_FAILED;
	}
	return status;
}

static unsigned int draw_plan(struct cli_diskmap *m,
			      const struct blkalign_plan *plan)
{
	if (!m->map || !blkalign_diskmap_add_plan(m->map, plan))
		return 0;
	cli_warnx("cannot draw the plan: out of memory");
	return BLKALIGN_STATUS_FAILED;
}

int cmd_plan(int argc, char **argv)
{
	struct plan_args a = {.tput = DEFAULT_THROUGHPUT,
			      .table = {.kind = BLKALIGN_TEXT_TABLE_PLAN},
			      .color = "auto"};
	struct blkalign_report *report = NULL;
	struct blkalign_plan *plan = NULL;
	struct blkalign_ctx *ctx = NULL;
	struct cli_diskmap svg = {0}, html = {0};
	unsigned int status = 0;
	int rc = parse_args(argc, argv, &a);

	if (rc)
		return rc == CLI_DONE ? 0 : rc;
	/* before the audit: a file that cannot be made stops it */
	if (a.svg)
		status |= cli_diskmap_open(&svg, a.svg, BLKALIGN_DISKMAP_SVG);
	if (a.html && !status)
		status |=
			cli_diskmap_open(&html, a.html, BLKALIGN_DISKMAP_HTML);
	if (status) {
		cli_diskmap_close(&svg, false);
		return (int)status;
	}
	plan = cli_audit_plan(&a.topo, &a.src, a.target, "plan", &ctx, &report,
			      &status);
	if (plan) {
		status |= plan_status(plan, a.only);
		if (!(status & BLKALIGN_STATUS_USAGE))
			status |= write_plan(&a, plan);
		status |= draw_plan(&svg, plan) | draw_plan(&html, plan);
	}
	status |= cli_diskmap_close(&svg, plan != NULL);
	status |= cli_diskmap_close(&html, plan != NULL);
	blkalign_plan_free(plan);
	blkalign_report_unref(report);
	blkalign_ctx_unref(ctx);
	return (int)status;
}
