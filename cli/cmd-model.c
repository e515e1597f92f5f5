/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd-model.c - `blkalign model`: predict the block requests, physical
 * sectors, read-modify-writes and RAID I/Os of workloads on a layer, as
 * it is and aligned, from an audited target or from explicit geometry.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum {
	OPT_SYSROOT = 256,
	OPT_FROM,
	OPT_MAX_SEGS,
	OPT_MAX_KB,
	OPT_MAX_SEG_SIZE,
	OPT_VIRT,
	OPT_RA,
	OPT_WORKLOAD,
	OPT_RW,
	OPT_BS,
	OPT_PATTERN,
	OPT_PATH,
	OPT_TOTAL,
	OPT_KERNEL,
	OPT_PARTITION,
	OPT_START,
	OPT_SIZE,
	OPT_RAID_LEVEL,
	OPT_RAID_DISKS,
	OPT_CHUNK,
};

static void usage(FILE *out)
{
	fputs("Usage:\n"
	      " " PROGRAM " model [options] <image>|<device>|<partition>\n"
	      " " PROGRAM " model [options] --size <size> [--start <offset>]\n"
	      " " PROGRAM " model [options] --from <report.json> [<device>]\n"
	      "\nPredict what workloads cost on a layer: the block requests the\n"
	      "kernel issues (count, sizes), the physical sectors they touch,\n"
	      "read-modify-writes at a 512e drive and member I/Os of an md RAID\n"
	      "below, for the layout as it is and for the same layout aligned.\n"
	      "\nTarget and layer:\n"
	      "     --partition <n>             model partition <n> only (default: every\n"
	      "                                 partition, or the disk without any)\n"
	      "     --start <offset>            layer start (bytes, or sectors with 's')\n"
	      "     --size <size>               layer size (bytes, or sectors with 's')\n"
	      "     --sysroot <dir>             read sysfs below <dir> instead of /sys\n" CLI_SOURCE_HELP
	      "\nWorkload:\n"
	      "     --workload <list>           presets, comma-separated, or 'all':\n"
	      "                                 seq-write-buffered, seq-write-direct,\n"
	      "                                 seq-read, seq-read-direct, rand-write-4k,\n"
	      "                                 rand-read-4k, mkfs (default:\n"
	      "                                 seq-write-buffered, seq-write-direct,\n"
	      "                                 seq-read, rand-write-4k)\n"
	      "     --rw <read|write>           direction\n"
	      "     --bs <size>                 bytes per read or write call\n"
	      "     --pattern <seq|rand>        sequential from the layer start, or random\n"
	      "     --path <buffered|direct>    page cache or O_DIRECT\n"
	      "     --total <size>              bytes moved (default 1G; mkfs: the layer)\n"
	      "     --kernel <current|pre-4.11> block layer merge rules to follow\n"
	      "\nGeometry (overrides what the target reports):\n"
	      " -b, --logical-sector-size <n>   logical sector size\n"
	      "     --physical-sector-size <n>  physical sector size\n"
	      "     --min-io <n>                minimum I/O size\n"
	      "     --opt-io <n>                optimal I/O size\n"
	      "     --alignment-offset <n>      alignment offset of the disk\n"
	      "     --page-size <n>             page size\n"
	      "     --max-segments <n>          queue max_segments\n"
	      "     --max-sectors-kb <n>        queue max_sectors_kb\n"
	      "     --max-segment-size <n>      queue max_segment_size\n"
	      "     --virt-boundary-mask <n>    queue virt_boundary_mask\n"
	      "     --read-ahead-kb <n>         queue read_ahead_kb\n"
	      "     --raid-level <n>            md RAID level below the layer: 0 1 4 5 6 10\n"
	      "     --raid-disks <n>            md RAID member disks\n"
	      "     --chunk <size>              md RAID chunk size\n"
	      "\nOutput:\n" CLI_JSON_HELP_34 CLI_TABLE_FLAT_HELP(
		      "the workload table") CLI_COLOR_HELP
	      " -h, --help                      display this help\n"
	      " -V, --version                   display the version\n"
	      "\nSizes take the suffixes K, M, G (or KiB, MiB, GiB).\n"
	      "\nExit status: 0 modelled, 4 operational error, 16 usage error.\n"
	      "\nFor more details see blkalign-model(8) and docs/model.md.\n",
	      out);
}

struct opts {
	bool json;
	struct cli_table table; /* -o, -r, -P... (BLKALIGN_TEXT_TABLE_MODEL) */
	const char *color;	/* --color's; NULL: auto */
	struct cli_source src;
	struct cli_topo topo;		     /* check's image options */
	struct blkalign_model_geometry over; /* 0: not given */
	bool virt_set;
	const char *workloads;
	int rw, pattern, path; /* -1: not given */
	uint64_t bs, total;
	enum blkalign_kernel kernel;
	int64_t partition;
	bool start_set, size_set;
	uint64_t start, size;
	int64_t raid_level, raid_disks;
	uint64_t chunk;
};

static int size_arg(const char *name, const char *arg, uint64_t *out)
{
	size_t n = strlen(arg);

	/* "2048s": 512-byte sectors */
	if (n > 1 && arg[n - 1] == 's') {
		char buf[32];
		uint64_t v;

		if (n >= sizeof(buf))
			goto bad;
		memcpy(buf, arg, n - 1);
		buf[n - 1] = '\0';
		if (cli_parse_size(buf, &v) || v > UINT64_MAX / 512)
			goto bad;
		*out = v * 512;
		return 0;
	}
	if (cli_parse_size(arg, out) == 0)
		return 0;
bad:
	cli_warnx("invalid %s '%s'", name, arg);
	return -EINVAL;
}

static int u32_arg(const char *name, const char *arg, uint32_t *out)
{
	uint64_t v;

	if (cli_parse_size(arg, &v) || v == 0 || v > UINT32_MAX) {
		cli_warnx("invalid %s '%s'", name, arg);
		return -EINVAL;
	}
	*out = (uint32_t)v;
	return 0;
}

static int pick(const char *name, const char *arg, const char *a, const char *b,
		int *out)
{
	if (!strcmp(arg, a))
		*out = 0;
	else if (!strcmp(arg, b))
		*out = 1;
	else {
		cli_warnx("invalid %s '%s': '%s' or '%s'", name, arg, a, b);
		return -EINVAL;
	}
	return 0;
}

/* Options given explicitly win over what the target reports. */
static void apply_overrides(const struct opts *o,
			    struct blkalign_model_geometry *g)
{
	const struct blkalign_model_geometry *v = &o->over;

#define OVER(f)   \
	if (v->f) \
	g->f = v->f
	OVER(logical_sector_size);
	OVER(physical_sector_size);
	OVER(minimum_io_size);
	OVER(optimal_io_size);
	OVER(max_segments);
	OVER(max_sectors_kb);
	OVER(max_segment_size);
	OVER(page_size);
	OVER(read_ahead_kb);
#undef OVER
	if (o->topo.geom.alignment_offset_set)
		g->alignment_offset = (uint32_t)o->topo.geom.alignment_offset;
	if (o->virt_set)
		g->virt_boundary_mask = v->virt_boundary_mask;
	if (v->physical_sector_size && !v->minimum_io_size &&
	    g->minimum_io_size < g->physical_sector_size)
		g->minimum_io_size = g->physical_sector_size;
}

/* Fill @w from preset @name, then apply the --rw/--bs/... overrides. */
static int one_workload(const struct opts *o, const char *name, bool custom,
			struct blkalign_workload *w)
{
	w->size = sizeof(*w);
	if (blkalign_workload_preset(name, w)) {
		cli_warnx("unknown workload '%s'", name);
		return -EINVAL;
	}
	if (custom)
		w->name = "custom";
	if (o->rw >= 0)
		w->dir = o->rw ? BLKALIGN_IO_WRITE : BLKALIGN_IO_READ;
	if (o->pattern >= 0)
		w->pattern = o->pattern ? BLKALIGN_IO_RANDOM
					: BLKALIGN_IO_SEQUENTIAL;
	if (o->path >= 0)
		w->path = o->path ? BLKALIGN_IO_DIRECT : BLKALIGN_IO_BUFFERED;
	if (o->bs)
		w->io_size = o->bs;
	if (o->total)
		w->total = o->total;
	return 0;
}

/*
 * The workloads to run: --workload's presets ("all": every one), else
 * the standard set, else with --rw/--bs/--pattern/--path alone a
 * "custom" workload starting from seq-write-buffered.
 */
static int workloads(const struct opts *o, struct blkalign_workload **out,
		     size_t *n)
{
	static const char *const defaults[] = {"seq-write-buffered",
					       "seq-write-direct", "seq-read",
					       "rand-write-4k", NULL};
	static const char *const custom_base[] = {"seq-write-buffered", NULL};
	bool custom = o->rw >= 0 || o->bs || o->pattern >= 0 || o->path >= 0;
	const char *const *names = custom ? custom_base : defaults;
	struct blkalign_workload *w;
	char *list = NULL, *save = NULL, *tok;
	size_t cnt = 0, cap = 16;
	int rc = 0;

	w = calloc(cap, sizeof(*w));
	if (!w)
		return -ENOMEM;
	if (o->workloads && strcmp(o->workloads, "all")) {
		list = strdup(o->workloads);
		if (!list) {
			free(w);
			return -ENOMEM;
		}
		for (tok = strtok_r(list, ",", &save); tok && !rc;
		     tok = strtok_r(NULL, ",", &save)) {
			if (cnt == cap) {
				cli_warnx("too many workloads");
				rc = -EINVAL;
				break;
			}
			rc = one_workload(o, tok, false, &w[cnt++]);
		}
		free(list);
	} else {
		if (o->workloads)
			names = blkalign_workload_presets();
		for (size_t i = 0; names[i] && cnt < cap && !rc; i++)
			rc = one_workload(o, names[i], custom && !o->workloads,
					  &w[cnt++]);
	}
	if (rc || !cnt) {
		free(w);
		return rc ? rc : -EINVAL;
	}
	*out = w;
	*n = cnt;
	return 0;
}

struct target_layers {
	size_t n;
	struct blkalign_model_layer *l;
	const char **names;
};

/* The layers to model from an audited device. */
static int pick_layers(const struct opts *o, const struct blkalign_device *d,
		       struct target_layers *t)
{
	size_t want = 0, nlayers = blkalign_device_get_nlayers(d);

	t->l = calloc(nlayers + 1, sizeof(*t->l));
	t->names = calloc(nlayers + 1, sizeof(*t->names));
	if (!t->l || !t->names)
		return -ENOMEM;
	for (size_t i = 0; i <= nlayers; i++)
		t->l[i].size = sizeof(t->l[i]);
	for (size_t i = 1; i < nlayers; i++) {
		const struct blkalign_layer *l =
			blkalign_device_get_layer(d, i);
		enum blkalign_layer_kind kind = blkalign_layer_get_kind(l);

		if ((kind != BLKALIGN_LAYER_PARTITION &&
		     kind != BLKALIGN_LAYER_BSD) ||
		    blkalign_layer_get_extended(l) ||
		    !blkalign_layer_get_size(l))
			continue;
		if (o->partition &&
		    blkalign_layer_get_number(l) != o->partition)
			continue;
		if (blkalign_model_layer_from_device(d, i, &t->l[t->n]))
			return -EINVAL;
		t->names[t->n++] = blkalign_layer_get_name(l);
		want++;
	}
	if (o->partition && !want) {
		cli_warnx("'%s' has no partition %" PRId64,
			  blkalign_device_get_path(d), o->partition);
		return -ENOENT;
	}
	if (!t->n) {
		if (blkalign_model_layer_from_device(d, 0, &t->l[0]))
			return -EINVAL;
		t->names[0] = blkalign_layer_get_name(
			blkalign_device_get_layer(d, 0));
		t->n = 1;
	}
	return 0;
}

static const struct option longopts[] = {
	CLI_JSON_LONGOPT,
	{"sysroot", required_argument, NULL, OPT_SYSROOT},
	{"from", required_argument, NULL, OPT_FROM},
	CLI_TOPO_LONGOPTS,
	{"max-segments", required_argument, NULL, OPT_MAX_SEGS},
	{"max-sectors-kb", required_argument, NULL, OPT_MAX_KB},
	{"max-segment-size", required_argument, NULL, OPT_MAX_SEG_SIZE},
	{"virt-boundary-mask", required_argument, NULL, OPT_VIRT},
	{"read-ahead-kb", required_argument, NULL, OPT_RA},
	{"workload", required_argument, NULL, OPT_WORKLOAD},
	{"rw", required_argument, NULL, OPT_RW},
	{"bs", required_argument, NULL, OPT_BS},
	{"pattern", required_argument, NULL, OPT_PATTERN},
	{"path", required_argument, NULL, OPT_PATH},
	{"total", required_argument, NULL, OPT_TOTAL},
	{"kernel", required_argument, NULL, OPT_KERNEL},
	{"partition", required_argument, NULL, OPT_PARTITION},
	{"start", required_argument, NULL, OPT_START},
	{"size", required_argument, NULL, OPT_SIZE},
	{"raid-level", required_argument, NULL, OPT_RAID_LEVEL},
	{"raid-disks", required_argument, NULL, OPT_RAID_DISKS},
	{"chunk", required_argument, NULL, OPT_CHUNK},
	CLI_TABLE_FLAT_LONGOPTS,
	CLI_COLOR_LONGOPT,
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

static const struct cli_cmd model_cmd = {"model", longopts, usage};

/*
 * The option groups: each returns 0, -EINVAL on a bad value (said) or 1
 * when @c is not one of its options.
 */

/* The target and the layer: --json, --from, --sysroot, --partition, ... */
static int layer_opt(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case 'J':
		o->json = true;
		return 0;
	case OPT_FROM:
		o->src.from = arg;
		return 0;
	case OPT_SYSROOT:
		o->src.sysroot = arg;
		return 0;
	case OPT_PARTITION:
		if (cli_parse_int(arg, 1, 1 << 20, &o->partition)) {
			cli_warnx("invalid partition number '%s'", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_START:
		o->start_set = true;
		return size_arg("start", arg, &o->start);
	case OPT_SIZE:
		o->size_set = true;
		return size_arg("size", arg, &o->size);
	}
	return 1;
}

/* The workload: --workload, --rw, --bs, --pattern, --path, --total, ... */
static int workload_opt(struct opts *o, int c, const char *arg)
{
	switch (c) {
	case OPT_WORKLOAD:
		o->workloads = arg;
		return 0;
	case OPT_RW:
		return pick("direction", arg, "read", "write", &o->rw);
	case OPT_BS:
		if (size_arg("I/O size", arg, &o->bs))
			return -EINVAL;
		if (!o->bs) {
			cli_warnx("invalid I/O size '%s'", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_PATTERN:
		return pick("pattern", arg, "seq", "rand", &o->pattern);
	case OPT_PATH:
		return pick("path", arg, "buffered", "direct", &o->path);
	case OPT_TOTAL:
		return size_arg("total", arg, &o->total);
	case OPT_KERNEL:
		if (blkalign_kernel_parse(arg, &o->kernel)) {
			cli_warnx("invalid kernel '%s': 'current' or "
				  "'pre-4.11'",
				  arg);
			return -EINVAL;
		}
		return 0;
	}
	return 1;
}

/* --virt-boundary-mask: 0 is a valid mask (no boundary), 4095 or 0xfff */
static int virt_arg(struct opts *o, const char *arg)
{
	char *end;
	uint64_t u;

	errno = 0;
	u = strtoull(arg, &end, 0);
	if (errno || end == arg || *end || *arg == '-') {
		cli_warnx("invalid virt boundary mask '%s'", arg);
		return -EINVAL;
	}
	o->over.virt_boundary_mask = u;
	o->virt_set = true;
	return 0;
}

/* The queue limits and the md RAID below: --max-segments, ... --chunk */
static int limits_opt(struct opts *o, int c, const char *arg)
{
	struct blkalign_model_geometry *v = &o->over;

	switch (c) {
	case OPT_MAX_SEGS:
		return u32_arg("max segments", arg, &v->max_segments);
	case OPT_MAX_KB:
		return u32_arg("max sectors kb", arg, &v->max_sectors_kb);
	case OPT_MAX_SEG_SIZE:
		return u32_arg("max segment size", arg, &v->max_segment_size);
	case OPT_VIRT:
		return virt_arg(o, arg);
	case OPT_RA:
		return u32_arg("read ahead kb", arg, &v->read_ahead_kb);
	case OPT_RAID_LEVEL:
		if (cli_parse_int(arg, 0, 10, &o->raid_level)) {
			cli_warnx("invalid RAID level '%s'", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_RAID_DISKS:
		if (cli_parse_int(arg, 2, 4096, &o->raid_disks)) {
			cli_warnx("invalid number of RAID disks '%s'", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_CHUNK:
		return size_arg("chunk size", arg, &o->chunk);
	}
	return 1;
}

static int model_opt(void *data, int c, const char *arg)
{
	struct opts *o = data;
	int rc;

	if (c == CLI_OPT_COLOR)
		return cli_color_arg(arg, &o->color);
	/* 1: a table option, taken; 0: not one */
	rc = cli_table_opt(&o->table, c, arg);
	if (rc)
		return rc > 0 ? 0 : BLKALIGN_STATUS_USAGE;
	rc = layer_opt(o, c, arg);
	if (rc > 0)
		rc = workload_opt(o, c, arg);
	if (rc > 0)
		rc = limits_opt(o, c, arg);
	if (rc > 0)
		rc = cli_topo_opt(&o->topo, c, arg) > 0 ? 0 : -EINVAL;
	return rc ? BLKALIGN_STATUS_USAGE : 0;
}

/* The options, then the operands: 0 to go on, CLI_DONE or the status. */
static int parse_args(int argc, char **argv, struct opts *o,
		      const char **target)
{
	struct blkalign_model_geometry *v = &o->over;
	int rc = cli_parse_opts(&model_cmd, argc, argv, model_opt, o);
	int raid;

	if (rc)
		return rc;
	if (o->table.list_columns) {
		cli_table_list_columns(BLKALIGN_TEXT_TABLE_MODEL);
		return CLI_DONE;
	}
	if (cli_table_usage(&o->table, "model"))
		return BLKALIGN_STATUS_USAGE;
	/* The image options also override the target's own geometry. */
	v->logical_sector_size = o->topo.geom.logical_sector_size;
	v->physical_sector_size = o->topo.geom.physical_sector_size;
	v->minimum_io_size = o->topo.geom.minimum_io_size;
	v->optimal_io_size = o->topo.geom.optimal_io_size;
	v->page_size = o->topo.page;
	if (optind < argc)
		*target = argv[optind++];
	if (optind < argc) {
		cli_warnx("one target at a time: '%s'", argv[optind]);
		return BLKALIGN_STATUS_USAGE;
	}
	if (cli_source_usage(&o->src, &o->topo))
		return BLKALIGN_STATUS_USAGE;
	if (!*target && !o->size_set && !o->src.from)
		return cli_usage_error("model", "no target: give an image or "
						"device, or --size");
	raid = (o->raid_level >= 0) + (o->raid_disks > 0) + (o->chunk > 0);
	if (raid != 0 && raid != 3) {
		cli_warnx("--raid-level, --raid-disks and --chunk go together");
		return BLKALIGN_STATUS_USAGE;
	}
	return 0;
}

/* One layer, named "layer": --start and --size's. */
static int one_layer(const struct opts *o, struct target_layers *t)
{
	t->l = calloc(1, sizeof(*t->l));
	t->names = calloc(1, sizeof(*t->names));
	if (!t->l || !t->names)
		return -ENOMEM;
	t->l[0].size = sizeof(t->l[0]);
	t->l[0].start = o->start;
	t->l[0].length = o->size;
	t->names[0] = "layer";
	t->n = 1;
	return 0;
}

/* The layers of audited @d to model: --start/--size's, else its own. */
static int device_layers(const struct opts *o, const struct blkalign_device *d,
			 struct target_layers *t)
{
	uint64_t size;

	if (!o->start_set && !o->size_set)
		return pick_layers(o, d, t);
	if (one_layer(o, t))
		return -ENOMEM;
	blkalign_model_layer_from_device(d, 0, &t->l[0]);
	t->l[0].start = o->start;
	size = blkalign_device_get_size(d);
	t->l[0].length =
		o->size_set ? o->size : (size > o->start ? size - o->start : 0);
	return 0;
}

/* A context with the options and a report to audit into: 0 or the
 * status (*@ctxp, *@repp to free either way). */
static int open_report(const struct opts *o, struct blkalign_ctx **ctxp,
		       struct blkalign_report **repp)
{
	*ctxp = blkalign_ctx_new();
	cli_set_words(*ctxp);
	if (!*ctxp)
		return BLKALIGN_STATUS_FAILED;
	blkalign_ctx_set_log_fn(*ctxp, cli_log_to_stderr, NULL);
	if (cli_topo_apply(&o->topo, *ctxp))
		return BLKALIGN_STATUS_USAGE;
	if (o->src.sysroot && cli_set_sysroot(*ctxp, o->src.sysroot))
		return BLKALIGN_STATUS_FAILED;
	*repp = blkalign_report_new(*ctxp);
	return *repp ? 0 : BLKALIGN_STATUS_FAILED;
}

/* @target (NULL: --from's one device) audited into @report: its record,
 * or NULL with *@status, having said why. */
static const struct blkalign_device *
audit_target(const struct opts *o, const char *target,
	     struct blkalign_report *report, int *status)
{
	const struct blkalign_device *d;
	int rc = cli_source_check(report, &o->src, target);

	*status = BLKALIGN_STATUS_FAILED;
	if (o->src.from && blkalign_report_ndevices(report) > 1) {
		cli_warnx("'%s' holds %zu devices: name the one to "
			  "model",
			  o->src.from, blkalign_report_ndevices(report));
		*status = BLKALIGN_STATUS_USAGE;
		return NULL;
	}
	if (o->src.from && rc)
		return NULL;
	if (rc || !blkalign_report_ndevices(report)) {
		if (rc == -ENOTBLK)
			cli_warnx("'%s' is neither an image file nor a "
				  "block device",
				  target);
		else
			cli_warnx("cannot open '%s': %s", target,
				  strerror(rc ? -rc : ENOENT));
		return NULL;
	}
	d = blkalign_report_device(report, 0);
	for (size_t k = 0; k < blkalign_device_get_nproblems(d); k++)
		cli_warnx("%s: %s", blkalign_device_get_path(d),
			  blkalign_device_get_problem(d, k));
	return blkalign_device_get_failed(d) ? NULL : d;
}

/* The models of every workload on every layer, and the layers' names. */
struct model_set {
	const struct blkalign_model **m;
	const char **names;
	size_t n;
};

/* Run @w on every layer of @t into @ms: 0, or the status. */
static int run_models(const struct opts *o,
		      const struct blkalign_model_geometry *g,
		      const struct target_layers *t,
		      const struct blkalign_workload *w, size_t nw,
		      struct model_set *ms)
{
	struct blkalign_model *m;
	int status = 0, rc;

	ms->m = calloc(t->n * nw + 1, sizeof(*ms->m));
	ms->names = calloc(t->n * nw + 1, sizeof(*ms->names));
	if (!ms->m || !ms->names)
		return BLKALIGN_STATUS_FAILED;
	for (size_t i = 0; i < t->n; i++) {
		for (size_t k = 0; k < nw; k++) {
			rc = blkalign_model_run(g, &t->l[i], &w[k], o->kernel,
						&m);
			if (rc) {
				cli_warnx("cannot model '%s' on '%s': %s",
					  w[k].name, t->names[i],
					  rc == -EINVAL ? "impossible geometry "
							  "or workload"
							: strerror(-rc));
				status |= BLKALIGN_STATUS_FAILED;
				continue;
			}
			ms->m[ms->n] = m;
			ms->names[ms->n++] = t->names[i];
		}
	}
	return status;
}

/* The models on stdout, as text or JSON: 0, or the status. */
static int print_models(const struct opts *o, const char *target,
			const struct blkalign_model_geometry *g,
			const struct model_set *ms)
{
	int status = 0;

	if (o->json) {
		if (blkalign_model_write_json(target, g, ms->names, ms->m,
					      ms->n, cli_json_stdout())) {
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		struct blkalign_text_opts t =
			cli_table_text_opts(&o->table, cli_use_color(o->color));

		int rc = blkalign_model_write_text(g, ms->names, ms->m, ms->n,
						   stdout, &t);

		if (rc) {
			cli_warnx("cannot write the text output: %s",
				  strerror(-rc));
			status |= BLKALIGN_STATUS_FAILED;
		}
	}
	if (fflush(stdout) == EOF) {
		cli_warnx("write error: %s", strerror(errno));
		status |= BLKALIGN_STATUS_FAILED;
	}
	return status;
}

/* The layers and their geometry: from the target audited, or --size's. */
static int target_layers(const struct opts *o, const char **target,
			 struct blkalign_ctx **ctxp,
			 struct blkalign_report **repp,
			 struct blkalign_model_geometry *g,
			 struct target_layers *t)
{
	const struct blkalign_device *d;
	int status;

	if (!*target && !o->src.from)
		return one_layer(o, t) ? BLKALIGN_STATUS_FAILED : 0;
	status = open_report(o, ctxp, repp);
	if (status)
		return status;
	d = audit_target(o, *target, *repp, &status);
	if (!d)
		return status;
	if (!*target)
		*target =
			blkalign_device_get_path(d); /* --from: the one saved */
	blkalign_model_geometry_from_device(d, g);
	return device_layers(o, d, t) ? BLKALIGN_STATUS_FAILED : 0;
}

int cmd_model(int argc, char **argv)
{
	struct opts o = {.rw = -1,
			 .pattern = -1,
			 .path = -1,
			 .raid_level = -1,
			 .table = {.kind = BLKALIGN_TEXT_TABLE_MODEL}};
	struct blkalign_model_geometry g = BLKALIGN_MODEL_GEOMETRY_INIT;
	struct blkalign_report *report = NULL;
	struct blkalign_ctx *ctx = NULL;
	struct blkalign_workload *w = NULL;
	struct target_layers t = {0};
	struct model_set ms = {0};
	const char *target = NULL;
	size_t nw = 0;
	int status, rc;

	rc = parse_args(argc, argv, &o, &target);
	if (rc)
		return rc == CLI_DONE ? 0 : rc;
	rc = workloads(&o, &w, &nw);
	if (rc)
		return rc == -ENOMEM ? BLKALIGN_STATUS_FAILED
				     : BLKALIGN_STATUS_USAGE;
	status = target_layers(&o, &target, &ctx, &report, &g, &t);
	if (status)
		goto out;
	apply_overrides(&o, &g);
	blkalign_model_geometry_defaults(&g);
	for (size_t i = 0; i < t.n && o.raid_disks > 0; i++) {
		t.l[i].raid_level = (int32_t)o.raid_level;
		t.l[i].raid_disks = (uint32_t)o.raid_disks;
		t.l[i].raid_chunk = o.chunk;
	}
	status = run_models(&o, &g, &t, w, nw, &ms);
	if (ms.m && ms.names)
		status |= print_models(&o, target, &g, &ms);
out:
	for (size_t i = 0; ms.m && i < ms.n; i++)
		blkalign_model_free((struct blkalign_model *)ms.m[i]);
	free(ms.m);
	free(ms.names);
	free(t.l);
	free(t.names);
	free(w);
	blkalign_report_unref(report);
	blkalign_ctx_unref(ctx);
	return status;
}
