/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - shared pieces of the blkalign command: the subcommand table
 * entries, option parsing helpers and the report printers.
 */
#ifndef BLKALIGN_CLI_H
#define BLKALIGN_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blkalign.h"

#define PROGRAM "blkalign"

int cmd_check(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_plan(int argc, char **argv);

void cli_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int cli_parse_size(const char *arg, uint64_t *out);
int cli_parse_int(const char *arg, int64_t min, int64_t max, int64_t *out);
bool cli_use_color(const char *when);

void print_report_text(const struct blkalign_report *r, FILE *out,
		       bool color);

#endif /* BLKALIGN_CLI_H */
