/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-out.c - the promise of --json (docs/json-schema.md): stdout holds
 * exactly one JSON document whatever happens, but after a usage error
 * (exit 16), when it holds nothing.  A command says when its document
 * starts; one that fails before (the target cannot be opened, a journal
 * is refused) gets the failure document instead, with the errors it said
 * on stderr.  Hints go into the documents or to stderr, never to stdout.
 * --json=compact and --json=lines (docs/json-schema.md, "Streams"): a
 * document written whole is held and rewritten at the end, when the
 * exit status (the summary line's) is known; check streams its own.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ERRORS 32

/* One run of one command: the state of its --json. */
static struct {
	const char *command; /* NULL: no --json */
	enum blkalign_json_format format;
	bool started; /* its document is on stdout, whole or not */
	/* compact, lines: the document written whole, rewritten at the end */
	FILE *held;
	char *text;
	size_t len;
	char *errors[MAX_ERRORS];
	size_t n;
} js;

static const char *const format_names[] = {"pretty", "compact", "lines"};

/* The array whose elements are the targets of --json=lines, by command
 * (none: the document is the one target).  check's own document streams
 * (cli_json_stream); what it writes whole is --list-codes'. */
static const char *each_target(const char *command)
{
	if (!strcmp(command, "plan"))
		return "devices";
	if (!strcmp(command, "check"))
		return "codes";
	return NULL;
}

/* --json[=@arg] was given to @command (cli_parse_opts): 0, or the usage
 * error said. */
int cli_json_want(const char *command, const char *arg)
{
	for (size_t i = 0; i < 3; i++)
		if (!arg || !strcmp(arg, format_names[i])) {
			js.command = command;
			js.format = arg ? (enum blkalign_json_format)i
					: BLKALIGN_JSON_PRETTY;
			return 0;
		}
	return cli_usage_error(command,
			       "invalid JSON format '%s' (pretty, compact "
			       "or lines)",
			       arg);
}

/* The command's own document starts now, written whole: where to write
 * it (held, written by cli_json_finish with the exit status, in its
 * form; stdout when there is no memory to hold it). */
FILE *cli_json_stdout(void)
{
	js.started = true;
	if (!js.held)
		js.held = open_memstream(&js.text, &js.len);
	return js.held ? js.held : stdout;
}

/* The document cli_json_stdout gave a place to was not written after
 * all (the failure document's place). */
void cli_json_unstart(void)
{
	js.started = false;
	if (js.held)
		fclose(js.held);
	free(js.text);
	js.held = NULL;
	js.text = NULL;
}

/* The command's own document starts now and the command streams it
 * itself, in @format: stdout. */
FILE *cli_json_stream(enum blkalign_json_format *format)
{
	js.started = true;
	*format = js.format;
	return stdout;
}

/* A message said on stderr, kept for the failure document. */
void cli_json_note(const char *msg)
{
	char *s;

	if (!js.command || js.started || js.n == MAX_ERRORS)
		return;
	s = strdup(msg);
	if (s)
		js.errors[js.n++] = s;
}

/* The document held, in its form on stdout: 0, or -errno. */
static int write_held(int status)
{
	int rc;

	if (!js.held)
		return 0;
	if (fclose(js.held)) {
		js.held = NULL;
		return -ENOMEM;
	}
	js.held = NULL;
	rc = blkalign_json_finish(js.text, js.len, js.format, js.command,
				  status, (const char *const *)js.errors, js.n,
				  each_target(js.command), stdout);
	free(js.text);
	js.text = NULL;
	return rc;
}

/**
 * cli_json_finish: after the command returned @status: the failure
 * document when --json was given, the command failed (not a usage
 * error) and wrote no document of its own; a document held, in its form.
 * Returns @status, with BLKALIGN_STATUS_FAILED when the document cannot
 * be written.
 */
int cli_json_finish(int status)
{
	bool usage = status < 128 && (status & BLKALIGN_STATUS_USAGE);
	bool failed = false;

	if (js.command && !js.started && status && !usage)
		failed = blkalign_failure_write_json(
			js.command, status, (const char *const *)js.errors,
			js.n, cli_json_stdout());
	if (js.command && !usage && write_held(status))
		failed = true;
	if (js.command && (failed || fflush(stdout) == EOF)) {
		js.command = NULL; /* this one is not a document */
		cli_warnx("cannot write the JSON output");
		status = blkalign_status_merge(status, BLKALIGN_STATUS_FAILED);
	}
	if (js.held)
		fclose(js.held);
	free(js.text);
	for (size_t i = 0; i < js.n; i++)
		free(js.errors[i]);
	memset(&js, 0, sizeof(js));
	return status;
}
