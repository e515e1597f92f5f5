/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * parse.c - bounded parsers for option arguments: integers and sizes
 * with binary suffixes ("4096", "4K", "4KiB", "1M", "1MiB").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

int cli_parse_int(const char *arg, int64_t min, int64_t max, int64_t *out)
{
	char *end;
	long long v;

	if (!arg || !*arg)
		return -EINVAL;
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

/* A --partition number (1..65535) into @out; a bad one said: -EINVAL. */
int cli_parse_partition(const char *arg, int *out)
{
	int64_t v;

	if (cli_parse_int(arg, 1, 65535, &v)) {
		cli_warnx("invalid partition number '%s'", arg);
		return -EINVAL;
	}
	*out = (int)v;
	return 0;
}

int cli_parse_size(const char *arg, uint64_t *out)
{
	static const struct {
		const char *suffix;
		unsigned int shift;
	} units[] = {
		{"", 0},     {"B", 0},	{"K", 10},   {"KiB", 10}, {"M", 20},
		{"MiB", 20}, {"G", 30}, {"GiB", 30}, {"T", 40},	  {"TiB", 40},
	};
	unsigned long long v;
	char *end;

	if (!arg || !*arg || *arg == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || end == arg)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}
