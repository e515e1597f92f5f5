/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-trace.c - `blkalign trace`: record the block requests the kernel
 * issues to a device while a command runs (or for a while), and say what
 * they were: sizes, alignment, partial physical sectors, latency.
 * Tracefs is left as it was found, also on SIGINT, SIGTERM and errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

enum {
	OPT_REPLAY = 256,
	OPT_RAW,
	OPT_SAVE,
	OPT_PSS,
	OPT_BUFFER,
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " trace [options] <device> -- <command> [<arg>...]\n"
	      " " PROGRAM " trace [options] <device> --duration <seconds>\n"
	      " " PROGRAM " trace [options] --replay <file>\n"
	      "\nRecord the block requests the kernel issues to <device> (a disk or a\n"
	      "partition) while <command> runs, or for <seconds>, from the tracefs\n"
	      "events block_rq_issue and block_rq_complete, and summarise them:\n"
	      "requests by direction, sizes, alignment to the physical sector and\n"
	      "to the partition start, partial physical sectors, latency.  Needs\n"
	      "root.  A private tracefs instance is used and removed afterwards.\n"
	      "A dm device (linear, crypt, striped targets) or an md array issues\n"
	      "no requests itself: the requests that reach the disks below are\n"
	      "recorded and listed per disk; other targets are refused.\n"
	      "\nOptions:\n"
	      " -d, --duration <seconds>        record for <seconds> (no command)\n"
	      "     --save <file>               save every event line to <file>\n"
	      "     --replay <file>             summarise a file saved with --save\n"
	      "     --physical-sector-size <n>  judge requests against this physical\n"
	      "                                 sector size (default: the device's)\n"
	      "     --buffer-size <kib>         tracefs buffer per CPU (default 4096)\n" CLI_TABLE_FLAT_HELP(
		      "the table") CLI_COLOR_HELP CLI_JSON_HELP_34
	      " -h, --help                      display this help\n"
	      " -V, --version                   display the version\n"
	      "\nExit status: 0 traced, 4 tracing failed or the command failed,\n"
	      "16 usage error, 128 + N when stopped by signal N.\n"
	      "\nFor more details see blkalign-trace(8).\n",
	      out);
}

static volatile sig_atomic_t got_signal;
static int wake_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
	int saved = errno;

	if (sig != SIGCHLD)
		got_signal = sig;
	if (wake_pipe[1] >= 0 && write(wake_pipe[1], "x", 1) < 0) {
		/* the pipe is full: poll wakes anyway */
	}
	errno = saved;
}

static void set_signals(void (*fn)(int))
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGCHLD};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int replay(struct blkalign_trace *t, const char *file)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(file, "re");
	int rc = 0;

	if (!f) {
		cli_warnx("cannot open '%s': %s", file, strerror(errno));
		return -errno;
	}
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[n - 1] = '\0';
		rc = blkalign_trace_feed(t, line);
		if (rc == -EINVAL) {
			cli_warnx("%s: cannot parse '%s'", file, line);
			rc = 0;
		} else if (rc) {
			break;
		}
	}
	free(line);
	fclose(f);
	return rc;
}

/* @cmd started in a child: its pid, or -1 with errno. */
static pid_t spawn(char **cmd)
{
	pid_t child = fork();

	if (child != 0)
		return child;
	set_signals(SIG_DFL);
	close(wake_pipe[0]);
	close(wake_pipe[1]);
	execvp(cmd[0], cmd);
	fprintf(stderr, PROGRAM ": cannot run '%s': %s\n", cmd[0],
		strerror(errno));
	_exit(127);
}

/* Run @cmd while recording; returns the command's wait status or -errno. */
static int run_traced(struct blkalign_trace *t, char **cmd, double duration,
		      int *wstatus)
{
	double end = duration > 0 ? now_s() + duration : 0;
	/* --duration on a terminal: the seconds left, once a second */
	bool countdown = end && isatty(STDERR_FILENO);
	long shown = -1;
	pid_t child = -1;
	int rc = 0;

	if (cmd) {
		child = spawn(cmd);
		if (child < 0)
			return -errno;
	}
	for (;;) {
		/*
		 * Not woken by trace_pipe: a wakeup per burst of events
		 * costs the traced command more than reading every 100 ms
		 * (the per-CPU buffers hold tens of thousands of events);
		 * a signal or the command's exit wakes us at once.
		 */
		struct pollfd p[1] = {{wake_pipe[0], POLLIN, 0}};
		int timeout = 100;
		char drain[64];

		if (end) {
			double left = end - now_s();

			if (left <= 0)
				break;
			if (left * 1000 < timeout)
				timeout = (int)(left * 1000) + 1;
			if (countdown && (long)ceil(left) != shown) {
				shown = (long)ceil(left);
				fprintf(stderr, "\rrecording: %ld s left\033[K",
					shown);
				fflush(stderr);
			}
		}
		if (poll(p, 1, timeout) < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		if (p[0].revents & POLLIN)
			while (read(wake_pipe[0], drain, sizeof(drain)) > 0)
				;
		rc = blkalign_trace_read(t);
		if (rc < 0)
			break;
		rc = 0;
		if (got_signal)
			break;
		if (child > 0 && waitpid(child, wstatus, WNOHANG) == child) {
			child = -1;
			break;
		}
	}
	/* the countdown cleared; after a signal, ended on its line so that
	 * what follows starts on a fresh one */
	if (shown >= 0)
		fputs(got_signal ? "\n" : "\r\033[K", stderr);
	/* whatever happened: tracefs first */
	if (blkalign_trace_stop(t) && !rc)
		rc = -EIO;
	if (child > 0) {
		if (got_signal)
			kill(child, got_signal);
		while (waitpid(child, wstatus, 0) < 0 && errno == EINTR)
			;
	}
	return rc;
}

static const struct option longopts[] = {
	{"duration", required_argument, NULL, 'd'},
	{"save", required_argument, NULL, OPT_SAVE},
	/* before the table's: --raw=<file> is --save <file> for a release */
	{"raw", optional_argument, NULL, OPT_RAW},
	{"replay", required_argument, NULL, OPT_REPLAY},
	{"physical-sector-size", required_argument, NULL, OPT_PSS},
	{"buffer-size", required_argument, NULL, OPT_BUFFER},
	CLI_TABLE_FLAT_LONGOPTS,
	CLI_COLOR_LONGOPT,
	CLI_JSON_LONGOPT,
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd trace_cmd = {"trace", longopts, usage};

struct trace_args {
	struct blkalign_trace_opts topts;
	const char *save, *replay_file, *device;
	struct cli_table table;
	const char *color;
	char **cmd; /* after "--" */
	double duration;
	bool json;
};

static int trace_opt(void *data, int c, const char *arg)
{
	struct trace_args *a = data;
	char *end;
	int64_t v;

	switch (c) {
	case 'd':
		errno = 0;
		a->duration = strtod(arg, &end);
		if (errno || *end || end == arg || a->duration <= 0 ||
		    a->duration > 86400 * 365) {
			cli_warnx("invalid duration '%s'", arg);
			return BLKALIGN_STATUS_USAGE;
		}
		return 0;
	case OPT_SAVE:
		a->save = arg;
		return 0;
	case OPT_RAW:
		if (!arg)
			return cli_table_opt(&a->table, 'r', NULL) > 0
				       ? 0
				       : BLKALIGN_STATUS_USAGE;
		cli_warnx("--raw=<file> is deprecated: use --save <file>");
		a->save = arg;
		return 0;
	case CLI_OPT_COLOR:
		return cli_color_arg(arg, &a->color);
	case OPT_REPLAY:
		a->replay_file = arg;
		return 0;
	case OPT_PSS:
		if (cli_parse_int(arg, 512, 65536, &v) || (v & (v - 1))) {
			cli_warnx("invalid physical sector size '%s'", arg);
			return BLKALIGN_STATUS_USAGE;
		}
		a->topts.physical_sector_size = (uint32_t)v;
		return 0;
	case OPT_BUFFER:
		if (cli_parse_int(arg, 64, 1 << 20, &v)) {
			cli_warnx("invalid buffer size '%s'", arg);
			return BLKALIGN_STATUS_USAGE;
		}
		a->topts.buffer_size_kb = (uint32_t)v;
		return 0;
	case 'J':
		a->json = true;
		return 0;
	}
	/* a bad value: said */
	return cli_table_opt(&a->table, c, arg) > 0 ? 0 : BLKALIGN_STATUS_USAGE;
}

/* The options before "--", the device, the command after: 0 to go on,
 * CLI_DONE or the exit status. */
static int parse_args(int argc, char **argv, struct trace_args *a)
{
	int nopt = argc, rc;

	/* everything after "--" is the command */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			nopt = i;
			a->cmd = argv + i + 1;
			break;
		}
	}
	rc = cli_parse_opts(&trace_cmd, nopt, argv, trace_opt, a);
	if (rc)
		return rc;
	if (a->table.list_columns) {
		cli_table_list_columns(a->table.kind);
		return CLI_DONE;
	}
	if (cli_table_usage(&a->table, "trace"))
		return BLKALIGN_STATUS_USAGE;
	if (optind < nopt)
		a->device = argv[optind++];
	if (optind < nopt) {
		cli_warnx("unexpected argument '%s' (the command goes after "
			  "'--')",
			  argv[optind]);
		return BLKALIGN_STATUS_USAGE;
	}
	if (a->cmd && !*a->cmd) {
		cli_warnx("no command after '--'");
		return BLKALIGN_STATUS_USAGE;
	}
	if (a->replay_file && (a->device || a->cmd || a->duration > 0))
		return cli_usage_error(
			"trace",
			"--replay takes no device, command or duration");
	if (!a->replay_file && !a->device)
		return cli_usage_error("trace", "no device to trace");
	if (!a->replay_file && !!a->cmd == (a->duration > 0))
		return cli_usage_error("trace", "give a command after '--' or "
						"--duration, not both");
	return 0;
}

/* The --save file and the trace of the device: 0 or the exit status. */
static int open_trace(struct blkalign_ctx *ctx, struct trace_args *a,
		      struct blkalign_trace **t)
{
	int rc;

	if (a->save) {
		a->topts.raw = fopen(a->save, "we");
		if (!a->topts.raw) {
			cli_warnx("cannot open '%s': %s", a->save,
				  strerror(errno));
			return BLKALIGN_STATUS_FAILED;
		}
	}
	rc = blkalign_trace_new(ctx, a->device, &a->topts, t);
	if (!rc)
		return 0;
	if (rc == -ENOTBLK || (rc == -ENOENT && access(a->device, F_OK)))
		cli_warnx("'%s' is not a block device", a->device);
	else if (rc == -EOPNOTSUPP)
		cli_warnx("cannot trace '%s': its requests cannot be told "
			  "apart on the disks below",
			  a->device);
	else
		cli_warnx("cannot trace '%s': %s", a->device, strerror(-rc));
	return BLKALIGN_STATUS_FAILED;
}

/* Tracefs set up, signals caught: 0 or the exit status. */
static int start_trace(struct blkalign_trace *t, const char *device)
{
	int rc;

	if (pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) < 0) {
		cli_warnx("cannot make a pipe: %s", strerror(errno));
		return BLKALIGN_STATUS_FAILED;
	}
	set_signals(on_signal);
	rc = blkalign_trace_start(t);
	if (!rc)
		return 0;
	if (rc == -EPERM)
		cli_warnx("trace needs root: tracefs is root-only");
	else if (rc == -ENODEV)
		cli_warnx("no tracefs: the kernel lacks CONFIG_FTRACE or "
			  "tracefs cannot be mounted at /sys/kernel/tracing");
	else
		cli_warnx("cannot set up tracing of '%s': %s", device,
			  strerror(-rc));
	return BLKALIGN_STATUS_FAILED;
}

/* Record while the command runs or for the duration: the exit status. */
static int record(struct blkalign_trace *t, const struct trace_args *a)
{
	int wstatus = 0, status = 0;
	int rc = run_traced(t, a->cmd, a->duration, &wstatus);

	set_signals(SIG_DFL);
	if (rc) {
		cli_warnx("tracing '%s' failed: %s", a->device, strerror(-rc));
		status |= BLKALIGN_STATUS_FAILED;
	}
	if (!a->cmd || got_signal)
		return status;
	if (WIFEXITED(wstatus) && WEXITSTATUS(wstatus)) {
		cli_warnx("'%s' exited with status %d", a->cmd[0],
			  WEXITSTATUS(wstatus));
		status |= BLKALIGN_STATUS_FAILED;
	} else if (WIFSIGNALED(wstatus)) {
		cli_warnx("'%s' was killed by signal %d", a->cmd[0],
			  WTERMSIG(wstatus));
		status |= BLKALIGN_STATUS_FAILED;
	}
	return status;
}

/* The summary on stdout, as text or JSON: 0 or the exit status. */
static int print_trace(struct blkalign_trace *t, const struct trace_args *a)
{
	const struct blkalign_trace_summary *s = blkalign_trace_summary(t);
	int status = 0;
	struct rusage ru;

	if (blkalign_trace_summary_get_lost_events(s))
		cli_warnx("%" PRIu64 " events were lost: the counts are low "
			  "(try a larger --buffer-size)",
			  blkalign_trace_summary_get_lost_events(s));
	if (a->json) {
		if (blkalign_trace_write_json(t, cli_json_stdout())) {
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		struct blkalign_text_opts o =
			cli_table_text_opts(&a->table, cli_use_color(a->color));
		int rc = blkalign_trace_write_text(t, stdout, &o);

		/* -EIO: the flush below says so */
		if (rc && rc != -EIO) {
			cli_warnx("cannot print the summary: %s",
				  strerror(-rc));
			status |= BLKALIGN_STATUS_FAILED;
		}
		/* what tracing cost: this process alone, not the command */
		if (!a->replay_file &&
		    !(o.flags & (BLKALIGN_TEXT_RAW | BLKALIGN_TEXT_PAIRS)) &&
		    getrusage(RUSAGE_SELF, &ru) == 0)
			printf("\ntracer CPU time: %.3f s\n",
			       (double)(ru.ru_utime.tv_sec +
					ru.ru_stime.tv_sec) +
				       (double)(ru.ru_utime.tv_usec +
						ru.ru_stime.tv_usec) /
					       1e6);
	}
	if (fflush(stdout) == EOF)
		status |= BLKALIGN_STATUS_FAILED;
	return status;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_args a = {.topts = BLKALIGN_TRACE_OPTS_INIT,
			       .table = {.kind = BLKALIGN_TEXT_TABLE_TRACE}};
	struct blkalign_trace *t = NULL;
	struct blkalign_ctx *ctx;
	int status = parse_args(argc, argv, &a);

	if (status)
		return status == CLI_DONE ? 0 : status;
	if (!a.replay_file && geteuid() != 0) {
		cli_warnx("trace needs root: tracefs and the block request "
			  "events are only accessible to root");
		return BLKALIGN_STATUS_FAILED;
	}
	ctx = blkalign_ctx_new();
	if (!ctx) {
		cli_warnx("out of memory");
		return BLKALIGN_STATUS_FAILED;
	}
	blkalign_ctx_set_log_fn(ctx, cli_log_to_stderr, NULL);
	status = open_trace(ctx, &a, &t);
	if (status)
		goto out;
	if (a.replay_file) {
		/* a file not read whole summarises nothing (said) */
		if (replay(t, a.replay_file)) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
	} else {
		status = start_trace(t, a.device);
		if (status)
			goto out;
		status = record(t, &a);
	}
	status |= print_trace(t, &a);
out:
	blkalign_trace_free(t);
	if (a.topts.raw && fclose(a.topts.raw) == EOF) {
		cli_warnx("cannot write '%s': %s", a.save, strerror(errno));
		status |= BLKALIGN_STATUS_FAILED;
	}
	blkalign_ctx_unref(ctx);
	if (wake_pipe[0] >= 0) {
		close(wake_pipe[0]);
		close(wake_pipe[1]);
	}
	if (got_signal)
		return 128 + got_signal;
	return status;
}
