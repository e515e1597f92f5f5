/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-fix.c - `blkalign fix`: realign partitions in place, as `plan`
 * computes, through a journal that makes any interruption resumable and
 * undoable (docs/fix.md).  A dry run unless --yes.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define JOURNAL_DIR "/var/lib/blkalign"

/* Where journals go and are looked for (--journal-dir). */
static const char *journal_dir = JOURNAL_DIR;

enum {
	OPT_JOURNAL = 256,
	OPT_RESUME,
	OPT_ROLLBACK,
	OPT_COPY_ALL,
	OPT_STEP,
	OPT_PROGRESS,
	OPT_PARTITION,
	OPT_INSPECT,
	OPT_JOURNAL_DIR,
};

enum progress_mode {
	PROGRESS_AUTO,
	PROGRESS_BAR,
	PROGRESS_LINE,
	PROGRESS_NONE
};

static volatile int stop_signal;

/* fix's I/O backend: NULL (the system's) but in test programs. */
const struct blkalign_fix_io *cli_fix_io;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " fix [options] <image>|<device>\n"
	      " " PROGRAM
	      " fix --resume|--rollback [--journal <file>] <image>|<device>\n"
	      " " PROGRAM
	      " fix --inspect [--journal <file>] [<image>|<device>]\n"
	      "\nRealign partitions in place as 'blkalign plan' computes: move the\n"
	      "data to the new start, then write the new partition table.  A\n"
	      "journal outside the disk makes every step resumable and undoable.\n"
	      "Without --yes, only says what it would do.\n"
	      "\nOptions:\n"
	      " -y, --yes                       really write to the disk\n"
	      "     --partition <n>             fix partition <n> only\n"
	      "     --journal <file>            the journal (default: in the journal\n"
	      "                                 directory, <name>-<disk id>.journal)\n"
	      "     --journal-dir <dir>         where journals go and are looked for\n"
	      "                                 (default " JOURNAL_DIR ")\n"
	      "     --resume                    finish an interrupted fix\n"
	      "     --rollback                  undo an interrupted fix: old layout and data\n"
	      "     --inspect                   say what a journal holds, whether it is\n"
	      "                                 the disk's, and what --resume and\n"
	      "                                 --rollback would do; writes nothing\n"
	      "     --copy-all                  copy whole partitions whose contents\n"
	      "                                 blkalign cannot size\n"
	      "     --step <size>               largest copy step (default 16M)\n"
	      "     --progress <mode>           auto, bar, line or none (default auto:\n"
	      "                                 a bar on a terminal, lines otherwise)\n" CLI_JSON_HELP_34
		      CLI_TOPO_HELP CLI_TABLE_FLAT_HELP("fix's table")
			      CLI_COLOR_HELP
	      " -h, --help                      display this help\n"
	      " -V, --version                   display the version\n"
	      "\nSizes take the suffixes K, M, G (or KiB, MiB, GiB).\n"
	      "\nExit status:\n"
	      "  0  done, or nothing to do\n"
	      "  1  dry run: partitions would be moved or resized\n"
	      "  2  refused: no room, contents larger than the new size or not\n"
	      "     sized (see --copy-all)\n"
	      "  4  operational error (busy disk, I/O error, journal); the\n"
	      "     journal, if written, says how to go on; --resume or\n"
	      "     --rollback refused (another disk's or a damaged journal);\n"
	      "     --inspect: --resume or --rollback could not go on\n"
	      " 16  usage error\n"
	      "  128+n  stopped by signal n; --resume or --rollback go on\n"
	      "\nFor more details see blkalign-fix(8) and docs/fix.md.\n",
	      out);
}

struct progress {
	enum progress_mode mode;
	double t0, last;
	uint64_t base; /* bytes done before this partition */
	bool open;     /* a bar on screen, not ended */
};

/* A bar on screen ended, so that what follows starts on a fresh line. */
static void progress_end(struct progress *p)
{
	if (p->open)
		fputc('\n', stderr);
	p->open = false;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_progress(void *data, uint64_t done, uint64_t total)
{
	struct progress *p = data;
	double t = now(), el = t - p->t0, rate, eta;

	if (p->mode == PROGRESS_NONE || (t - p->last < 1.0 && done < total))
		return;
	p->last = t;
	rate = el > 0 ? (double)done / el : 0;
	eta = rate > 0 ? (double)(total - done) / rate : 0;
	if (p->mode == PROGRESS_LINE) {
		fprintf(stderr,
			"progress done=%" PRIu64 " total=%" PRIu64
			" rate=%.0f eta=%.0f\n",
			done, total, rate, eta);
		return;
	}
	{
		int w = 30, fill = total ? (int)((double)w * done / total) : w;

		fprintf(stderr, "\r[%-*.*s] %5.1f%% %8.1f MiB/s  ETA %4.0f s",
			w, fill, "##############################",
			total ? 100.0 * (double)done / (double)total : 100.0,
			rate / 1048576.0, eta);
		p->open = true;
		if (done >= total)
			progress_end(p);
	}
}

/* Before a move: what it copies, in words (not in --progress none). */
static void on_copying(void *data, int number, uint64_t to_copy, uint64_t whole,
		       const char *source, const char *content)
{
	struct progress *p = data;
	char a[32], b[32];

	if (p->mode == PROGRESS_NONE)
		return;
	progress_end(p);
	blkalign_size_format(to_copy, BLKALIGN_SIZE_LSBLK, a, sizeof(a));
	blkalign_size_format(whole, BLKALIGN_SIZE_LSBLK, b, sizeof(b));
	if (source && strcmp(source, "whole") && to_copy < whole)
		fprintf(stderr,
			"partition %d: copying %s of %s (the %s's used blocks, "
			"%s map)\n",
			number, a, b, content ? content : "contents", source);
	else
		fprintf(stderr, "partition %d: copying %s (all of it)\n",
			number, a);
}

/* Is @path directly in @dir? */
static bool in_dir(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' &&
	       !strchr(path + n + 1, '/');
}

/* A journal of @target found in the journal directory (for listing). */
struct found {
	size_t n;
	char first[4096];
	const char *skip; /* the default: said apart */
};

static void on_found(void *data, const char *path)
{
	struct found *f = data;

	if (f->skip && !strcmp(path, f->skip))
		return;
	if (!f->n++)
		snprintf(f->first, sizeof(f->first), "%s", path);
	cli_warnx("a journal of an earlier fix of this disk: '%s'", path);
}

/*
 * The journal for --resume, --rollback and --inspect without --journal:
 * the default one, or else the only journal in the journal directory
 * that belongs to the disk (its identity, or its marker's fix id).
 */
static const char *resume_journal(struct blkalign_ctx *ctx, const char *target,
				  const char *dflt, char *buf, size_t len)
{
	struct found f = {0};

	if (!access(dflt, F_OK))
		return dflt;
	if (blkalign_fix_find_journals(ctx, target, journal_dir, on_found, &f) <
		    0 ||
	    f.n != 1)
		return dflt;
	snprintf(buf, len, "%s", f.first);
	return buf;
}

/* A new fix: journals of earlier fixes of this disk, said; true if any. */
static bool stale_journals(struct blkalign_ctx *ctx, const char *target,
			   const char *journal)
{
	struct found f = {.skip = journal};

	if (blkalign_fix_find_journals(ctx, target, journal_dir, on_found,
				       &f) <= 0 ||
	    !f.n)
		return false;
	cli_warnx("finish that fix first ('blkalign fix --resume --journal "
		  "FILE %s', or --rollback; 'blkalign fix --inspect --journal "
		  "FILE' says what it holds), or remove the journal",
		  target);
	return true;
}

/* --inspect: the journal given, the disk's, or the disk's marker. */
static int do_inspect(struct blkalign_ctx *ctx, const char *target,
		      const char *journal, bool json)
{
	char dbuf[4096], jbuf[4096];
	int rc;

	if (!journal && !blkalign_fix_journal_path(ctx, target, journal_dir,
						   dbuf, sizeof(dbuf))) {
		journal = resume_journal(ctx, target, dbuf, jbuf, sizeof(jbuf));
		if (access(journal, F_OK))
			journal = NULL; /* none: what the marker says */
	}
	rc = blkalign_fix_inspect(ctx, target, journal, json,
				  json ? cli_json_stdout() : stdout);
	/* but a bad call or no memory, the document is written */
	if (json && (rc == -EINVAL || rc == -ENOMEM))
		cli_json_unstart();
	if (rc < 0) {
		cli_warnx("cannot inspect '%s': %s", journal ? journal : target,
			  strerror(-rc));
		return BLKALIGN_STATUS_FAILED;
	}
	if (fflush(stdout) == EOF)
		return BLKALIGN_STATUS_FAILED;
	return rc ? BLKALIGN_STATUS_FAILED : 0;
}

/* The command line of one fix. */
struct fix_args {
	struct blkalign_fix_opts fo;
	struct cli_topo topo;
	struct progress prog;
	struct cli_table table;
	const char *color;
	const char *target;
	bool yes, resume, rollback, json, inspect;
	int only;
};

static int parse_progress(const char *arg, enum progress_mode *mode)
{
	static const char *const names[] = {"auto", "bar", "line", "none"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*mode = (enum progress_mode)i;
			return 0;
		}
	cli_warnx("invalid progress mode '%s'", arg);
	return -1;
}

static const struct option longopts[] = {
	{"yes", no_argument, NULL, 'y'},
	{"partition", required_argument, NULL, OPT_PARTITION},
	{"journal", required_argument, NULL, OPT_JOURNAL},
	{"resume", no_argument, NULL, OPT_RESUME},
	{"rollback", no_argument, NULL, OPT_ROLLBACK},
	{"inspect", no_argument, NULL, OPT_INSPECT},
	{"journal-dir", required_argument, NULL, OPT_JOURNAL_DIR},
	{"copy-all", no_argument, NULL, OPT_COPY_ALL},
	{"step", required_argument, NULL, OPT_STEP},
	{"progress", required_argument, NULL, OPT_PROGRESS},
	CLI_JSON_LONGOPT,
	CLI_TOPO_LONGOPTS,
	CLI_TABLE_FLAT_LONGOPTS,
	CLI_COLOR_LONGOPT,
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd fix_cmd = {"fix", longopts, usage};

/* One option into @a (a struct fix_args): 0, or the exit status. */
static int fix_opt(void *data, int c, const char *arg)
{
	struct fix_args *a = data;

	switch (c) {
	case 'y':
		a->yes = true;
		return 0;
	case OPT_PARTITION:
		return cli_parse_partition(arg, &a->only)
			       ? BLKALIGN_STATUS_USAGE
			       : 0;
	case OPT_JOURNAL:
		a->fo.journal = arg;
		return 0;
	case OPT_RESUME:
		a->resume = true;
		return 0;
	case OPT_ROLLBACK:
		a->rollback = true;
		return 0;
	case OPT_INSPECT:
		a->inspect = true;
		return 0;
	case OPT_JOURNAL_DIR:
		journal_dir = arg;
		return 0;
	case OPT_COPY_ALL:
		a->fo.copy_all = true;
		return 0;
	case OPT_STEP:
		if (cli_parse_size(arg, &a->fo.max_step) ||
		    a->fo.max_step < 512 || a->fo.max_step > 256ULL << 20) {
			cli_warnx("invalid step '%s' (512 to 256M)", arg);
			return BLKALIGN_STATUS_USAGE;
		}
		return 0;
	case OPT_PROGRESS:
		return parse_progress(arg, &a->prog.mode)
			       ? BLKALIGN_STATUS_USAGE
			       : 0;
	case 'J':
		a->json = true;
		return 0;
	case CLI_OPT_COLOR:
		return cli_color_arg(arg, &a->color);
	}
	return cli_table_topo_opt(&a->table, &a->topo, c, arg);
}

/* A new fix or --resume/--rollback: the target's journal chosen and
 * checked, signals caught.  0, or the exit status. */
static int prepare(struct blkalign_ctx *ctx, struct fix_args *a, char *dbuf,
		   char *jbuf, size_t len)
{
	struct blkalign_fix_opts *fo = &a->fo;
	bool again = a->resume || a->rollback;
	struct sigaction sa = {0};
	char jmsg[512];
	int rc;

	if (!fo->journal) {
		rc = blkalign_fix_journal_path(ctx, a->target, journal_dir,
					       dbuf, len);
		if (rc) {
			cli_warnx("cannot open '%s': %s", a->target,
				  strerror(-rc));
			return BLKALIGN_STATUS_FAILED;
		}
		fo->journal =
			again ? resume_journal(ctx, a->target, dbuf, jbuf, len)
			      : dbuf;
	}
	if (a->prog.mode == PROGRESS_AUTO)
		a->prog.mode =
			isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_LINE;
	a->prog.t0 = now();
	fo->progress = on_progress;
	fo->copying = on_copying;
	fo->progress_data = &a->prog;
	fo->stop = &stop_signal;
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if ((a->yes || again) && in_dir(fo->journal, journal_dir))
		(void)mkdir(journal_dir, 0700);

	/* before planning: an interrupted fix's disk does not plan as it is */
	rc = blkalign_fix_check_journal(a->target, fo->journal, jmsg,
					sizeof(jmsg));
	if (rc == -EEXIST && !again) {
		cli_warnx("%s; finish it with '--resume' or undo it with "
			  "'--rollback' ('--inspect' says what it holds)",
			  jmsg);
		return BLKALIGN_STATUS_FAILED;
	}
	if (rc == -EINVAL ||
	    (rc == -ENOENT && !again && !in_dir(fo->journal, journal_dir))) {
		cli_warnx("%s", jmsg);
		return BLKALIGN_STATUS_FAILED;
	}
	if (!again && stale_journals(ctx, a->target, fo->journal) && a->yes)
		return BLKALIGN_STATUS_FAILED;
	return 0;
}

/* The fix itself, under the target's lock when it writes: *@run, or the
 * exit status. */
static int act(struct blkalign_ctx *ctx, struct fix_args *a,
	       struct blkalign_fix_run **run)
{
	struct blkalign_fix_target *t = NULL;
	char jmsg[2048];
	int rc;

	/* the lock before the audit: the plan is made under it */
	if ((a->yes || a->resume || a->rollback) &&
	    blkalign_fix_target_open(ctx, a->target, a->fo.journal, cli_fix_io,
				     &t, jmsg, sizeof(jmsg))) {
		cli_warnx("%s", jmsg);
		return BLKALIGN_STATUS_FAILED;
	}
	if (a->resume || a->rollback) {
		/* exactly what the journal describes: nothing else */
		rc = blkalign_fix_resume(t, a->rollback, &a->fo, run);
	} else if (cli_topo_apply(&a->topo, ctx)) {
		rc = 0; /* said; an audit failure, as any other */
	} else {
		a->fo.dry_run = !a->yes;
		rc = blkalign_fix_disk(ctx, t, a->target, &a->fo, a->only, run);
	}
	blkalign_fix_target_close(t);
	/* stopped mid-move (a signal, an error): the bar ended */
	progress_end(&a->prog);
	if (rc == -ENOENT && !a->resume && !a->rollback)
		return BLKALIGN_STATUS_USAGE; /* no such partition: said */
	if (rc)
		cli_warnx("cannot fix '%s': %s", a->target, strerror(-rc));
	return *run ? blkalign_fix_run_get_status(*run)
		    : BLKALIGN_STATUS_FAILED;
}

/*
 * fix's last lines, after the library's text: what a dry run with work
 * to do would take (--yes), the partitions that could move although
 * aligned, or that there is nothing to do.
 */
static void print_next(const struct fix_args *a,
		       const struct blkalign_fix_run *run, bool dry, int status)
{
	size_t nout = blkalign_fix_run_get_noutcomes(run), n = 0;

	for (size_t i = 0; i < nout; i++)
		n += blkalign_fix_result_get_number(
			     blkalign_fix_outcome_get_result(
				     blkalign_fix_run_get_outcome(run, i))) !=
		     0;
	if (dry && (status & BLKALIGN_STATUS_FINDINGS))
		printf("%sdry run: nothing written; the same command with "
		       "--yes does it (journal: %s)\n",
		       n ? "\n" : "", a->fo.journal ? a->fo.journal : "none");
	for (size_t k = 0; !nout && k < blkalign_fix_run_get_noptional(run);
	     k++)
		printf("partition %d could move to the %" PRIu64
		       "-byte grain (optional: it is aligned on this device): "
		       "'blkalign fix --partition %d %s' does it\n",
		       blkalign_fix_run_get_optional(run, k),
		       blkalign_fix_run_get_grain(run),
		       blkalign_fix_run_get_optional(run, k), a->target);
	if (!nout &&
	    !(status & (BLKALIGN_STATUS_FAILED | BLKALIGN_STATUS_USAGE)))
		fputs("nothing to do\n", stdout);
}

/* What the run did, as text or JSON on stdout, its errors on stderr. */
static int print_run(const struct fix_args *a,
		     const struct blkalign_fix_run *run, int status)
{
	bool dry = !a->yes && !a->resume && !a->rollback;
	size_t n = blkalign_fix_run_get_noutcomes(run);
	struct blkalign_text_opts to;
	int rc;

	if (a->json) {
		/* the run's status: cli_json_finish puts the exit status */
		if (blkalign_fix_run_write_json(run, a->target, a->fo.journal,
						dry, cli_json_stdout()))
			status = blkalign_status_merge(status,
						       BLKALIGN_STATUS_FAILED);
	} else {
		to = cli_table_text_opts(&a->table, cli_use_color(a->color));
		rc = blkalign_fix_run_write_text(run, dry, stdout, &to);
		if (!rc &&
		    !(to.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)))
			print_next(a, run, dry, status);
		/* -EIO: the flush below says so */
		if (rc && rc != -EIO) {
			cli_warnx("cannot write the outcome: %s",
				  strerror(-rc));
			status = blkalign_status_merge(status,
						       BLKALIGN_STATUS_FAILED);
		}
	}
	for (size_t i = 0; i < n; i++) {
		const struct blkalign_fix_outcome *o =
			blkalign_fix_run_get_outcome(run, i);
		const struct blkalign_fix_result *r =
			blkalign_fix_outcome_get_result(o);
		int orc = blkalign_fix_outcome_get_rc(o);
		const char *msg = blkalign_fix_result_get_message(r);

		if (!orc || orc == -EALREADY || !msg)
			continue;
		if (blkalign_fix_result_get_number(r))
			cli_warnx("partition %d: %s",
				  blkalign_fix_result_get_number(r), msg);
		else
			cli_warnx("%s", msg);
	}
	if (fflush(stdout) == EOF)
		status = blkalign_status_merge(status, BLKALIGN_STATUS_FAILED);
	return status;
}

/* After the options: --inspect, or a fix, resume or rollback. */
static int fix_target(struct blkalign_ctx *ctx, struct fix_args *a, int argc,
		      char **argv)
{
	struct blkalign_fix_run *run = NULL;
	char jbuf[4096], dbuf[4096];
	int status;

	if (a->inspect && optind + 1 >= argc &&
	    (optind < argc || a->fo.journal) && !a->resume && !a->rollback &&
	    !a->yes)
		return do_inspect(ctx, optind < argc ? argv[optind] : NULL,
				  a->fo.journal, a->json);
	if (optind + 1 != argc || a->inspect)
		return cli_usage_error("fix", "%s",
				       a->inspect ? "--inspect takes a journal "
						    "or a target, and no "
						    "--yes, --resume or "
						    "--rollback"
				       : optind >= argc
					       ? "no target given"
					       : "fix takes one target");
	if (a->resume && a->rollback)
		return cli_usage_error("fix", "--resume and --rollback exclude "
					      "each other");
	a->target = argv[optind];
	status = prepare(ctx, a, dbuf, jbuf, sizeof(dbuf));
	if (status)
		return status;
	status = act(ctx, a, &run);
	status = print_run(a, run, status);
	blkalign_fix_run_free(run);
	return status;
}

int cmd_fix(int argc, char **argv)
{
	struct fix_args a = {.fo = BLKALIGN_FIX_OPTS_INIT,
			     .table = {.kind = BLKALIGN_TEXT_TABLE_FIX},
			     .color = "auto"};
	struct blkalign_ctx *ctx;
	int status = cli_parse_opts(&fix_cmd, argc, argv, fix_opt, &a);

	if (status)
		return status == CLI_DONE ? 0 : status;
	if (a.table.list_columns) {
		cli_table_list_columns(BLKALIGN_TEXT_TABLE_FIX);
		return 0;
	}
	if (cli_table_usage(&a.table, "fix"))
		return BLKALIGN_STATUS_USAGE;
	ctx = blkalign_ctx_new();
	cli_set_words(ctx);
	if (!ctx) {
		cli_warnx("out of memory");
		return BLKALIGN_STATUS_FAILED;
	}
	blkalign_ctx_set_log_fn(ctx, cli_log_to_stderr, NULL);
	status = fix_target(ctx, &a, argc, argv);
	blkalign_ctx_unref(ctx);
	return status;
}
