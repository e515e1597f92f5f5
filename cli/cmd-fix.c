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
#define MAX_ROUNDS 128

enum {
	OPT_YES = 256,
	OPT_JOURNAL,
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
	      "     --yes                       really write to the disk\n"
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
	      "                                 a bar on a terminal, lines otherwise)\n"
	      " -J, --json                      print the result as JSON\n"
	      " -b, --logical-sector-size <n>   image: logical sector size (default 512)\n"
	      "     --physical-sector-size <n>  image: physical sector size (default: logical)\n"
	      "     --min-io <n>                image: minimum I/O size (default: physical)\n"
	      "     --opt-io <n>                image: optimal I/O size (default 0)\n"
	      "     --alignment-offset <n>      image: alignment offset (default 0)\n"
	      "     --page-size <n>             page size for the size rule\n"
	      " -h, --help                      display this help\n"
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
	      "\nFor more details see blkalign(8) and docs/fix.md.\n",
	      out);
}

struct progress {
	enum progress_mode mode;
	double t0, last;
	uint64_t base; /* bytes done before this partition */
};

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
		if (done >= total)
			fputc('\n', stderr);
	}
}

static void print_text(const struct blkalign_fix_outcome *o)
{
	const struct blkalign_fix_result *r = &o->res;
	uint64_t lss = r->sector_size ? r->sector_size : 512;

	if (!r->number)
		return; /* a journal that could not be used: said on stderr */
	printf("partition %d: %s", r->number, o->action);
	if (r->old_size)
		printf(": start %" PRIu64 " -> %" PRIu64 ", size %" PRIu64
		       " -> %" PRIu64 " sectors",
		       r->old_start / lss, r->new_start / lss,
		       r->old_size / lss, r->new_size / lss);
	putchar('\n');
	if (r->bytes_copied)
		printf("  copied %" PRIu64 " bytes in %" PRIu64
		       " steps (%s mode), %.2f s, %.1f MiB/s\n",
		       r->bytes_copied, r->steps, r->batch ? "batch" : "step",
		       r->seconds,
		       r->seconds > 0 ? (double)r->bytes_copied / r->seconds /
						1048576.0
				      : 0.0);
	if (r->message[0] && (!o->rc || o->rc == -EALREADY))
		printf("  %s\n", r->message);
}

/* A refusal: the plan cannot be carried out (no room, contents too big
 * or not sized); an error on the way (a full journal directory too) is
 * a failure. */
static bool refused(const struct blkalign_fix_result *r, int rc)
{
	return rc && r->refused;
}

/* --resume/--rollback refused before writing: no journal, another
 * disk's, a damaged one, one in use or of another format. */
static bool resume_refused(int rc)
{
	return rc == -ENOENT || rc == -ESTALE || rc == -EBADMSG ||
	       rc == -EBUSY || rc == -EPROTO;
}

/* The exit status of a fix call: a refusal 2, an operational error 4
 * (once the journal exists, it says how to go on), a signal 128 + n. */
static int status_of(const struct blkalign_fix_result *r, int rc)
{
	if (rc == -EINTR)
		return 128 + (stop_signal ? stop_signal : SIGINT);
	if (r->journal_kept && rc)
		return BLKALIGN_STATUS_FAILED;
	if (!rc || rc == -EALREADY)
		return 0;
	return refused(r, rc) ? BLKALIGN_STATUS_INCOMPLETE
			      : BLKALIGN_STATUS_FAILED;
}

/* What a fix call did to partition @pp, in the words of the output. */
static const char *action_of(const struct blkalign_plan_part *pp,
			     const struct blkalign_fix_result *r, int rc)
{
	if (!rc)
		return pp->new_start != pp->old_start ? "moved" : "resized";
	if (r->journal_kept)
		return rc == -EINTR ? "stopped" : "failed";
	return refused(r, rc) ? "refused" : "failed";
}

static void release(struct blkalign_plan **plan, struct blkalign_report **rep,
		    struct blkalign_ctx **ctx)
{
	blkalign_plan_free(*plan);
	blkalign_report_unref(*rep);
	blkalign_ctx_unref(*ctx);
	*plan = NULL;
	*rep = NULL;
	*ctx = NULL;
}

static bool wanted(const struct blkalign_plan_part *pp, int only)
{
	if (only)
		return pp->number == only && pp->action != BLKALIGN_PLAN_NONE;
	return pp->action == BLKALIGN_PLAN_MOVE ||
	       pp->action == BLKALIGN_PLAN_RESIZE ||
	       pp->action == BLKALIGN_PLAN_IMPOSSIBLE;
}

/* A partition holding the marker of an interrupted fix: say so, stop. */
static bool interrupted(const struct blkalign_device *d)
{
	for (size_t i = 0; i < d->nfindings; i++)
		if (!strcmp(d->findings[i].code, "fix-interrupted")) {
			cli_warnx("%s", d->findings[i].message);
			cli_warnx(
				"finish that fix first: 'blkalign fix --resume "
				"--journal FILE %s' (or --rollback)",
				d->path);
			return true;
		}
	return false;
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
static const char *resume_journal(const char *target, const char *dflt,
				  char *buf, size_t len)
{
	struct found f = {0};

	if (!access(dflt, F_OK))
		return dflt;
	if (blkalign_fix_find_journals(NULL, target, journal_dir, on_found,
				       &f) < 0 ||
	    f.n != 1)
		return dflt;
	snprintf(buf, len, "%s", f.first);
	return buf;
}

/* A new fix: journals of earlier fixes of this disk, said; true if any. */
static bool stale_journals(const char *target, const char *journal)
{
	struct found f = {.skip = journal};

	if (blkalign_fix_find_journals(NULL, target, journal_dir, on_found,
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
static int do_inspect(const char *target, const char *journal, bool json)
{
	char dbuf[4096], jbuf[4096];
	int rc;

	if (!journal && !blkalign_fix_journal_path(NULL, target, journal_dir,
						   dbuf, sizeof(dbuf))) {
		journal = resume_journal(target, dbuf, jbuf, sizeof(jbuf));
		if (access(journal, F_OK))
			journal = NULL; /* none: what the marker says */
	}
	rc = blkalign_fix_inspect(NULL, target, journal, json, stdout);
	if (rc < 0) {
		cli_warnx("cannot inspect '%s': %s", journal ? journal : target,
			  strerror(-rc));
		return BLKALIGN_STATUS_FAILED;
	}
	if (fflush(stdout) == EOF)
		return BLKALIGN_STATUS_FAILED;
	return rc ? BLKALIGN_STATUS_FAILED : 0;
}

/* Nothing needs to move: say which partitions may, and how. */
static void say_optional(const struct blkalign_plan *plan, const char *target)
{
	for (size_t k = 0; k < plan->nparts; k++) {
		const struct blkalign_plan_part *pp = &plan->parts[k];

		if (pp->action == BLKALIGN_PLAN_OPTIONAL)
			printf("partition %d could move to the %" PRIu64
			       "-byte grain (optional: it is aligned on this "
			       "device): 'blkalign fix --partition %d %s' "
			       "does it\n",
			       pp->number, plan->grain, pp->number, target);
	}
}

/*
 * Fix (or, dry, describe) the partitions one at a time, auditing and
 * planning again after each: a moved partition changes its neighbours'
 * room.
 */
static int run(const struct cli_topo *topo, const char *target,
	       struct blkalign_fix_target *t, int only, bool dry,
	       struct blkalign_fix_opts *fo, struct blkalign_fix_outcome *out,
	       size_t *nout)
{
	bool done_num[65536] = {false};
	int status = 0;

	for (int round = 0; round < MAX_ROUNDS && *nout < MAX_ROUNDS; round++) {
		struct blkalign_ctx *ctx = NULL;
		struct blkalign_report *rep = NULL;
		unsigned int astatus = 0; /* fix: any audit failure is a 4 */
		struct blkalign_plan *plan = cli_audit_plan(
			topo, NULL, target, "fix", &ctx, &rep, &astatus);
		const struct blkalign_plan_part *pp = NULL;
		struct blkalign_fix_outcome *o;

		if (!plan) {
			release(&plan, &rep, &ctx);
			return status | BLKALIGN_STATUS_FAILED;
		}
		if (interrupted(plan->device)) {
			release(&plan, &rep, &ctx);
			return status | BLKALIGN_STATUS_FAILED;
		}
		for (size_t k = 0; k < plan->nparts && !pp; k++)
			if (wanted(&plan->parts[k], only) &&
			    !done_num[plan->parts[k].number])
				pp = &plan->parts[k];
		if (!pp) {
			if (only && !*nout)
				cli_warnx("partition %d: nothing to do (%s)",
					  only, "aligned or not there");
			else if (!only && !*nout)
				say_optional(plan, target);
			release(&plan, &rep, &ctx);
			break;
		}
		done_num[pp->number] = true;
		o = &out[(*nout)++];
		if (dry) {
			struct blkalign_fix_opts dfo = *fo;

			dfo.dry_run = true;
			o->rc = blkalign_fix_partition(NULL, plan->device, pp,
						       &dfo, &o->res);
			o->action = o->rc ? "refused"
				    : pp->new_start != pp->old_start
					    ? "would move"
					    : "would resize";
			status |= o->rc ? status_of(&o->res, o->rc) : 1;
		} else {
			o->rc = blkalign_fix_partition(t, plan->device, pp, fo,
						       &o->res);
			o->action = action_of(pp, &o->res, o->rc);
			status |= status_of(&o->res, o->rc);
		}
		if (o->rc && !o->res.number) {
			o->res.number = pp->number;
			o->res.old_start = pp->old_start;
			o->res.old_size = pp->old_size;
			o->res.new_start = pp->new_start;
			o->res.new_size = pp->new_size;
			o->res.sector_size = (uint32_t)plan->device->topology
						     .logical_sector_size.value;
		}
		release(&plan, &rep, &ctx);
		if (status >= 128 || (status & BLKALIGN_STATUS_FAILED))
			break;
	}
	return status;
}

int cmd_fix(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"yes", no_argument, NULL, OPT_YES},
		{"partition", required_argument, NULL, OPT_PARTITION},
		{"journal", required_argument, NULL, OPT_JOURNAL},
		{"resume", no_argument, NULL, OPT_RESUME},
		{"rollback", no_argument, NULL, OPT_ROLLBACK},
		{"inspect", no_argument, NULL, OPT_INSPECT},
		{"journal-dir", required_argument, NULL, OPT_JOURNAL_DIR},
		{"copy-all", no_argument, NULL, OPT_COPY_ALL},
		{"step", required_argument, NULL, OPT_STEP},
		{"progress", required_argument, NULL, OPT_PROGRESS},
		{"json", no_argument, NULL, 'J'},
		CLI_TOPO_LONGOPTS,
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static struct blkalign_fix_outcome out[MAX_ROUNDS];
	struct blkalign_fix_opts fo = {.size = sizeof(fo)};
	struct cli_topo topo = {0};
	struct progress prog = {PROGRESS_AUTO, 0, 0, 0};
	struct sigaction sa = {0};
	char jbuf[4096], dbuf[4096], jmsg[512];
	const char *target;
	struct blkalign_fix_target *t = NULL;
	bool yes = false, resume = false, rollback = false, json = false;
	bool inspect = false, writes;
	size_t nout = 0;
	int64_t v;
	int only = 0, c, rc, status;

	while ((c = getopt_long(argc, argv, "Jb:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_YES:
			yes = true;
			break;
		case OPT_PARTITION:
			if (cli_parse_int(optarg, 1, 65535, &v)) {
				cli_warnx("invalid partition number '%s'",
					  optarg);
				return BLKALIGN_STATUS_USAGE;
			}
			only = (int)v;
			break;
		case OPT_JOURNAL:
			fo.journal = optarg;
			break;
		case OPT_RESUME:
			resume = true;
			break;
		case OPT_ROLLBACK:
			rollback = true;
			break;
		case OPT_INSPECT:
			inspect = true;
			break;
		case OPT_JOURNAL_DIR:
			journal_dir = optarg;
			break;
		case OPT_COPY_ALL:
			fo.copy_all = true;
			break;
		case OPT_STEP:
			if (cli_parse_size(optarg, &fo.max_step) ||
			    fo.max_step < 512 || fo.max_step > 256ULL << 20) {
				cli_warnx("invalid step '%s' (512 to 256M)",
					  optarg);
				return BLKALIGN_STATUS_USAGE;
			}
			break;
		case OPT_PROGRESS:
			if (!strcmp(optarg, "auto"))
				prog.mode = PROGRESS_AUTO;
			else if (!strcmp(optarg, "bar"))
				prog.mode = PROGRESS_BAR;
			else if (!strcmp(optarg, "line"))
				prog.mode = PROGRESS_LINE;
			else if (!strcmp(optarg, "none"))
				prog.mode = PROGRESS_NONE;
			else {
				cli_warnx("invalid progress mode '%s'", optarg);
				return BLKALIGN_STATUS_USAGE;
			}
			break;
		case 'J':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			rc = cli_topo_opt(&topo, c, optarg);
			if (rc > 0)
				break;
			if (rc == 0)
				fprintf(stderr, "Try '" PROGRAM " fix --help' "
						"for more information.\n");
			return BLKALIGN_STATUS_USAGE;
		}
	}
	if (inspect && optind + 1 >= argc && (optind < argc || fo.journal) &&
	    !resume && !rollback && !yes)
		return do_inspect(optind < argc ? argv[optind] : NULL,
				  fo.journal, json);
	if (optind + 1 != argc || inspect) {
		cli_warnx(inspect	   ? "--inspect takes a journal or a "
					     "target, and no --yes, --resume or "
					     "--rollback"
			  : optind >= argc ? "no target given"
					   : "fix takes one target");
		fprintf(stderr, "Try '" PROGRAM " fix --help' for more "
				"information.\n");
		return BLKALIGN_STATUS_USAGE;
	}
	if (resume && rollback) {
		cli_warnx("--resume and --rollback exclude each other");
		return BLKALIGN_STATUS_USAGE;
	}
	target = argv[optind];
	writes = yes || resume || rollback;
	if (!fo.journal) {
		rc = blkalign_fix_journal_path(NULL, target, journal_dir, dbuf,
					       sizeof(dbuf));
		if (rc) {
			cli_warnx("cannot open '%s': %s", target,
				  strerror(-rc));
			return BLKALIGN_STATUS_FAILED;
		}
		fo.journal = resume || rollback
				     ? resume_journal(target, dbuf, jbuf,
						      sizeof(jbuf))
				     : dbuf;
	}
	if (prog.mode == PROGRESS_AUTO)
		prog.mode =
			isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_LINE;
	prog.t0 = now();
	fo.progress = on_progress;
	fo.progress_data = &prog;
	fo.stop = &stop_signal;
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	if (writes && in_dir(fo.journal, journal_dir))
		(void)mkdir(journal_dir, 0700);

	/* before planning: an interrupted fix's disk does not plan as it is */
	rc = blkalign_fix_check_journal(target, fo.journal, jmsg, sizeof(jmsg));
	if (rc == -EINVAL || (rc == -EEXIST && !resume && !rollback) ||
	    (rc == -ENOENT && !resume && !rollback &&
	     !in_dir(fo.journal, journal_dir))) {
		cli_warnx("%s", jmsg);
		return BLKALIGN_STATUS_FAILED;
	}
	if (!resume && !rollback && stale_journals(target, fo.journal) && yes)
		return BLKALIGN_STATUS_FAILED;
	/* the lock before the audit: the plan is made under it */
	if (writes &&
	    blkalign_fix_target_open(NULL, target, fo.journal, cli_fix_io, &t,
				     jmsg, sizeof(jmsg))) {
		cli_warnx("%s", jmsg);
		return BLKALIGN_STATUS_FAILED;
	}
	if (resume || rollback) {
		/* exactly what the journal describes: nothing else */
		struct blkalign_fix_outcome *o = &out[nout++];

		o->rc = blkalign_fix_resume(t, rollback, &fo, &o->res);
		o->action = o->res.rolled_back	    ? "rolled back"
			    : !o->rc		    ? "finished"
			    : resume_refused(o->rc) ? "refused"
			    : o->rc == -EINTR	    ? "stopped"
						    : "failed";
		status = status_of(&o->res, o->rc);
	} else {
		status = run(&topo, target, t, only, !yes, &fo, out, &nout);
	}
	blkalign_fix_target_close(t);

	if (json) {
		if (blkalign_fix_write_json(out, nout, target, fo.journal,
					    !yes && !resume && !rollback,
					    status, stdout))
			status |= BLKALIGN_STATUS_FAILED;
	} else {
		for (size_t i = 0; i < nout; i++)
			print_text(&out[i]);
		if (!yes && !resume && !rollback && (status & 1))
			printf("dry run: nothing written; the same command "
			       "with --yes does it (journal: %s)\n",
			       fo.journal);
		if (!nout && !(status & BLKALIGN_STATUS_FAILED))
			printf("nothing to do\n");
	}
	for (size_t i = 0; i < nout; i++) {
		const struct blkalign_fix_result *r = &out[i].res;

		if (!out[i].rc || out[i].rc == -EALREADY || !r->message[0])
			continue;
		if (r->number)
			cli_warnx("partition %d: %s", r->number, r->message);
		else
			cli_warnx("%s", r->message);
	}
	if (fflush(stdout) == EOF)
		status |= BLKALIGN_STATUS_FAILED;
	return status;
}
