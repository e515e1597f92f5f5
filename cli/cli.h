/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cli.h - shared pieces of the blkalign command: the subcommand table
 * entries, option parsing helpers and the report printers.
 */
#ifndef BLKALIGN_CLI_H
#define BLKALIGN_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "blkalign.h"

/* The library's words for the ways to go on, as this program's options
 * and commands (blkalign_ctx_set_word). */
static inline void cli_set_words(struct blkalign_ctx *ctx)
{
	static const char *const words[BLKALIGN_WORD_COUNT] = {
		[BLKALIGN_WORD_COPY_ALL] = "--copy-all",
		[BLKALIGN_WORD_RESUME] = "--resume",
		[BLKALIGN_WORD_ROLLBACK] = "--rollback",
		[BLKALIGN_WORD_INSPECT] = "--inspect",
		[BLKALIGN_WORD_JOURNAL] = "--journal",
		[BLKALIGN_WORD_PARTITION] = "--partition",
		[BLKALIGN_WORD_FIX_RESUME] = "blkalign fix --resume",
		[BLKALIGN_WORD_FIX_INSPECT] = "blkalign fix --inspect",
		[BLKALIGN_WORD_SECTOR_SIZE] = "--logical-sector-size",
		[BLKALIGN_WORD_PROGRAM] = "blkalign",
		[BLKALIGN_WORD_CHECK_JSON] = "blkalign check --json",
	};

	for (int w = 0; w < BLKALIGN_WORD_COUNT; w++)
		(void)blkalign_ctx_set_word(ctx, (enum blkalign_word)w,
					    words[w]);
}

#define PROGRAM "blkalign"

/* Exit status: a command line error, beside the library's status bits
 * (BLKALIGN_STATUS_FINDINGS, _INCOMPLETE, _FAILED). */
#define BLKALIGN_STATUS_USAGE 16

int cmd_check(int argc, char **argv);
int cmd_model(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_fix(int argc, char **argv);
int cli_main(int argc, char **argv);
void cli_version(FILE *out);
extern const char cli_git_version[]; /* git-version.c.in */

/* fix's I/O backend (cmd-fix.c): NULL, the system's, but in test
 * programs that link the commands with a backend of their own. */
extern const struct blkalign_fix_io *cli_fix_io;

void cli_warnx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_vwarnx(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
void cli_log_to_stderr(void *data, const char *msg);

/* --json's one document on stdout (json-out.c). */
int cli_json_want(const char *command, const char *arg);
FILE *cli_json_stdout(void);
FILE *cli_json_stream(enum blkalign_json_format *format);
void cli_json_unstart(void);
void cli_json_note(const char *msg);
int cli_json_finish(int status);
/* check --prometheus FILE (prom-file.c): 0 or the exit status. */
int cli_prom_file_check(const char *path);
int cli_prom_file_write(struct blkalign_prometheus *p, const char *path);
int cli_parse_size(const char *arg, uint64_t *out);
int cli_parse_int(const char *arg, int64_t min, int64_t max, int64_t *out);
int cli_parse_partition(const char *arg, int *out);
bool cli_use_color(const char *when);
int cli_color_arg(const char *arg, const char **when);

/*
 * A command's options (opts.c): its getopt_long table, which also gives
 * the short options, and its usage text for -h/--help.
 */
struct option;
struct cli_cmd {
	const char *name; /* "check": "Try 'blkalign check --help'" */
	const struct option *longopts; /* ends with a zero row; has "help" */
	void (*usage)(FILE *out);
};

/* cli_parse_opts()'s "stop, exit 0": --help printed */
#define CLI_DONE (-1)

/* One option @c of a command (its argument @arg): 0, CLI_DONE or the
 * exit status. */
typedef int cli_opt_fn(void *data, int c, const char *arg);

int cli_parse_opts(const struct cli_cmd *cmd, int argc, char **argv,
		   cli_opt_fn *fn, void *data);
void cli_try_help(const char *cmd);
int cli_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * --json[=<format>] (-J: pretty), the same option and the same --help
 * words for every command; cli_parse_opts parses its format.  @col: the
 * spaces from the option to the command's column of text; @ind: the
 * spaces before that column (CLI_JSON_HELP_34, _30: text at the 34th
 * or the 30th).
 */
#define CLI_JSON_LONGOPT                             \
	{                                            \
		"json", optional_argument, NULL, 'J' \
	}
#define CLI_JSON_HELP(col, ind)                             \
	" -J, --json[=<format>]" col                        \
	"print JSON: pretty (default), compact\n" ind       \
	"(the same on one line) or lines (a line per\n" ind \
	"target, then a summary line)\n"
#define CLI_JSON_HELP_34 \
	CLI_JSON_HELP("           ", "                                 ")
#define CLI_JSON_HELP_30 \
	CLI_JSON_HELP("       ", "                             ")

/* The image topology options of check, plan and model (topo-opts.c). */
enum {
	CLI_OPT_PSS = 1000,
	CLI_OPT_MIN_IO,
	CLI_OPT_OPT_IO,
	CLI_OPT_AO,
	CLI_OPT_PAGE,
};

#define CLI_TOPO_LONGOPTS                                                  \
	{"logical-sector-size", required_argument, NULL, 'b'},             \
		{"physical-sector-size", required_argument, NULL,          \
		 CLI_OPT_PSS},                                             \
		{"min-io", required_argument, NULL, CLI_OPT_MIN_IO},       \
		{"opt-io", required_argument, NULL, CLI_OPT_OPT_IO},       \
		{"alignment-offset", required_argument, NULL, CLI_OPT_AO}, \
	{                                                                  \
		"page-size", required_argument, NULL, CLI_OPT_PAGE         \
	}

struct cli_topo {
	struct blkalign_image_geometry geom;
	uint32_t page;
};

/* The --help lines of the image topology options (cli_topo_opt), the
 * same for every command that audits a target. */
#define CLI_TOPO_HELP                                                                                         \
	" -b, --logical-sector-size <n>   image: logical sector size (default: the image's, else 512)\n"      \
	"     --physical-sector-size <n>  image: physical sector size (default: the image's, else logical)\n" \
	"     --min-io <n>                image: minimum I/O size (default: physical)\n"                      \
	"     --opt-io <n>                image: optimal I/O size (default 0)\n"                              \
	"     --alignment-offset <n>      image: alignment offset (default 0)\n"                              \
	"     --page-size <n>             page size for the soft block size rule\n"

int cli_topo_opt(struct cli_topo *t, int c, const char *arg);
int cli_topo_apply(const struct cli_topo *t, struct blkalign_ctx *ctx);
int cli_set_sysroot(struct blkalign_ctx *ctx, const char *dir);

/*
 * The options of every command's table, as lsblk's (table-opts.c):
 * CLI_TABLE_LONGOPTS for check's (a tree), CLI_TABLE_FLAT_LONGOPTS and
 * CLI_TABLE_FLAT_HELP for the others (a list); CLI_COLOR_LONGOPT and
 * CLI_COLOR_HELP on every command.
 */
enum {
	CLI_OPT_BYTES = 1100,
	CLI_OPT_WIDTH,
	CLI_OPT_COLOR,
};

#define CLI_COLOR_LONGOPT                                       \
	{                                                       \
		"color", optional_argument, NULL, CLI_OPT_COLOR \
	}
#define CLI_COLOR_HELP \
	"     --color[=<when>]            colorize: auto, always or never\n"

#define CLI_TABLE_FLAT_LONGOPTS                                 \
	{"output", required_argument, NULL, 'o'},               \
		{"list-columns", no_argument, NULL, 'H'},       \
		{"noheadings", no_argument, NULL, 'n'},         \
		{"raw", no_argument, NULL, 'r'},                \
		{"pairs", no_argument, NULL, 'P'},              \
		{"bytes", no_argument, NULL, CLI_OPT_BYTES},    \
	{                                                       \
		"width", required_argument, NULL, CLI_OPT_WIDTH \
	}

#define CLI_TABLE_LONGOPTS                                         \
	CLI_TABLE_FLAT_LONGOPTS, {"list", no_argument, NULL, 'l'}, \
	{                                                          \
		"tree", no_argument, NULL, 'T'                     \
	}

#define CLI_TABLE_HELP                                                                    \
	" -o, --output <list>             the layer table's columns, comma-separated\n"   \
	"                                 (+<list>: after the default ones)\n"            \
	" -H, --list-columns              list the columns -o takes and exit\n"           \
	" -n, --noheadings                print the tables without headings\n"            \
	" -r, --raw                       print the layer table alone, raw\n"             \
	" -P, --pairs                     print the layer table alone, KEY=\"value\"\n"   \
	"     --bytes                     print sizes in bytes, not as 1.5G\n"            \
	" -l, --list                      print the layers as a list\n"                   \
	" -T, --tree                      print the layers as a tree (default)\n"         \
	"     --width <n>                 lines at most <n> columns wide (default: the\n" \
	"                                 terminal's, or COLUMNS; a pipe: no limit)\n"

/* @what: "the table" ("plan's table"...), as the help says it. */
#define CLI_TABLE_FLAT_HELP(what)                                                         \
	" -o, --output <list>             " what                                          \
	"'s columns, comma-separated\n"                                                   \
	"                                 (+<list>: after the default ones)\n"            \
	" -H, --list-columns              list the columns -o takes and exit\n"           \
	" -n, --noheadings                print " what " without headings\n"              \
	" -r, --raw                       print " what " alone, raw\n"                    \
	" -P, --pairs                     print " what                                    \
	" alone, KEY=\"value\"\n"                                                         \
	"     --bytes                     print sizes in bytes, not as 1.5G\n"            \
	"     --width <n>                 lines at most <n> columns wide (default: the\n" \
	"                                 terminal's, or COLUMNS; a pipe: no limit)\n"

/* @kind: the table whose columns -o and -H name. */
struct cli_table {
	enum blkalign_text_table kind;
	const char *columns;
	unsigned int flags; /* BLKALIGN_TEXT_* */
	unsigned int width; /* --width; 0: the terminal's */
	bool list_columns;
};

int cli_table_opt(struct cli_table *t, int c, const char *arg);
int cli_table_usage(const struct cli_table *t, const char *cmd);
int cli_table_topo_opt(struct cli_table *t, struct cli_topo *topo, int c,
		       const char *arg);
struct blkalign_text_opts cli_table_text_opts(const struct cli_table *t,
					      bool color);
void cli_table_list_columns(enum blkalign_text_table kind);

/*
 * Where a command's device comes from: the device or image itself, a
 * saved sysfs tree (--sysroot) or a saved check --json report (--from);
 * topo-opts.c.
 */
struct cli_source {
	const char *sysroot, *from;
};

#define CLI_SOURCE_HELP                                                               \
	"     --from <file>               a report saved by 'check --json' instead\n" \
	"                                 of a device (its topology is kept)\n"

int cli_source_usage(const struct cli_source *src, const struct cli_topo *topo);
int cli_source_check(struct blkalign_report *r, const struct cli_source *src,
		     const char *target);

/*
 * check's targets (targets.c): the operands and --files-from's lines,
 * each directory replaced by its entries, sorted by name.
 */
enum cli_target_kind {
	CLI_TARGET_GIVEN, /* named by the user: audited as it is */
	CLI_TARGET_ENTRY, /* found in a directory: audited if an image */
};

struct cli_target {
	char *path;
	enum cli_target_kind kind;
	char *part_of; /* skipped: why (a part of another target's disk) */
};

struct cli_targets {
	struct cli_target *v;
	size_t n, cap;
};

int cli_targets_add(struct cli_targets *t, const char *arg, bool expand);
int cli_targets_read(struct cli_targets *t, const char *file, bool nul,
		     bool expand);
int cli_targets_find_parts(struct cli_targets *t);
void cli_targets_free(struct cli_targets *t);
int cli_target_audit(struct blkalign_report *r, const struct cli_source *src,
		     const struct cli_target *t);

/* plan and fix: one disk audited and planned (plan-audit.c). */
/* check's and plan's --svg and --html (diskmap-file.c). */
struct cli_diskmap {
	const char *path;
	char *tmp; /* written first, renamed to path */
	FILE *f;
	struct blkalign_diskmap *map;
};

unsigned int cli_diskmap_open(struct cli_diskmap *m, const char *path,
			      enum blkalign_diskmap_format f);
unsigned int cli_diskmap_add(struct cli_diskmap *m,
			     const struct blkalign_report *r);
unsigned int cli_diskmap_close(struct cli_diskmap *m, bool ok);

struct blkalign_plan *
cli_audit_plan(const struct cli_topo *topo, const struct cli_source *src,
	       const char *path, const char *cmd, struct blkalign_ctx **ctxp,
	       struct blkalign_report **repp, unsigned int *status);

/* The pieces of bench's SVG charts (svg.c). */
/* a character's width, in font sizes (a generous sans-serif average) */
#define SVG_CHAR_EM   0.6
#define SVG_MAX_LINES 16

/* Okabe-Ito: blue, bluish green, vermillion (hatched: a second cue) */
#define SVG_PLAIN "#0072B2"
#define SVG_FAST  "#009E73"
#define SVG_SLOW  "#D55E00"

enum svg_kind {
	SVG_KIND_PLAIN, /* no comparison: blue */
	SVG_KIND_FAST,	/* the faster: green */
	SVG_KIND_SLOW,	/* the slower: vermillion, hatched */
};

struct svg_lines {
	char line[SVG_MAX_LINES][200];
	int n;
};

/* A value axis from 0 to max, nticks steps of step (in unit). */
struct svg_axis {
	double max;  /* in base units (bytes/s, ns) */
	double unit; /* base units per unit */
	double step; /* in units: 1, 2 or 5 times a power of ten */
	int nticks;  /* steps up to max */
	const char *unit_name;
};

struct svg_legend_item {
	enum svg_kind kind;
	bool whisker; /* a whisker, not a swatch */
	const char *text;
};

double svg_text_width(const char *s, double size);
void svg_text(FILE *out, double x, double y, double size, const char *anchor,
	      const char *cls, const char *s);
void svg_wrap(const char *s, double width_px, double size, struct svg_lines *l);
double svg_lines_put(FILE *out, const struct svg_lines *l, double x, double y,
		     double size, double lead);
void svg_axis_bytes_per_s(double max, struct svg_axis *a);
void svg_axis_ns(double max, struct svg_axis *a);
void svg_tick_label(const struct svg_axis *a, int i, char *buf, size_t len);
void svg_value(const struct svg_axis *a, double v, char *buf, size_t len);
void svg_axis_put(FILE *out, const struct svg_axis *a, double x0, double x1,
		  double top, double h);
double svg_axis_label_width(const struct svg_axis *a);
void svg_begin(FILE *out, double w, double h);
const char *svg_fill(enum svg_kind k);
void svg_bar(FILE *out, double x, double y, double w, double h, enum svg_kind k,
	     double ylo, double yhi, const char *tip);
double svg_legend(FILE *out, const struct svg_legend_item *it, size_t n,
		  double x, double y, double w);
int svg_end(FILE *out);

/* bench's pictures (bench-svg.c). */
int cli_bench_sweep_svg(const struct blkalign_bench_result *r, FILE *out);
int cli_bench_compare_svg(const struct blkalign_bench_compare *c, FILE *out);

/* last, after every system header (each .c includes cli.h last) */
#include "../lib/banned.h"

#endif /* BLKALIGN_CLI_H */
