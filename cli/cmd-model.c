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
	      "                                 rand-read-4k, mkfs (default: the first\n"
	      "                                 four and rand-write-4k)\n"
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
	      "\nOutput:\n"
	      " -J, --json                      print the models as JSON\n"
	      " -h, --help                      display this help\n"
	      "\nSizes take the suffixes K, M, G (or KiB, MiB, GiB).\n"
	      "\nExit status: 0 modelled, 4 operational error, 16 usage error.\n"
	      "\nFor more details see blkalign(8) and docs/model.md.\n",
	      out);
}

struct opts {
	bool json;
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

#define MIB_ ((uint64_t)1 << 20)

/* "64K", "1M", "1.2M", "3584" */
static void hsize(uint64_t b, char *buf, size_t len)
{
	if (b >= MIB_ && b % MIB_ == 0)
		snprintf(buf, len, "%" PRIu64 "M", b / MIB_);
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%" PRIu64 "K", b / 1024);
	else if (b >= MIB_)
		snprintf(buf, len, "%.1fM", (double)b / (double)MIB_);
	else if (b >= 1024)
		snprintf(buf, len, "%.1fK", (double)b / 1024.0);
	else
		snprintf(buf, len, "%" PRIu64, b);
}

static void ratio(uint64_t a, uint64_t b, char *buf, size_t len)
{
	if (!a && !b)
		snprintf(buf, len, "-");
	else if (!b && a)
		snprintf(buf, len, "+%" PRIu64, a);
	else
		snprintf(buf, len, "%.1fx", blkalign_model_ratio(a, b));
}

static void print_sizes(const struct blkalign_model_cost *c, FILE *out)
{
	char s[24];

	for (size_t i = 0; i < c->nsizes && i < 4; i++) {
		hsize(c->sizes[i].bytes, s, sizeof(s));
		fprintf(out, "%s%s x%" PRIu64, i ? ", " : "", s,
			c->sizes[i].count);
	}
	if (c->nsizes > 4 || c->sizes_other)
		fputs(", ...", out);
}

static void print_row(const char *label, const char *layout,
		      const struct blkalign_model_cost *c, bool raid, FILE *out)
{
	char mx[24], avg[24];

	hsize(c->request_max, mx, sizeof(mx));
	hsize(c->requests ? c->request_bytes / c->requests : 0, avg,
	      sizeof(avg));
	fprintf(out,
		"  %-20s %-8s %10" PRIu64 " %7s %7s %12" PRIu64 " %8" PRIu64,
		label, layout, c->requests, mx, avg, c->physical_sectors,
		c->rmw);
	if (raid)
		fprintf(out, " %8" PRIu64 " %8" PRIu64, c->raid_reads,
			c->raid_writes);
	fputs("  ", out);
	print_sizes(c, out);
	fputc('\n', out);
}

static void print_layer_head(const char *name, const struct blkalign_model *m,
			     const struct blkalign_model_geometry *g, FILE *out)
{
	fprintf(out,
		"%s: start %" PRIu64 " (sector %" PRIu64 "), size %" PRIu64
		", soft block %u\n",
		name, m->actual.start, m->actual.start / 512, m->actual.size,
		m->cost.soft_block_size);
	fprintf(out,
		"  aligned: start %" PRIu64 " (sector %" PRIu64
		"), size %" PRIu64 ", soft block %u\n",
		m->aligned.start, m->aligned.start / 512, m->aligned.size,
		m->cost_aligned.soft_block_size);
	fprintf(out,
		"  kernel %s; logical %u, physical %u, alignment offset "
		"%u; %u segments of %u, %u KiB per request, virt boundary "
		"%#" PRIx64 ", page %u, readahead %u KiB",
		blkalign_kernel_name(m->kernel), g->logical_sector_size,
		g->physical_sector_size, g->alignment_offset, g->max_segments,
		g->max_segment_size, g->max_sectors_kb, g->virt_boundary_mask,
		g->page_size, g->read_ahead_kb);
	if (m->actual.raid_disks)
		fprintf(out, "; md raid%d, %u disks, chunk %" PRIu64,
			m->actual.raid_level, m->actual.raid_disks,
			m->actual.raid_chunk);
	fputs("\n\n", out);
	fprintf(out, "  %-20s %-8s %10s %7s %7s %12s %8s", "WORKLOAD", "LAYOUT",
		"REQUESTS", "MAX", "AVG", "PHYS-SECTORS", "RMW");
	if (m->actual.raid_disks)
		fprintf(out, " %8s %8s", "RAID-RD", "RAID-WR");
	fputs("  SIZES\n", out);
}

static void print_model(const struct blkalign_model *m, FILE *out)
{
	const struct blkalign_model_cost *a = &m->cost, *b = &m->cost_aligned;
	const struct blkalign_workload *w = &m->workload;
	bool raid = m->actual.raid_disks != 0;
	char r1[24], r2[24], r3[24], r4[24], r5[24], desc[64], bs[24], tot[24];

	hsize(w->io_size, bs, sizeof(bs));
	hsize(w->total, tot, sizeof(tot));
	snprintf(desc, sizeof(desc), " %s %s %s", bs,
		 w->pattern == BLKALIGN_IO_RANDOM ? "rand" : "seq",
		 w->path == BLKALIGN_IO_DIRECT ? "direct" : "buffered");
	print_row(w->name ? w->name : "custom", "actual", a, raid, out);
	print_row(desc, "aligned", b, raid, out);
	ratio(a->requests, b->requests, r1, sizeof(r1));
	ratio(a->physical_sectors, b->physical_sectors, r2, sizeof(r2));
	ratio(a->rmw, b->rmw, r3, sizeof(r3));
	ratio(a->raid_reads, b->raid_reads, r4, sizeof(r4));
	ratio(a->raid_writes, b->raid_writes, r5, sizeof(r5));
	snprintf(desc, sizeof(desc), " %s %s", tot,
		 w->dir == BLKALIGN_IO_WRITE ? "written" : "read");
	fprintf(out, "  %-20s %-8s %10s %7s %7s %12s %8s", desc, "ratio", r1,
		"", "", r2, r3);
	if (raid)
		fprintf(out, " %8s %8s", r4, r5);
	fputc('\n', out);
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
	size_t want = 0;

	t->l = calloc(d->nlayers + 1, sizeof(*t->l));
	t->names = calloc(d->nlayers + 1, sizeof(*t->names));
	if (!t->l || !t->names)
		return -ENOMEM;
	for (size_t i = 1; i < d->nlayers; i++) {
		const struct blkalign_layer *l = &d->layers[i];

		if ((l->kind != BLKALIGN_LAYER_PARTITION &&
		     l->kind != BLKALIGN_LAYER_BSD) ||
		    l->extended || !l->size)
			continue;
		if (o->partition && l->number != o->partition)
			continue;
		if (blkalign_model_layer_from_device(d, i, &t->l[t->n]))
			return -EINVAL;
		t->names[t->n++] = l->name;
		want++;
	}
	if (o->partition && !want) {
		cli_warnx("'%s' has no partition %" PRId64, d->path,
			  o->partition);
		return -ENOENT;
	}
	if (!t->n) {
		if (blkalign_model_layer_from_device(d, 0, &t->l[0]))
			return -EINVAL;
		t->names[0] = d->layers[0].name;
		t->n = 1;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'J'},
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
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	struct blkalign_model_geometry *v = &o->over;
	uint64_t u;
	int c;

	while ((c = getopt_long(argc, argv, "Jb:h", longopts, NULL)) != -1) {
		int rc = 0;

		switch (c) {
		case 'J':
			o->json = true;
			break;
		case OPT_FROM:
			o->src.from = optarg;
			break;
		case OPT_SYSROOT:
			o->src.sysroot = optarg;
			break;
		case OPT_MAX_SEGS:
			rc = u32_arg("max segments", optarg, &v->max_segments);
			break;
		case OPT_MAX_KB:
			rc = u32_arg("max sectors kb", optarg,
				     &v->max_sectors_kb);
			break;
		case OPT_MAX_SEG_SIZE:
			rc = u32_arg("max segment size", optarg,
				     &v->max_segment_size);
			break;
		case OPT_VIRT: {
			/* 0 is a valid mask (no boundary): 4095 or 0xfff */
			char *end;

			errno = 0;
			u = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || *optarg == '-') {
				cli_warnx("invalid virt boundary mask '%s'",
					  optarg);
				return -EINVAL;
			}
			v->virt_boundary_mask = u;
			o->virt_set = true;
			break;
		}
		case OPT_RA:
			rc = u32_arg("read ahead kb", optarg,
				     &v->read_ahead_kb);
			break;
		case OPT_WORKLOAD:
			o->workloads = optarg;
			break;
		case OPT_RW:
			rc = pick("direction", optarg, "read", "write", &o->rw);
			break;
		case OPT_BS:
			rc = size_arg("I/O size", optarg, &o->bs);
			if (!rc && !o->bs) {
				cli_warnx("invalid I/O size '%s'", optarg);
				rc = -EINVAL;
			}
			break;
		case OPT_PATTERN:
			rc = pick("pattern", optarg, "seq", "rand",
				  &o->pattern);
			break;
		case OPT_PATH:
			rc = pick("path", optarg, "buffered", "direct",
				  &o->path);
			break;
		case OPT_TOTAL:
			rc = size_arg("total", optarg, &o->total);
			break;
		case OPT_KERNEL:
			if (blkalign_kernel_parse(optarg, &o->kernel)) {
				cli_warnx("invalid kernel '%s': 'current' or "
					  "'pre-4.11'",
					  optarg);
				return -EINVAL;
			}
			break;
		case OPT_PARTITION:
			if (cli_parse_int(optarg, 1, 1 << 20, &o->partition)) {
				cli_warnx("invalid partition number '%s'",
					  optarg);
				return -EINVAL;
			}
			break;
		case OPT_START:
			rc = size_arg("start", optarg, &o->start);
			o->start_set = true;
			break;
		case OPT_SIZE:
			rc = size_arg("size", optarg, &o->size);
			o->size_set = true;
			break;
		case OPT_RAID_LEVEL:
			if (cli_parse_int(optarg, 0, 10, &o->raid_level)) {
				cli_warnx("invalid RAID level '%s'", optarg);
				return -EINVAL;
			}
			break;
		case OPT_RAID_DISKS:
			if (cli_parse_int(optarg, 2, 4096, &o->raid_disks)) {
				cli_warnx("invalid number of RAID disks '%s'",
					  optarg);
				return -EINVAL;
			}
			break;
		case OPT_CHUNK:
			rc = size_arg("chunk size", optarg, &o->chunk);
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			rc = cli_topo_opt(&o->topo, c, optarg);
			if (rc > 0) {
				rc = 0;
				break;
			}
			if (rc == 0)
				fprintf(stderr,
					"Try '" PROGRAM " model --help' "
					"for more information.\n");
			return -EINVAL;
		}
		if (rc)
			return rc;
	}
	/* The image options also override the target's own geometry. */
	v->logical_sector_size = o->topo.geom.logical_sector_size;
	v->physical_sector_size = o->topo.geom.physical_sector_size;
	v->minimum_io_size = o->topo.geom.minimum_io_size;
	v->optimal_io_size = o->topo.geom.optimal_io_size;
	v->page_size = o->topo.page;
	return 0;
}

int cmd_model(int argc, char **argv)
{
	struct opts o = {.rw = -1, .pattern = -1, .path = -1, .raid_level = -1};
	struct blkalign_model_geometry g = {.size = sizeof(g)};
	struct blkalign_report *report = NULL;
	struct blkalign_ctx *ctx = NULL;
	struct blkalign_workload *w = NULL;
	struct blkalign_model **models = NULL;
	struct target_layers t = {0};
	const char **names = NULL;
	const char *target = NULL;
	size_t nw = 0, nm = 0;
	int status = 0, rc;

	rc = parse_args(argc, argv, &o);
	if (rc > 0)
		return 0;
	if (rc)
		return BLKALIGN_STATUS_USAGE;
	if (optind < argc)
		target = argv[optind++];
	if (optind < argc) {
		cli_warnx("one target at a time: '%s'", argv[optind]);
		return BLKALIGN_STATUS_USAGE;
	}
	if (cli_source_usage(&o.src, &o.topo))
		return BLKALIGN_STATUS_USAGE;
	if (!target && !o.size_set && !o.src.from) {
		cli_warnx("no target: give an image or device, or --size");
		fprintf(stderr, "Try '" PROGRAM " model --help' for more "
				"information.\n");
		return BLKALIGN_STATUS_USAGE;
	}
	if ((o.raid_level >= 0) + (o.raid_disks > 0) + (o.chunk > 0) != 0 &&
	    (o.raid_level >= 0) + (o.raid_disks > 0) + (o.chunk > 0) != 3) {
		cli_warnx("--raid-level, --raid-disks and --chunk go together");
		return BLKALIGN_STATUS_USAGE;
	}
	rc = workloads(&o, &w, &nw);
	if (rc)
		return rc == -ENOMEM ? BLKALIGN_STATUS_FAILED
				     : BLKALIGN_STATUS_USAGE;

	if (target || o.src.from) {
		const struct blkalign_device *d;

		ctx = blkalign_ctx_new();
		if (!ctx) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		blkalign_ctx_set_log_fn(ctx, cli_log_to_stderr, NULL);
		if (cli_topo_apply(&o.topo, ctx)) {
			status = BLKALIGN_STATUS_USAGE;
			goto out;
		}
		if (o.src.sysroot && cli_set_sysroot(ctx, o.src.sysroot)) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		report = blkalign_report_new(ctx);
		if (!report) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		rc = cli_source_check(report, &o.src, target);
		if (o.src.from && blkalign_report_ndevices(report) > 1) {
			cli_warnx("'%s' holds %zu devices: name the one to "
				  "model",
				  o.src.from, blkalign_report_ndevices(report));
			status = BLKALIGN_STATUS_USAGE;
			goto out;
		}
		if (o.src.from && rc) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		if (rc || !blkalign_report_ndevices(report)) {
			if (rc == -ENOTBLK)
				cli_warnx("'%s' is neither an image file nor a "
					  "block device",
					  target);
			else
				cli_warnx("cannot open '%s': %s", target,
					  strerror(rc ? -rc : ENOENT));
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		d = blkalign_report_device(report, 0);
		for (size_t k = 0; k < d->nproblems; k++)
			cli_warnx("%s: %s", d->path, d->problems[k]);
		if (d->failed) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		if (!target)
			target = d->path; /* --from: the one device saved */
		blkalign_model_geometry_from_device(d, &g);
		if (o.start_set || o.size_set) {
			t.l = calloc(1, sizeof(*t.l));
			t.names = calloc(1, sizeof(*t.names));
			if (!t.l || !t.names) {
				status = BLKALIGN_STATUS_FAILED;
				goto out;
			}
			blkalign_model_layer_from_device(d, 0, &t.l[0]);
			t.l[0].start = o.start;
			t.l[0].size = o.size_set ? o.size
						 : (d->size > o.start
							    ? d->size - o.start
							    : 0);
			t.names[0] = "layer";
			t.n = 1;
		} else if (pick_layers(&o, d, &t)) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
	} else {
		t.l = calloc(1, sizeof(*t.l));
		t.names = calloc(1, sizeof(*t.names));
		if (!t.l || !t.names) {
			status = BLKALIGN_STATUS_FAILED;
			goto out;
		}
		t.l[0].start = o.start;
		t.l[0].size = o.size;
		t.names[0] = "layer";
		t.n = 1;
	}
	apply_overrides(&o, &g);
	blkalign_model_geometry_defaults(&g);
	for (size_t i = 0; i < t.n; i++) {
		if (o.raid_disks > 0) {
			t.l[i].raid_level = (int32_t)o.raid_level;
			t.l[i].raid_disks = (uint32_t)o.raid_disks;
			t.l[i].raid_chunk = o.chunk;
		}
	}

	models = calloc(t.n * nw + 1, sizeof(*models));
	names = calloc(t.n * nw + 1, sizeof(*names));
	if (!models || !names) {
		status = BLKALIGN_STATUS_FAILED;
		goto out;
	}
	for (size_t i = 0; i < t.n; i++) {
		for (size_t k = 0; k < nw; k++) {
			rc = blkalign_model_run(&g, &t.l[i], &w[k], o.kernel,
						&models[nm]);
			if (rc) {
				cli_warnx("cannot model '%s' on '%s': %s",
					  w[k].name, t.names[i],
					  rc == -EINVAL ? "impossible geometry "
							  "or workload"
							: strerror(-rc));
				status |= BLKALIGN_STATUS_FAILED;
				continue;
			}
			names[nm++] = t.names[i];
		}
	}
	if (o.json) {
		if (blkalign_model_write_json(
			    target, &g, names,
			    (const struct blkalign_model *const *)models, nm,
			    stdout)) {
			cli_warnx("cannot write the JSON output");
			status |= BLKALIGN_STATUS_FAILED;
		}
	} else {
		for (size_t i = 0; i < nm; i++) {
			bool head = i == 0 || names[i] != names[i - 1];

			if (head) {
				if (i)
					fputc('\n', stdout);
				print_layer_head(names[i], models[i], &g,
						 stdout);
			}
			print_model(models[i], stdout);
		}
	}
	if (fflush(stdout) == EOF) {
		cli_warnx("write error: %s", strerror(errno));
		status |= BLKALIGN_STATUS_FAILED;
	}
out:
	for (size_t i = 0; models && i < nm; i++)
		blkalign_model_free(models[i]);
	free(models);
	free(names);
	free(t.l);
	free(t.names);
	free(w);
	blkalign_report_unref(report);
	blkalign_ctx_unref(ctx);
	return status;
}
