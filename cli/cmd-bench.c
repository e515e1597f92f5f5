/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-bench.c - `blkalign bench`: measure what misalignment costs on the
 * device itself.  The alignment phase sweep: the same O_DIRECT I/O at
 * every 512-byte phase of a physical sector, interleaved in rounds, per
 * phase the median latency and its spread, and the verdict in words: no
 * penalty, a penalty on a grid (the physical sector the device really
 * has, and where it starts), or inconclusive.  Reads unless --write; a
 * write rewrites the bytes just read there.  Ctrl-C stops with a partial
 * report.  The other tests (--test): the soft block size (the partition
 * against an aligned-size loop window of the same bytes), the whole disk
 * against the partition, and plain sequential or random throughput.
 * See docs/bench.md.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cli.h"

enum {
	OPT_PHASE_STEP = 256,
	OPT_PHASES,
	OPT_REGION,
	OPT_SEED,
	OPT_RUNTIME,
	OPT_SVG,
	OPT_SIM,
	OPT_YES,
	OPT_ROUNDS,
	OPT_OFFSET,
	OPT_PROGRESS,
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " bench [options] <image>|<device>\n"
	      " " PROGRAM
	      " bench --test soft-block-size [options] <partition>\n"
	      " " PROGRAM
	      " bench --test whole-vs-partition [options] <partition>\n"
	      " " PROGRAM " bench --test seq|rand [options] <image>|<device>\n"
	      "\nMeasure what misalignment costs on the device: the same I/O at every\n"
	      "phase of a physical sector (4 KiB at offsets k * 512, k = 0..7, from\n"
	      "random 64 KiB-aligned positions), O_DIRECT, in interleaved rounds; per\n"
	      "phase the median latency and its spread, and what they say: no\n"
	      "penalty, a read-modify-write penalty on a grid (the real physical\n"
	      "sector size and where it starts), or inconclusive.  Reads only,\n"
	      "unless --write.\n"
	      "\nThe other tests: soft-block-size, buffered sequential I/O through the\n"
	      "partition and through a loop window made by bench over the same bytes\n"
	      "with a size rounded down to 4 KiB (soft block sizes, throughputs, the\n"
	      "requests the disk got when tracefs is usable, what model predicts);\n"
	      "whole-vs-partition, O_DIRECT sequential I/O on the partition and on\n"
	      "the whole disk from the partition start rounded up to 1 MiB; seq and\n"
	      "rand, the throughput of one target at a queue depth.\n"
	      "\nOptions:\n"
	      " -t, --test <name>           phase-sweep (default), soft-block-size,\n"
	      "                             whole-vs-partition, seq or rand\n"
	      " -w, --write                 time writes: every write puts back the bytes\n"
	      "                             just read at that offset; a block device is\n"
	      "                             opened exclusively (refused while mounted\n"
	      "                             or in use)\n"
	      " -y, --yes                   do not ask before --write on a block device\n"
	      "                             that is not a loop device\n"
	      " -s, --io-size <size>        bytes per I/O (default 4K; soft-block-size,\n"
	      "                             whole-vs-partition and seq: 1M)\n"
	      " -q, --queue-depth <n>       I/Os in flight, engine tests (default 1)\n"
	      "     --phase-step <size>     distance between phases (default 512)\n"
	      "     --phases <n>            phases to sweep (default io-size / phase-step,\n"
	      "                             at most 64)\n"
	      "     --rounds <n>            rounds, each visiting every phase (default 32;\n"
	      "                             the other tests: passes per side, default 5,\n"
	      "                             seq and rand 3, at most 64)\n"
	      "     --offset <size>         start of the region swept (default 0)\n"
	      "     --region-size <size>    size of the region (default: to the end, at\n"
	      "                             most 1G; soft-block-size: 64M, at most 256M;\n"
	      "                             whole-vs-partition, seq, rand: 256M)\n"
	      "     --seed <n>              seed of the shuffles and positions (default 1)\n"
	      "     --runtime <seconds>     stop after <seconds>, with a partial report\n"
	      " -e, --engine <name>         psync (default), uring, null (no I/O) or sim\n"
	      "                             (a simulated 512e drive, no I/O)\n"
	      "     --sim <key=value,...>   the sim engine's drive: physical, offset,\n"
	      "                             read_us, write_us, rmw_us, noise, seed\n"
	      "     --svg <file>            write a bar chart: the medians by phase, or\n"
	      "                             the two sides of a comparison test\n"
	      "     --progress[=<mode>]     auto, bar, line or none (default: bar on a\n"
	      "                             terminal, else none; auto: lines when stderr\n"
	      "                             is not a terminal)\n" CLI_TABLE_FLAT_HELP(
		      "the table") CLI_COLOR_HELP CLI_JSON_HELP_30
	      " -h, --help                  display this help\n"
	      " -V, --version               display the version\n"
	      "\nExit status: 0 measured (whatever the verdict), 4 the target could not\n"
	      "be opened or an I/O failed, 16 usage error (or --write not confirmed),\n"
	      "128 + N when stopped by signal N (after the partial report).\n"
	      "\nFor more details see blkalign-bench(8).\n",
	      out);
}

static volatile sig_atomic_t got_signal;
static volatile int stop_flag;

static void on_signal(int sig)
{
	got_signal = sig;
	stop_flag = 1;
}

static void set_signals(void (*fn)(int))
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/*
 * --progress: a line updated in place on a terminal (bar), a line per
 * second otherwise (line), or nothing.  Without the option: bar when
 * stderr is a terminal, else nothing; --progress alone (auto): bar on a
 * terminal, lines otherwise, as fix's.
 */
enum progress_mode {
	PROGRESS_DEFAULT,
	PROGRESS_AUTO,
	PROGRESS_BAR,
	PROGRESS_LINE,
	PROGRESS_NONE,
};

struct progress {
	enum progress_mode mode;
	double last;	    /* elapsed at the last line */
	bool open;	    /* a bar line on screen, not ended */
	uint32_t per_round; /* I/O runs in a round: phases, or sides */
	const char *what;   /* "phases", "sides" or "pass" */
};

static int progress(void *data, uint32_t round, uint32_t rounds, double elapsed)
{
	struct progress *p = data;
	double eta = round ? elapsed / round * (rounds - round) : 0;

	if (round > 1 && round < rounds &&
	    elapsed - p->last < (p->mode == PROGRESS_BAR ? 0.2 : 1.0))
		return 0;
	p->last = elapsed;
	if (p->mode == PROGRESS_LINE) {
		fprintf(stderr,
			"progress done=%u total=%u per_round=%u elapsed=%.1f "
			"eta=%.1f\n",
			round, rounds, p->per_round, elapsed, eta);
		return 0;
	}
	fprintf(stderr,
		"\rround %u/%u of %u %s (%.0f%%), %.1f s, ETA %.1f s\033[K",
		round, rounds, p->per_round, p->what,
		rounds ? 100.0 * round / rounds : 100.0, elapsed, eta);
	fflush(stderr);
	p->open = true;
	return 0;
}

/* The bar off the screen; after a signal it stays, ended, so that what
 * is printed next starts on a fresh line. */
static void progress_end(struct progress *p, bool stopped)
{
	if (!p->open)
		return;
	fputs(stopped ? "\n" : "\r\033[K", stderr);
	p->open = false;
}

static int parse_progress(const char *arg, enum progress_mode *mode)
{
	static const char *const names[] = {"auto", "bar", "line", "none"};

	if (!arg) {
		*mode = PROGRESS_AUTO;
		return 0;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*mode = (enum progress_mode)(PROGRESS_AUTO + i);
			return 0;
		}
	return cli_usage_error("bench", "invalid progress mode '%s'", arg);
}

/* --sim physical=4096,offset=3584,rmw_us=4000,noise=0.05 */
static int parse_sim(char *spec, struct blkalign_bench_sim *s)
{
	char *save = NULL;

	for (char *kv = strtok_r(spec, ",", &save); kv;
	     kv = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(kv, '='), *end;
		int64_t v;

		if (!eq)
			return -EINVAL;
		*eq++ = '\0';
		if (!strcmp(kv, "noise")) {
			errno = 0;
			s->noise = strtod(eq, &end);
			if (errno || *end || end == eq || s->noise < 0 ||
			    s->noise > 100)
				return -EINVAL;
			continue;
		}
		if (cli_parse_int(eq, 0, INT64_MAX / 1000, &v))
			return -EINVAL;
		if (!strcmp(kv, "physical")) {
			if (v < 512 || v > 1 << 20 || (v & (v - 1)))
				return -EINVAL;
			s->physical_sector_size = (uint32_t)v;
		} else if (!strcmp(kv, "offset")) {
			if (v > 1 << 20)
				return -EINVAL;
			s->alignment_offset = (uint32_t)v;
		} else if (!strcmp(kv, "read_us")) {
			s->read_ns = (uint64_t)v * 1000;
		} else if (!strcmp(kv, "write_us")) {
			s->write_ns = (uint64_t)v * 1000;
		} else if (!strcmp(kv, "rmw_us")) {
			s->rmw_ns = (uint64_t)v * 1000;
		} else if (!strcmp(kv, "seed")) {
			s->seed = (uint64_t)v;
		} else {
			return -EINVAL;
		}
	}
	return 0;
}

/* A loop device, or a partition of one: a scratch device the user made. */
static bool is_loop(const char *path)
{
	char sys[64], real[PATH_MAX], probe[PATH_MAX + 16];
	struct stat st;

	if (stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	if (!realpath(sys, real))
		return false;
	snprintf(probe, sizeof(probe), "%s/loop", real);
	if (access(probe, F_OK) == 0)
		return true;
	snprintf(probe, sizeof(probe), "%s/../loop", real);
	return access(probe, F_OK) == 0;
}

/*
 * --write on a block device that is not a loop device: typed "yes" on a
 * terminal, or --yes.  Images and loop devices go ahead.
 */
static bool confirm_write(const char *path, bool yes)
{
	struct stat st;
	char line[16];

	if (yes || !path || stat(path, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    is_loop(path))
		return true;
	if (!isatty(STDIN_FILENO) || !isatty(STDERR_FILENO)) {
		cli_warnx("'%s' is not a loop device: --write rewrites its "
			  "bytes in place; give --yes to confirm (no terminal "
			  "to ask)",
			  path);
		return false;
	}
	fprintf(stderr,
		PROGRAM ": --write rewrites bytes of '%s' in place, each with "
			"the bytes just read there (an interruption leaves the "
			"content as it was).  Type 'yes' to go on: ",
		path);
	fflush(stderr);
	if (!fgets(line, sizeof(line), stdin) || strcmp(line, "yes\n")) {
		cli_warnx("not confirmed: nothing written to '%s'", path);
		return false;
	}
	return true;
}

static int parse_test(const char *arg, enum blkalign_bench_test *t)
{
	static const struct {
		const char *name;
		enum blkalign_bench_test test;
	} tests[] = {
		{"phase-sweep", BLKALIGN_BENCH_TEST_PHASE_SWEEP},
		{"soft-block-size", BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE},
		{"whole-vs-partition", BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION},
		{"seq", BLKALIGN_BENCH_TEST_SEQ},
		{"rand", BLKALIGN_BENCH_TEST_RAND},
	};

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
		if (!strcmp(arg, tests[i].name)) {
			*t = tests[i].test;
			return 0;
		}
	return -EINVAL;
}

static void report_error(int rc, const char *path,
			 const struct blkalign_bench_opts *o)
{
	const char *p = path ? path : "-";

	switch (rc) {
	case -EBUSY:
		cli_warnx("'%s' is in use (mounted, or held by md, LVM, "
			  "device-mapper or another program): refusing to "
			  "write to it",
			  p);
		break;
	case -EDOM: /* the library said why */
		break;
	case -ENOSPC:
		cli_warnx("'%s' is too small for the sweep: the region "
			  "must hold (phases - 1) * phase step + io size "
			  "bytes",
			  p);
		break;
	case -ENOTBLK:
		if (o->test == BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE ||
		    o->test == BLKALIGN_BENCH_TEST_WHOLE_VS_PARTITION)
			cli_warnx("'%s' is not a block device: this test needs "
				  "a partition node",
				  p);
		else
			cli_warnx("'%s' is neither a block device nor a "
				  "regular file",
				  p);
		break;
	case -EMEDIUMTYPE:
		cli_warnx("'%s' is not a partition: whole-vs-partition needs "
			  "a partition node",
			  p);
		break;
	default:
		cli_warnx("cannot bench '%s': %s", p, strerror(-rc));
	}
}

/* Close the SVG file @f written to @path; @err: the writer's result. */
static unsigned int svg_close(const char *path, FILE *f, int err)
{
	if (f && fclose(f) == EOF && !err)
		err = -errno;
	if (!err)
		return 0;
	cli_warnx("cannot write '%s': %s", path, strerror(-err));
	return BLKALIGN_STATUS_FAILED;
}

static const struct option longopts[] = {
	{"write", no_argument, NULL, 'w'},
	{"test", required_argument, NULL, 't'},
	{"yes", no_argument, NULL, 'y'},
	{"queue-depth", required_argument, NULL, 'q'},
	{"io-size", required_argument, NULL, 's'},
	{"phase-step", required_argument, NULL, OPT_PHASE_STEP},
	{"phases", required_argument, NULL, OPT_PHASES},
	{"rounds", required_argument, NULL, OPT_ROUNDS},
	{"offset", required_argument, NULL, OPT_OFFSET},
	{"region-size", required_argument, NULL, OPT_REGION},
	{"seed", required_argument, NULL, OPT_SEED},
	{"runtime", required_argument, NULL, OPT_RUNTIME},
	{"engine", required_argument, NULL, 'e'},
	{"sim", required_argument, NULL, OPT_SIM},
	{"svg", required_argument, NULL, OPT_SVG},
	{"progress", optional_argument, NULL, OPT_PROGRESS},
	CLI_TABLE_FLAT_LONGOPTS,
	CLI_COLOR_LONGOPT,
	CLI_JSON_LONGOPT,
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd bench_cmd = {"bench", longopts, usage};

struct bench_args {
	struct blkalign_bench_opts o;
	const char *path, *svg;
	struct cli_table table;
	struct progress prog;
	const char *color;
	bool json, yes, io_set, rounds_set;
	bool sweep_only; /* --phase-step or --phases */
};

/* An option group's "not one of mine" (else 0 or the exit status). */
#define OTHER_OPT 1

static int usage_error(const char *what, const char *arg)
{
	return cli_usage_error("bench", "invalid %s '%s'", what, arg);
}

/* Where and how much: -s, --phase-step, --phases, -r, -o, --region-size. */
static int region_opt(struct bench_args *a, int c, const char *arg)
{
	struct blkalign_bench_opts *o = &a->o;
	uint64_t size;
	int64_t v;

	switch (c) {
	case 's':
		if (cli_parse_size(arg, &size) || !size || size % 512 ||
		    size > (64 << 20))
			return usage_error("I/O size", arg);
		o->io_size = (uint32_t)size;
		a->io_set = true;
		return 0;
	case OPT_PHASE_STEP:
		a->sweep_only = true;
		if (cli_parse_size(arg, &size) || !size || size % 512 ||
		    size > (64 << 20))
			return usage_error("phase step", arg);
		o->phase_step = (uint32_t)size;
		return 0;
	case OPT_PHASES:
		if (cli_parse_int(arg, 1, BLKALIGN_BENCH_MAX_PHASES, &v))
			return usage_error("number of phases", arg);
		a->sweep_only = true;
		o->nphases = (uint32_t)v;
		return 0;
	case OPT_ROUNDS:
		if (cli_parse_int(arg, 1, 1000000, &v))
			return usage_error("number of rounds", arg);
		o->rounds = (uint32_t)v;
		a->rounds_set = true;
		return 0;
	case OPT_OFFSET:
		if (cli_parse_size(arg, &o->offset) || o->offset % 512)
			return usage_error("offset", arg);
		return 0;
	case OPT_REGION:
		if (cli_parse_size(arg, &o->region_size) || !o->region_size)
			return usage_error("region size", arg);
		return 0;
	}
	return OTHER_OPT;
}

/* --sim: parse_sim() cuts its argument at the commas and the '=', the
 * message says what is left of it (as it always has). */
static int sim_opt(struct blkalign_bench_opts *o, const char *arg)
{
	char *spec = strdup(arg);
	int rc;

	if (!spec) {
		cli_warnx("out of memory");
		return BLKALIGN_STATUS_FAILED;
	}
	rc = parse_sim(spec, &o->sim) ? usage_error("--sim drive", spec) : 0;
	free(spec);
	return rc;
}

/* What runs: -t, -w, -q, --seed, --runtime, -e, --sim. */
static int run_opt(struct bench_args *a, int c, const char *arg)
{
	struct blkalign_bench_opts *o = &a->o;
	char *end;
	int64_t v;

	switch (c) {
	case 't':
		return parse_test(arg, &o->test) ? usage_error("test", arg) : 0;
	case 'w':
		o->write = true;
		return 0;
	case 'q':
		if (cli_parse_int(arg, 1, 256, &v))
			return usage_error("queue depth", arg);
		o->queue_depth = (uint32_t)v;
		return 0;
	case OPT_SEED:
		if (cli_parse_int(arg, 0, INT64_MAX, &v))
			return usage_error("seed", arg);
		o->seed = (uint64_t)v;
		return 0;
	case OPT_RUNTIME:
		errno = 0;
		o->runtime = strtod(arg, &end);
		if (errno || *end || end == arg || o->runtime <= 0 ||
		    o->runtime > 86400 * 365)
			return usage_error("runtime", arg);
		return 0;
	case 'e':
		o->engine = arg;
		return 0;
	case OPT_SIM:
		return sim_opt(o, arg);
	}
	return OTHER_OPT;
}

static int bench_opt(void *data, int c, const char *arg)
{
	struct bench_args *a = data;
	int rc = region_opt(a, c, arg);

	if (rc == OTHER_OPT)
		rc = run_opt(a, c, arg);
	if (rc != OTHER_OPT)
		return rc;
	switch (c) {
	case 'y':
		a->yes = true;
		return 0;
	case OPT_SVG:
		a->svg = arg;
		return 0;
	case OPT_PROGRESS:
		return parse_progress(arg, &a->prog.mode);
	case 'J':
		a->json = true;
		return 0;
	case CLI_OPT_COLOR:
		return cli_color_arg(arg, &a->color);
	case 'o':
		/* checked once -t has said which table */
		a->table.columns = arg;
		return 0;
	}
	/* a bad value: said */
	return cli_table_opt(&a->table, c, arg) > 0 ? 0 : BLKALIGN_STATUS_USAGE;
}

/* The table's options: -o checked against the test's table, -H, -r/-P. */
static int table_args(struct bench_args *a)
{
	struct cli_table *t = &a->table;

	t->kind = a->o.test == BLKALIGN_BENCH_TEST_PHASE_SWEEP
			  ? BLKALIGN_TEXT_TABLE_BENCH
			  : BLKALIGN_TEXT_TABLE_BENCH_SIDES;
	if (t->columns && cli_table_opt(t, 'o', t->columns) < 0)
		return BLKALIGN_STATUS_USAGE;
	if (t->list_columns) {
		cli_table_list_columns(t->kind);
		return CLI_DONE;
	}
	if (cli_table_usage(t, "bench"))
		return BLKALIGN_STATUS_USAGE;
	return 0;
}

/* The options, then the target: 0 to go on, CLI_DONE or the status. */
static int parse_args(int argc, char **argv, struct bench_args *a)
{
	const char *const *e = blkalign_bench_engines();
	int rc = cli_parse_opts(&bench_cmd, argc, argv, bench_opt, a);

	if (!rc)
		rc = table_args(a);
	if (rc)
		return rc;
	if (optind < argc)
		a->path = argv[optind++];
	if (optind < argc) {
		cli_warnx("unexpected argument '%s': one target at a time",
			  argv[optind]);
		return BLKALIGN_STATUS_USAGE;
	}
	while (*e && strcmp(*e, a->o.engine))
		e++;
	if (!*e) {
		cli_warnx("unknown engine '%s'%s", a->o.engine,
			  !strcmp(a->o.engine, "uring")
				  ? " (built without liburing)"
				  : "");
		return BLKALIGN_STATUS_USAGE;
	}
	if (!a->path && strcmp(a->o.engine, "null") &&
	    strcmp(a->o.engine, "sim"))
		return cli_usage_error("bench", "no target: give an image "
						"file or a block device");
	return 0;
}

/* The tests but the sweep: their target and their defaults. */
static int compare_args(struct bench_args *a)
{
	struct blkalign_bench_opts *o = &a->o;
	bool seq_rand = o->test == BLKALIGN_BENCH_TEST_SEQ ||
			o->test == BLKALIGN_BENCH_TEST_RAND;

	if (a->sweep_only) {
		cli_warnx("--phase-step and --phases are for the phase sweep "
			  "only");
		return BLKALIGN_STATUS_USAGE;
	}
	if (!a->path) {
		cli_warnx("no target: give a partition or a device");
		return BLKALIGN_STATUS_USAGE;
	}
	if (!a->io_set)
		o->io_size =
			o->test == BLKALIGN_BENCH_TEST_RAND ? 4096 : 1048576;
	if (!a->rounds_set)
		o->rounds = seq_rand ? 3 : 5;
	if (o->rounds > BLKALIGN_BENCH_MAX_ROUNDS)
		return usage_error("number of rounds (at most 64 for this "
				   "test)",
				   "");
	if (o->test == BLKALIGN_BENCH_TEST_SOFT_BLOCK_SIZE &&
	    strcmp(o->engine, "psync")) {
		cli_warnx("soft-block-size writes through the page cache: no "
			  "--engine");
		return BLKALIGN_STATUS_USAGE;
	}
	return 0;
}

/* After the run: the progress line cleared, an error said. */
static int ran(int rc, struct bench_args *a)
{
	set_signals(SIG_DFL);
	progress_end(&a->prog, got_signal != 0);
	if (rc)
		report_error(rc, a->path, &a->o);
	return rc ? BLKALIGN_STATUS_FAILED : 0;
}

/* After the report: stdout flushed, and the signal that stopped it. */
static int finish(int status)
{
	if (fflush(stdout) == EOF)
		status |= BLKALIGN_STATUS_FAILED;
	return got_signal ? 128 + got_signal : status;
}

/* The text's options; a library error said: 0 or the status bits. */
static int text_status(int rc)
{
	/* -EIO: finish()'s flush says so */
	if (rc && rc != -EIO) {
		cli_warnx("cannot print the report: %s", strerror(-rc));
		return BLKALIGN_STATUS_FAILED;
	}
	return 0;
}

static struct blkalign_text_opts text_opts(const struct bench_args *a)
{
	return cli_table_text_opts(&a->table, cli_use_color(a->color));
}

/* soft-block-size, whole-vs-partition, seq, rand: the exit status. */
static int run_compare(struct bench_args *a)
{
	struct blkalign_bench_compare *cmp = NULL;
	/* the audit behind the model's prediction: quiet, as the bench
	 * report says what it could not predict */
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	int status, rc;

	rc = ctx ? blkalign_bench_compare(ctx, a->path, &a->o, &cmp) : -ENOMEM;
	blkalign_ctx_unref(ctx);
	status = ran(rc, a);
	if (status)
		return status;
	if (a->json) {
		if (blkalign_bench_compare_write_json(cmp, cli_json_stdout())) {
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		struct blkalign_text_opts t = text_opts(a);

		status |= text_status(
			blkalign_bench_compare_write_text(cmp, stdout, &t));
	}
	if (a->svg) {
		FILE *f = fopen(a->svg, "we");

		status |= svg_close(a->svg, f,
				    f ? cli_bench_compare_svg(cmp, f) : -errno);
	}
	blkalign_bench_compare_free(cmp);
	return finish(status);
}

/* The phase sweep: the exit status. */
static int run_sweep(struct bench_args *a)
{
	struct blkalign_bench_result *r = NULL;
	/* the library says why a sweep cannot start (the phase step) */
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	int status, rc;

	if (ctx)
		blkalign_ctx_set_log_fn(ctx, cli_log_to_stderr, NULL);
	rc = ctx ? blkalign_bench_sweep(ctx, a->path, &a->o, &r) : -ENOMEM;
	blkalign_ctx_unref(ctx);
	status = ran(rc, a);
	if (status)
		return status;
	if (a->json) {
		if (blkalign_bench_write_json(r, cli_json_stdout())) {
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		struct blkalign_text_opts t = text_opts(a);

		status |= text_status(blkalign_bench_write_text(r, stdout, &t));
	}
	if (a->svg) {
		FILE *f = fopen(a->svg, "we");

		status |= svg_close(a->svg, f,
				    f ? cli_bench_sweep_svg(r, f) : -errno);
	}
	blkalign_bench_result_free(r);
	return finish(status);
}

int cmd_bench(int argc, char **argv)
{
	struct bench_args a = {0};
	int status;

	blkalign_bench_opts_defaults(&a.o);
	/* the sim engine's drive: 512e, 1 ms writes, +4 ms per partial
	 * physical sector (about one revolution at 7200 rpm is 8 ms) */
	a.o.sim.physical_sector_size = 4096;
	a.o.sim.read_ns = 1000000;
	a.o.sim.write_ns = 1000000;
	a.o.sim.rmw_ns = 4000000;
	status = parse_args(argc, argv, &a);
	if (status)
		return status == CLI_DONE ? 0 : status;
	if (a.o.test != BLKALIGN_BENCH_TEST_PHASE_SWEEP) {
		status = compare_args(&a);
		if (status)
			return status;
	}
	if (a.o.write && !confirm_write(a.path, a.yes))
		return BLKALIGN_STATUS_USAGE;
	a.o.stop = &stop_flag;
	if (a.prog.mode == PROGRESS_DEFAULT)
		a.prog.mode =
			isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_NONE;
	else if (a.prog.mode == PROGRESS_AUTO)
		a.prog.mode =
			isatty(STDERR_FILENO) ? PROGRESS_BAR : PROGRESS_LINE;
	/* what a round is: the sweep's phases (as sweep.c counts them),
	 * a comparison's sides */
	if (a.o.test == BLKALIGN_BENCH_TEST_PHASE_SWEEP) {
		uint32_t n = a.o.nphases      ? a.o.nphases
			     : a.o.phase_step ? a.o.io_size / a.o.phase_step
					      : 1;

		if (!a.o.nphases && n > BLKALIGN_BENCH_MAX_PHASES)
			n = BLKALIGN_BENCH_MAX_PHASES;
		a.prog.per_round = n ? n : 1;
		a.prog.what = a.prog.per_round == 1 ? "phase" : "phases";
	} else {
		bool one = a.o.test == BLKALIGN_BENCH_TEST_SEQ ||
			   a.o.test == BLKALIGN_BENCH_TEST_RAND;

		a.prog.per_round = one ? 1 : 2;
		a.prog.what = one ? "pass" : "sides";
	}
	if (a.prog.mode != PROGRESS_NONE) {
		a.o.progress = progress;
		a.o.progress_data = &a.prog;
	}
	set_signals(on_signal);
	if (a.o.test != BLKALIGN_BENCH_TEST_PHASE_SWEEP)
		return run_compare(&a);
	return run_sweep(&a);
}
