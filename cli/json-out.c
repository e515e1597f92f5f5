/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * json-out.c - the promise of --json (docs/json-schema.md): stdout holds
 * exactly one JSON document whatever happens, but after a usage error
 * (exit 16), when it holds nothing.  A command says when its document
 * starts; one that fails before (the target cannot be opened, a journal
 * is refused) gets the failure document instead, with the errors it said
 * on stderr.  Hints go into the documents or to stderr, never to stdout.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ERRORS 32

/* One run of one command: the state of its --json. */
static struct {
	const char *command; /* NULL: no --json */
	bool started;	     /* its document is on stdout, whole or not */
	char *errors[MAX_ERRORS];
	size_t n;
} js;

/* --json was given to @command (cli_parse_opts). */
void cli_json_want(const char *command)
{
	js.command = command;
}

/* The command's own document starts now: stdout, to write it to. */
FILE *cli_json_stdout(void)
{
	js.started = true;
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

/**
 * cli_json_finish: after the command returned @status: the failure
 * document when --json was given, the command failed (not a usage
 * error) and wrote no document of its own.  Returns @status, with
 * BLKALIGN_STATUS_FAILED when the document cannot be written.
 */
int cli_json_finish(int status)
{
	bool usage = status < 128 && (status & BLKALIGN_STATUS_USAGE);

	if (js.command && !js.started && status && !usage) {
		if (blkalign_failure_write_json(js.command, status,
						(const char *const *)js.errors,
						js.n, stdout) ||
		    fflush(stdout) == EOF) {
			js.command = NULL; /* this one is not a document */
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	}
	for (size_t i = 0; i < js.n; i++)
		free(js.errors[i]);
	memset(&js, 0, sizeof(js));
	return status;
}
