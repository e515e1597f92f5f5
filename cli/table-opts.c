/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * table-opts.c - the options of every command's table, as lsblk's:
 * -o/--output (+LIST adds to the default columns), -H/--list-columns,
 * -n, -r, -P, --bytes, --width, and check's -l/--list and -T/--tree;
 * parsed here against the command's table (struct cli_table's kind),
 * handed to the library as a struct blkalign_text_opts.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"

/**
 * cli_table_opt: handle getopt's @c if it is a table option.
 * Returns: 1 handled, 0 not a table option, -EINVAL on a bad argument
 * (already reported).
 */
int cli_table_opt(struct cli_table *t, int c, const char *arg)
{
	const char *bad;
	size_t badlen;
	int64_t w;
	int rc;

	switch (c) {
	case 'o':
		rc = blkalign_text_table_columns_check(t->kind, arg, &bad,
						       &badlen);
		if (rc == -E2BIG)
			cli_warnx("too many columns in '%s'", arg);
		else if (rc)
			cli_warnx("unknown column '%.*s' (see --list-columns)",
				  (int)badlen, bad);
		t->columns = arg;
		return rc ? -EINVAL : 1;
	case 'H':
		t->list_columns = true;
		return 1;
	case 'n':
		t->flags |= BLKALIGN_TEXT_NOHEADINGS;
		return 1;
	case 'r':
		t->flags |= BLKALIGN_TEXT_RAW;
		return 1;
	case 'P':
		t->flags |= BLKALIGN_TEXT_PAIRS;
		return 1;
	case CLI_OPT_BYTES:
		t->flags |= BLKALIGN_TEXT_BYTES;
		return 1;
	case 'l':
		t->flags |= BLKALIGN_TEXT_LIST;
		return 1;
	case 'T':
		t->flags &= ~BLKALIGN_TEXT_LIST;
		return 1;
	case CLI_OPT_WIDTH:
		if (cli_parse_int(arg, 1, 100000, &w)) {
			cli_warnx("invalid width '%s'", arg);
			return -EINVAL;
		}
		t->width = (unsigned int)w;
		return 1;
	}
	return 0;
}

/**
 * cli_table_topo_opt: @c, the option of a command that prints a table
 * and takes the topology options (check, plan, fix), when it is one of
 * those (anything else was the command's to handle first).
 * Returns: 0, or the usage status (a bad value, said; an unknown option).
 */
int cli_table_topo_opt(struct cli_table *t, struct cli_topo *topo, int c,
		       const char *arg)
{
	int rc = cli_table_opt(t, c, arg);

	if (!rc)
		rc = cli_topo_opt(topo, c, arg);
	return rc > 0 ? 0 : BLKALIGN_STATUS_USAGE;
}

/* -r and -P: one or the other. */
int cli_table_usage(const struct cli_table *t, const char *cmd)
{
	if ((t->flags & BLKALIGN_TEXT_RAW) && (t->flags & BLKALIGN_TEXT_PAIRS))
		return cli_usage_error(cmd, "--raw and --pairs are mutually "
					    "exclusive");
	return 0;
}

/*
 * The width of the lines: --width, else on a terminal COLUMNS or the
 * terminal's own (as libsmartcols finds it for lsblk), else no limit: a
 * pipe or a file gets whole lines.
 */
static unsigned int width(const struct cli_table *t)
{
	const char *cols = getenv("COLUMNS");
	struct winsize ws;
	int64_t w;

	if (t->width)
		return t->width;
	if (!isatty(STDOUT_FILENO))
		return 0;
	if (cols && !cli_parse_int(cols, 1, 100000, &w))
		return (unsigned int)w;
	if (!ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

/* The options as the library takes them; @color adds colors. */
struct blkalign_text_opts cli_table_text_opts(const struct cli_table *t,
					      bool color)
{
	struct blkalign_text_opts o = BLKALIGN_TEXT_OPTS_INIT;

	o.flags = t->flags | (color ? BLKALIGN_TEXT_COLOR : 0);
	o.columns = t->columns;
	o.width = width(t);

	return o;
}

/* -H/--list-columns: the columns of table @kind, the default ones said. */
void cli_table_list_columns(enum blkalign_text_table kind)
{
	const char *name, *help;
	int w = 17;
	bool dflt;

	/* the helps in one column, after the longest name */
	for (size_t i = 0;
	     !blkalign_text_table_column(kind, i, &name, NULL, NULL); i++)
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
	for (size_t i = 0;
	     !blkalign_text_table_column(kind, i, &name, &help, &dflt); i++)
		printf("%-*s %s%s\n", w, name, help, dflt ? " (default)" : "");
}
