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
	      "     --raw <file>                save every event line to <file>\n"
	      "     --replay <file>             summarise a file saved with --raw\n"
	      "     --physical-sector-size <n>  judge requests against this physical\n"
	      "                                 sector size (default: the device's)\n"
	      "     --buffer-size <kib>         tracefs buffer per CPU (default 4096)\n" CLI_JSON_HELP_34
	      " -h, --help                      display this help\n"
	      " -V, --version                   display the version\n"
	      "\nExit status: 0 traced, 4 tracing failed or the command failed,\n"
	      "16 usage error, 128 + N when stopped by signal N.\n"
	      "\nFor more details see blkalign(8).\n",
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

static void hlat(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 10000000)
		snprintf(buf, len, "%.0fms", (double)ns / 1e6);
	else if (ns >= 1000000)
		snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%" PRIu64 "us", ns / 1000);
}

static void print_dir(const char *name, const struct blkalign_trace_dir *d,
		      FILE *out)
{
	char mx[24], avg[24], l50[24], l90[24], l99[24], lmax[24];

	if (!d->requests)
		return;
	blkalign_size_format(d->request_max, BLKALIGN_SIZE_EXACT, mx,
			     sizeof(mx));
	blkalign_size_format(d->bytes / d->requests, BLKALIGN_SIZE_EXACT, avg,
			     sizeof(avg));
	hlat(d->lat_p50_ns, l50, sizeof(l50));
	hlat(d->lat_p90_ns, l90, sizeof(l90));
	hlat(d->lat_p99_ns, l99, sizeof(l99));
	hlat(d->lat_max_ns, lmax, sizeof(lmax));
	fprintf(out,
		"  %-9s %9" PRIu64 " %13" PRIu64 " %7s %7s %8" PRIu64
		" %7" PRIu64 " %8" PRIu64 " %6" PRIu64 "  %s/%s/%s/%s\n",
		name, d->requests, d->bytes, mx, avg, d->off_physical,
		d->off_page_in_layer, d->partial_requests, d->rmw, l50, l90,
		l99, lmax);
}

static void print_sizes(const char *name, const struct blkalign_trace_dir *d,
			FILE *out)
{
	char s[24];

	if (!d->requests)
		return;
	fprintf(out, "  %s sizes:", name);
	for (size_t i = 0; i < d->nsizes; i++) {
		blkalign_size_format(d->sizes[i].bytes, BLKALIGN_SIZE_EXACT, s,
				     sizeof(s));
		fprintf(out, "%s %s x%" PRIu64, i ? "," : "", s,
			d->sizes[i].count);
	}
	if (d->sizes_other)
		fprintf(out, ", other x%" PRIu64, d->sizes_other);
	fputc('\n', out);
}

/* The extents on the disks below and the requests each got. */
static void print_below(const struct blkalign_trace_summary *s, FILE *out)
{
	if (!s->nbelow)
		return;
	fprintf(out, "\n  %-10s %-9s %14s %14s %5s %9s %13s %9s %13s\n",
		"BELOW", "DEV", "START", "SIZE", "PHYS", "READS", "READ-BYTES",
		"WRITES", "WRITE-BYTES");
	for (size_t i = 0; i < s->nbelow; i++) {
		const struct blkalign_trace_below *b = &s->below[i];
		char dev[24];

		snprintf(dev, sizeof(dev), "%u:%u", b->major, b->minor);
		fprintf(out,
			"  %-10s %-9s %14" PRIu64 " %14" PRIu64 " %5u %9" PRIu64
			" %13" PRIu64 " %9" PRIu64 " %13" PRIu64 "\n",
			b->name, dev, b->start, b->size,
			b->physical_sector_size, b->read_requests,
			b->read_bytes, b->write_requests, b->write_bytes);
	}
}

static void print_summary(const struct blkalign_trace_summary *s, FILE *out)
{
	static const char *const names[] = {"read", "write", "discard", "flush",
					    "other"};
	const struct blkalign_trace_dir *dirs[] = {
		&s->read, &s->write, &s->discard, &s->flush, &s->other};

	fprintf(out, "%s: disk %u:%u", s->device ? s->device : "-", s->major,
		s->minor);
	if (s->layer_start)
		fprintf(out, ", layer at byte %" PRIu64 " (sector %" PRIu64 ")",
			s->layer_start, s->layer_start / 512);
	fprintf(out,
		", %" PRIu64 " bytes; logical %u, physical %u, "
		"alignment offset %u\n",
		s->layer_size, s->logical_sector_size, s->physical_sector_size,
		s->alignment_offset);
	/* the recording's duration: an idle device has no events to span */
	fprintf(out,
		"%" PRIu64 " events in %.3f s (first to last: %.3f s), %" PRIu64
		" lost, %" PRIu64 " completions without issue\n\n",
		s->events, s->seconds, s->event_seconds, s->lost_events,
		s->unmatched);
	fprintf(out, "  %-9s %9s %13s %7s %7s %8s %7s %8s %6s  %s\n", "DIR",
		"REQUESTS", "BYTES", "MAX", "AVG", "OFF-PHYS", "OFF-4K",
		"PARTIAL", "RMW", "LATENCY p50/p90/p99/max");
	for (size_t i = 0; i < 5; i++)
		print_dir(names[i], dirs[i], out);
	fputc('\n', out);
	for (size_t i = 0; i < 5; i++)
		print_sizes(names[i], dirs[i], out);
	print_below(s, out);
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
	{"raw", required_argument, NULL, OPT_RAW},
	{"replay", required_argument, NULL, OPT_REPLAY},
	{"physical-sector-size", required_argument, NULL, OPT_PSS},
	{"buffer-size", required_argument, NULL, OPT_BUFFER},
	CLI_JSON_LONGOPT,
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd trace_cmd = {"trace", longopts, usage};

struct trace_args {
	struct blkalign_trace_opts topts;
	const char *raw, *replay_file, *device;
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
	case OPT_RAW:
		a->raw = arg;
		return 0;
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
	return BLKALIGN_STATUS_USAGE;
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

/* The --raw file and the trace of the device: 0 or the exit status. */
static int open_trace(struct blkalign_ctx *ctx, struct trace_args *a,
		      struct blkalign_trace **t)
{
	int rc;

	if (a->raw) {
		a->topts.raw = fopen(a->raw, "we");
		if (!a->topts.raw) {
			cli_warnx("cannot open '%s': %s", a->raw,
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

	if (s->lost_events)
		cli_warnx("%" PRIu64 " events were lost: the counts are low "
			  "(try a larger --buffer-size)",
			  s->lost_events);
	if (a->json) {
		if (blkalign_trace_write_json(t, cli_json_stdout())) {
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		print_summary(s, stdout);
		/* what tracing cost: this process alone, not the command */
		if (!a->replay_file && getrusage(RUSAGE_SELF, &ru) == 0)
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
	struct trace_args a = {.topts = {.size = sizeof(a.topts)}};
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
		cli_warnx("cannot write '%s': %s", a.raw, strerror(errno));
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
