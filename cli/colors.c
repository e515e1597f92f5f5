/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * colors.c - whether to color the output, as util-linux decides it:
 * --color=always or never first; else (auto) NO_COLOR in the
 * environment, then terminal-colors.d(5)'s "disable" and "enable"
 * files (their color schemes are not read), then whether stdout is a
 * terminal.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

/* A file's name, "[[name][@term].]type", against this tool and $TERM:
 * its weight as util-linux's colors.c gives it (the more specific the
 * name the more), or 0 when it is not of @type or not for us. */
static int weight(const char *file, const char *type, const char *term)
{
	const char *dot = strrchr(file, '.'), *at, *base = file;
	size_t nlen;
	int w = 1;

	if (!dot) {
		/* "disable" alone: every tool, every terminal */
		return strcmp(file, type) ? 0 : 1;
	}
	if (strcmp(dot + 1, type) || dot == file)
		return 0;
	at = memchr(base, '@', (size_t)(dot - base));
	nlen = (size_t)((at ? at : dot) - base);
	if (nlen) {
		if (nlen != strlen(PROGRAM) || strncmp(base, PROGRAM, nlen))
			return 0;
		w += 20;
	}
	if (at) {
		size_t len = (size_t)(dot - at - 1);

		if (!term || strlen(term) != len || strncmp(at + 1, term, len))
			return 0;
		w += 10;
	}
	return w;
}

/*
 * The weights of the best "disable" and "enable" files in @dir; false
 * when none is for us (then the next directory is read).
 */
static bool read_dir(const char *dir, int *disable, int *enable)
{
	const char *term = getenv("TERM");
	struct dirent *e;
	DIR *d = opendir(dir);
	int w;

	*disable = *enable = 0;
	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		w = weight(e->d_name, "disable", term);
		if (w > *disable)
			*disable = w;
		w = weight(e->d_name, "enable", term);
		if (w > *enable)
			*enable = w;
	}
	closedir(d);
	return *disable || *enable;
}

/*
 * terminal-colors.d says no: the user's directory ($XDG_CONFIG_HOME or
 * ~/.config) when it has a file for us, else /etc's; a "disable" more
 * specific than any "enable".
 */
static bool colors_disabled(void)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char dir[4096] = "";
	int disable = 0, enable = 0;

	if (xdg && *xdg)
		snprintf(dir, sizeof(dir), "%s/terminal-colors.d", xdg);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.config/terminal-colors.d",
			 home);
	if (!dir[0] || !read_dir(dir, &disable, &enable))
		read_dir("/etc/terminal-colors.d", &disable, &enable);
	return disable > enable;
}

/**
 * cli_color_arg: --color[=WHEN]'s argument into @when (no argument:
 * "always", as util-linux's tools take it).  Returns: 0, or the usage
 * status after saying why.
 */
int cli_color_arg(const char *arg, const char **when)
{
	const char *w = arg ? arg : "always";

	if (strcmp(w, "auto") && strcmp(w, "always") && strcmp(w, "never")) {
		cli_warnx("invalid color mode '%s'", w);
		return BLKALIGN_STATUS_USAGE;
	}
	*when = w;
	return 0;
}

/* --color's @when ("auto", "always", "never"; NULL: auto). */
bool cli_use_color(const char *when)
{
	const char *no = getenv("NO_COLOR");

	if (when && strcmp(when, "auto"))
		return !strcmp(when, "always");
	if (no && *no)
		return false;
	return !colors_disabled() && isatty(STDOUT_FILENO);
}
