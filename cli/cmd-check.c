/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-check.c - `blkalign check`: audit images and block devices (a
 * directory: the images in it; --files-from: a list, targets.c), write
 * each one's report (text or JSON) as soon as it is audited and free it
 * (--prometheus: its metrics kept, written at the end, prom-file.c), and
 * exit with the status bitmask of the whole run.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum {
	OPT_SYSROOT = 256,
	OPT_LIST_CODES,
	OPT_FROM,
	OPT_FILES_FROM,
	OPT_PROGRESS,
	OPT_PROMETHEUS,
	OPT_SVG,
	OPT_HTML,
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " check [options] [<image>|<device>|<nbd-uri>...]\n"
	      " " PROGRAM " check [options] --files-from <list> [<target>...]\n"
	      " " PROGRAM
	      " check [options] --from <report.json> [<device>...]\n"
	      "\nAudit the alignment of disk images and block devices: partition\n"
	      "starts, ends and sizes against the physical sector, I/O and page\n"
	      "grids.  With no target, audit every block device of this machine.\n"
	      "Nothing is ever opened for writing.\n"
	      "\nTargets: a raw image, or one in a qemu format (qcow2, vmdk, vhdx,\n"
	      "vpc, vdi, qed: read through a private read-only qemu-nbd); an NBD\n"
	      "URI (nbd://host[:port]/export, nbd+unix:///export?socket=path);\n"
	      "a block device or a partition node; a directory: each disk image\n"
	      "in it, by name (not recursed into; other entries are skipped and\n"
	      "said so).  Each report is printed as soon as it is made.\n"
	      "\nOptions:\n" CLI_JSON_HELP_34
	      "     --files-from <list>         audit the targets listed in <list> too,\n"
	      "                                 one per line ('-': standard input)\n"
	      " -0, --null                      the list's targets end with NUL bytes\n"
	      "                                 (find -print0), not newlines\n"
	      "     --progress <mode>           auto, bar, line or none (default auto:\n"
	      "                                 a bar when stderr is a terminal and\n"
	      "                                 stdout is not)\n"
	      "     --prometheus <file>         also write node_exporter textfile metrics\n"
	      "                                 to <file> (*.prom, replaced atomically)\n"
	      "     --svg <file>                also draw each disk's map into <file> (SVG)\n"
	      "     --html <file>               ... into <file> as one HTML page, with\n"
	      "                                 a table of the numbers per disk\n"
	      "     --sysroot <dir>             read sysfs below <dir> instead of /sys\n" CLI_SOURCE_HELP
		      CLI_TOPO_HELP CLI_TABLE_HELP
	      "     --color[=<when>]            colorize: auto, always or never\n"
	      "     --list-codes                list every finding code and exit\n"
	      " -h, --help                      display this help\n"
	      " -V, --version                   display the version\n"
	      "\nSizes take the suffixes K, M, G (or KiB, MiB, GiB).\n"
	      "\nExit status (a bitmask):\n"
	      "  0  aligned\n"
	      "  1  a warning or error finding\n"
	      "  2  incomplete: something could not be read\n"
	      "  4  operational error\n"
	      " 16  usage error\n"
	      "\nFor more details see blkalign-check(8).\n",
	      out);
}

/* --list-codes: every finding code, as a table or (--json) a document. */
static int list_codes(bool json)
{
	if (json) {
		if (blkalign_finding_codes_write_json(cli_json_stdout())) {
			cli_warnx("cannot write the JSON output");
			return BLKALIGN_STATUS_FAILED;
		}
		return 0;
	}
	for (size_t i = 0; i < blkalign_finding_ncodes(); i++) {
		const struct blkalign_code *c = blkalign_finding_code(i);

		printf("%-28s %-8s %s\n", blkalign_code_get_code(c),
		       blkalign_severity_name(blkalign_code_get_severity(c)),
		       blkalign_code_get_summary(c));
	}
	return 0;
}

static const struct option longopts[] = {
	CLI_JSON_LONGOPT,
	{"sysroot", required_argument, NULL, OPT_SYSROOT},
	{"from", required_argument, NULL, OPT_FROM},
	{"files-from", required_argument, NULL, OPT_FILES_FROM},
	{"null", no_argument, NULL, '0'},
	{"progress", required_argument, NULL, OPT_PROGRESS},
	{"prometheus", required_argument, NULL, OPT_PROMETHEUS},
	{"svg", required_argument, NULL, OPT_SVG},
	{"html", required_argument, NULL, OPT_HTML},
	CLI_TOPO_LONGOPTS,
	CLI_TABLE_LONGOPTS,
	CLI_COLOR_LONGOPT,
	{"list-codes", no_argument, NULL, OPT_LIST_CODES},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd check_cmd = {"check", longopts, usage};

enum progress_mode {
	PROGRESS_AUTO,
	PROGRESS_BAR,
	PROGRESS_LINE,
	PROGRESS_NONE
};

static const char *const progress_modes[] = {"auto", "bar", "line", "none"};

struct check_args {
	struct cli_topo topo;
	struct cli_source src;
	struct cli_table table;
	const char *color;
	const char *files_from;
	const char *prometheus; /* the .prom file, or NULL */
	const char *svg, *html; /* the disk map's files */
	enum progress_mode progress;
	bool json, null, list_codes;
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
	case OPT_FILES_FROM:
		if (a->files_from)
			return cli_usage_error("check",
					       "--files-from given twice");
		a->files_from = arg;
		return 0;
	case '0':
		a->null = true;
		return 0;
	case OPT_PROMETHEUS:
		if (a->prometheus)
			return cli_usage_error("check",
					       "--prometheus given twice");
		if (!*arg)
			return cli_usage_error(
				"check", "--prometheus needs a file name");
		a->prometheus = arg;
		return 0;
	case OPT_SVG:
		a->svg = arg;
		return 0;
	case OPT_HTML:
		a->html = arg;
		return 0;
	case OPT_PROGRESS:
		for (size_t i = 0; i < 4; i++)
			if (!strcmp(arg, progress_modes[i])) {
				a->progress = (enum progress_mode)i;
				return 0;
			}
		cli_warnx("invalid progress mode '%s'", arg);
		return BLKALIGN_STATUS_USAGE;
	case CLI_OPT_COLOR:
		return cli_color_arg(arg, &a->color);
	case OPT_LIST_CODES:
		a->list_codes = true;
		return 0;
	}
	return cli_table_topo_opt(&a->table, &a->topo, c, arg);
}

/*
 * Progress over many targets on stderr, as fix does it for bytes: a bar
 * redrawn (ten times a second at most), or lines of key=value, at most
 * one a second, and the last.
 * Auto draws the bar only when stderr is a terminal and stdout is not,
 * so that the two do not mix on one screen; one target, no progress.
 */
struct progress {
	enum progress_mode mode;
	size_t total;
	double t0, last;
	bool drawn; /* a bar is on stderr's last line */
};

/* Before a message on stderr: the bar's line cleared. */
static void progress_clear(struct progress *p)
{
	if (p->drawn)
		fputs("\r\033[K", stderr);
	p->drawn = false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void progress_start(struct progress *p, size_t total)
{
	p->total = total;
	p->t0 = p->last = now();
	if (p->mode == PROGRESS_AUTO)
		p->mode = isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO)
				  ? PROGRESS_BAR
				  : PROGRESS_NONE;
	if (total < 2)
		p->mode = PROGRESS_NONE;
}

static void progress_step(struct progress *p, size_t done)
{
	double t = now(), el = t - p->t0;
	double eta = done ? el / (double)done * (double)(p->total - done) : 0;
	int w = 30, fill;

	if (p->mode == PROGRESS_NONE ||
	    (t - p->last < (p->mode == PROGRESS_BAR ? 0.1 : 1.0) &&
	     done < p->total))
		return;
	p->last = t;
	if (p->mode == PROGRESS_LINE) {
		fprintf(stderr, "progress done=%zu total=%zu eta=%.0f\n", done,
			p->total, eta);
		return;
	}
	fill = (int)((double)w * (double)done / (double)p->total);
	fprintf(stderr, "\r[%-*.*s] %zu/%zu  ETA %4.0f s", w, fill,
		"##############################", done, p->total, eta);
	p->drawn = done < p->total;
	if (!p->drawn)
		fputc('\n', stderr);
}

/* What was printed so far, for the stream's separators and progress. */
struct stream {
	const struct check_args *a;
	bool color, printed;
	size_t nskipped;		  /* skipped entries already said */
	struct blkalign_prometheus *prom; /* --prometheus: the series so far */
	unsigned int status;
	struct progress prog;
	struct cli_diskmap svg, html;
};

/* The problems of the devices @report holds, on stderr. */
static void say_problems(const struct blkalign_report *report,
			 struct progress *p)
{
	for (size_t i = 0; i < blkalign_report_ndevices(report); i++) {
		const struct blkalign_device *d =
			blkalign_report_device(report, i);

		size_t n = blkalign_device_get_nproblems(d);

		if (n)
			progress_clear(p);
		for (size_t k = 0; k < n; k++)
			if (blkalign_device_get_failed(d))
				cli_warnx("%s",
					  blkalign_device_get_problem(d, k));
			else
				cli_warnx("%s: %s", blkalign_device_get_path(d),
					  blkalign_device_get_problem(d, k));
	}
}

/*
 * The text of what was audited or skipped since the last call.  With
 * -r or -P, the layer table alone (its headings once) and the entries
 * skipped said on stderr, so that stdout stays one table.
 */
static void emit_text(struct blkalign_report *report, struct stream *s)
{
	struct blkalign_text_opts o =
		cli_table_text_opts(&s->a->table, s->color);
	bool alone = o.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS);
	int rc;

	for (; s->nskipped < blkalign_report_nskipped(report); s->nskipped++) {
		const char *why, *path = blkalign_report_skipped(
					 report, s->nskipped, &why);

		if (alone) {
			progress_clear(&s->prog);
			cli_warnx("%s: skipped: %s", path, why);
			continue;
		}
		printf("%s%s: skipped: %s\n", s->printed ? "\n" : "", path,
		       why);
		s->printed = true;
	}
	if (!blkalign_report_ndevices(report))
		return;
	if (s->printed && !alone)
		putchar('\n');
	if (s->printed && alone)
		o.flags |= BLKALIGN_TEXT_NOHEADINGS;
	rc = blkalign_report_write_text_opts(report, stdout, &o);
	/* -EIO: the flush below says so */
	if (rc == -ENOMEM) {
		cli_warnx("out of memory");
		s->status |= BLKALIGN_STATUS_FAILED;
	}
	s->printed = true;
}

/*
 * What was audited or skipped since the last call, written out (text:
 * each device's report, a line for each entry skipped; JSON: the device
 * objects) and freed, so that a run over many images holds one.
 */
static void emit(struct blkalign_report *report, struct stream *s)
{
	say_problems(report, &s->prog);
	s->status |= cli_diskmap_add(&s->svg, report);
	s->status |= cli_diskmap_add(&s->html, report);
	if (s->a->json) {
		if (blkalign_report_write_json_devices(report, stdout) &&
		    !ferror(stdout)) {
			cli_warnx("cannot write the JSON report");
			s->status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		emit_text(report, s);
	}
	if (s->prom && blkalign_prometheus_add(s->prom, report) == -ENOMEM) {
		cli_warnx("out of memory");
		s->status |= BLKALIGN_STATUS_FAILED;
	}
	blkalign_report_clear(report);
	fflush(stdout);
}

/* The whole run: the targets in turn (none: every block device, or with
 * --from every saved one), each written as soon as it is audited. */
static void audit(struct blkalign_report *report, const struct check_args *a,
		  const struct cli_targets *targets, bool named,
		  struct stream *s)
{
	int rc;

	/* an empty directory or list is no "every device" */
	if (!named && a->src.from) {
		if (cli_source_check(report, &a->src, NULL))
			s->status |= BLKALIGN_STATUS_FAILED;
		emit(report, s);
	} else if (!named) {
		rc = blkalign_check_all(report);
		if (rc) {
			cli_warnx("cannot list block devices: %s",
				  strerror(-rc));
			s->status |= BLKALIGN_STATUS_FAILED;
		}
		emit(report, s);
	}
	progress_start(&s->prog, targets->n);
	for (size_t i = 0; i < targets->n; i++) {
		rc = cli_target_audit(report, &a->src, &targets->v[i]);
		if (rc == -ENOMEM) {
			cli_warnx("out of memory");
			s->status |= BLKALIGN_STATUS_FAILED;
		} else if (rc < 0 && a->src.from) {
			s->status |= BLKALIGN_STATUS_FAILED;
		}
		emit(report, s);
		progress_step(&s->prog, i + 1);
	}
}

/* The targets: the operands, then the list's, directories expanded. */
static int make_targets(const struct check_args *a, int argc, char **argv,
			struct cli_targets *t)
{
	/* --sysroot and --from take names, not paths */
	bool expand = !a->src.sysroot && !a->src.from;

	for (int i = optind; i < argc; i++)
		if (cli_targets_add(t, argv[i], expand)) {
			cli_warnx("out of memory");
			return BLKALIGN_STATUS_FAILED;
		}
	if (a->files_from &&
	    cli_targets_read(t, a->files_from, a->null, expand))
		return BLKALIGN_STATUS_FAILED;
	/* an extent or a backing file is audited as part of its disk */
	if (expand && cli_targets_find_parts(t)) {
		cli_warnx("out of memory");
		return BLKALIGN_STATUS_FAILED;
	}
	return 0;
}

int cmd_check(int argc, char **argv)
{
	struct check_args a = {.color = "auto"};
	struct blkalign_report *report = NULL;
	struct blkalign_ctx *ctx = NULL;
	struct cli_targets targets = {0};
	struct stream s = {.a = &a};
	unsigned int status = 0;
	int rc;

	rc = cli_parse_opts(&check_cmd, argc, argv, check_opt, &a);
	if (rc)
		return rc == CLI_DONE ? 0 : rc;
	if (a.list_codes)
		return list_codes(a.json);
	if (a.table.list_columns) {
		cli_table_list_columns(BLKALIGN_TEXT_TABLE_LAYERS);
		return 0;
	}
	if (cli_table_usage(&a.table, "check"))
		return BLKALIGN_STATUS_USAGE;
	if (cli_source_usage(&a.src, &a.topo))
		return BLKALIGN_STATUS_USAGE;
	if (a.null && !a.files_from)
		return cli_usage_error("check", "--null needs --files-from");
	/* a file that cannot be written is said before the audit */
	if (a.prometheus && cli_prom_file_check(a.prometheus))
		return BLKALIGN_STATUS_FAILED;
	ctx = blkalign_ctx_new();
	cli_set_words(ctx);
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
	/* the list is read whole first: a bad one stops before any output */
	status = make_targets(&a, argc, argv, &targets);
	if (status)
		goto out;
	report = blkalign_report_new(ctx);
	if (!report) {
		cli_warnx("out of memory");
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	if (a.prometheus && !(s.prom = blkalign_prometheus_new())) {
		cli_warnx("out of memory");
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	/* before the audit: a file that cannot be made stops it */
	if (a.svg)
		status |= cli_diskmap_open(&s.svg, a.svg, BLKALIGN_DISKMAP_SVG);
	if (a.html && !status)
		status |= cli_diskmap_open(&s.html, a.html,
					   BLKALIGN_DISKMAP_HTML);
	if (status)
		goto out;
	s.color = !a.json && cli_use_color(a.color);
	s.prog.mode = a.progress;
	if (a.json) {
		enum blkalign_json_format f;
		FILE *out = cli_json_stream(&f);

		if (blkalign_report_set_json_format(report, f) ||
		    blkalign_report_write_json_begin(report, out))
			s.status |= BLKALIGN_STATUS_FAILED;
	}
	audit(report, &a, &targets, optind < argc || a.files_from, &s);
	/* the metrics once all is audited, before the JSON's status */
	if (s.prom)
		s.status |=
			(unsigned int)cli_prom_file_write(s.prom, a.prometheus);
	s.status |= cli_diskmap_close(&s.svg, true);
	s.status |= cli_diskmap_close(&s.html, true);
	/* the JSON's status is the exit status */
	blkalign_report_add_status(report, s.status);
	if (a.json && blkalign_report_write_json_end(report, stdout) &&
	    !ferror(stdout)) {
		cli_warnx("cannot write the JSON report");
		s.status |= BLKALIGN_STATUS_FAILED;
	}
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_warnx("write error: %s", strerror(errno));
		s.status |= BLKALIGN_STATUS_FAILED;
	}
	status = s.status | blkalign_report_status(report);
out:
	blkalign_prometheus_free(s.prom);
	status |= cli_diskmap_close(&s.svg, false);
	status |= cli_diskmap_close(&s.html, false);
	cli_targets_free(&targets);
	blkalign_report_unref(report);
	blkalign_ctx_unref(ctx);
	return (int)status;
}
