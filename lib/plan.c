/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.c - the realignment planner behind `blkalign plan`: for each
 * partition of an audited disk, where it should start and how large it
 * should be, as pure arithmetic over the layers and the topology, then
 * the rules re-run on the planned layout to prove the findings go away.
 *
 * A start only ever moves up (moving down could overlap the previous
 * partition or its EBR); the end never passes the next partition (minus
 * one sector for its EBR when logical), the extended container or the
 * GPT's last usable LBA; the size never drops below what the contents
 * use (filesystem size, md data area, or the whole partition when not
 * known).  docs/plan.md has the decision table.  Nothing is written.
 */
#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"

void ba_plan_geom_from(const struct blkalign_topology *t,
		       struct ba_plan_geom *g)
{
	memset(g, 0, sizeof(*g));
	g->ao = t->alignment_offset.value > 0
			? (uint64_t)t->alignment_offset.value
			: 0;
	g->pss = (uint64_t)t->physical_sector_size.value;
	g->min_io = (uint64_t)t->minimum_io_size.value;
	g->opt_io = t->optimal_io_size.value > 0
			    ? (uint64_t)t->optimal_io_size.value
			    : 0;
	g->page = (uint64_t)t->page_size.value;
	g->grain = ba_grain(g->pss, g->min_io, g->opt_io);
}

/* No start-physical, start-io-min or start-io-opt finding there. */
bool ba_plan_start_on_grid(const struct ba_plan_geom *g, uint64_t start)
{
	if (ba_off_grid(start, g->ao, g->pss))
		return false;
	if (g->min_io > g->pss && ba_off_grid(start, g->ao, g->min_io))
		return false;
	if (g->opt_io && g->opt_io != g->min_io &&
	    ba_off_grid(start, g->ao, g->opt_io))
		return false;
	return true;
}

static uint64_t size_gran(const struct ba_plan_geom *g)
{
	uint64_t sg = ba_lcm64(g->page ? g->page : 4096, g->pss ? g->pss : 512);

	return sg ? sg : 4096;
}

/* Neither size-physical nor soft-block-size. */
static bool size_on_grid(const struct ba_plan_geom *g, uint64_t start,
			 uint64_t size)
{
	return !ba_off_grid(start + size, g->ao, g->pss) &&
	       size % size_gran(g) == 0;
}

/*
 * The size at @ns: end on the grain at or before the old end, else a
 * multiple of the size granularity before it, else grow past it (on the
 * grain when there is room, else on the size granularity).  An end on
 * the grain is taken only when the size is then a multiple of the size
 * granularity too (it is not when the start stays off the grain).  False when
 * the used data cannot fit before the limit.
 */
static bool fit(const struct ba_plan_geom *g, const struct ba_plan_input *in,
		uint64_t ns, struct ba_plan_result *out)
{
	uint64_t sg = size_gran(g), end0 = in->start + in->size, e, s, need;

	if (ns >= in->limit) {
		out->why = BA_WHY_START_PAST_LIMIT;
		return false;
	}
	if (end0 > ns) {
		e = ba_round_down_grid(end0, g->ao, g->grain);
		if (e > ns && e - ns >= in->used && (e - ns) % sg == 0) {
			out->new_size = e - ns;
			return true;
		}
		s = (end0 - ns) / sg * sg;
		if (s > 0 && s >= in->used) {
			out->new_size = s;
			return true;
		}
	}
	need = (in->used ? in->used : 1);
	need = (need + sg - 1) / sg * sg;
	e = ba_round_up_grid(ns + need, g->ao, g->grain);
	if (e <= in->limit && (e - ns) % sg == 0) {
		out->new_size = e - ns;
	} else if (ns + need <= in->limit) {
		out->new_size = need;
	} else {
		out->why = BA_WHY_NO_ROOM;
		out->room = (in->limit - ns) / sg * sg;
		return false;
	}
	out->grows = ns + out->new_size > end0;
	return true;
}

/**
 * ba_plan_one: the decision for one partition (docs/plan.md).  Pure.
 */
void ba_plan_one(const struct ba_plan_geom *g, const struct ba_plan_input *in,
		 struct ba_plan_result *out)
{
	bool start_ok = ba_plan_start_on_grid(g, in->start);
	bool mib_ok = ba_off_grid(in->start, g->ao, MIB) == 0;
	bool size_ok = size_on_grid(g, in->start, in->size);
	uint64_t lowest = in->min_start > in->start ? in->min_start : in->start;
	uint64_t ns;

	memset(out, 0, sizeof(*out));
	out->new_start = in->start;
	out->new_size = in->size;
	if (start_ok && size_ok) {
		struct ba_plan_result opt = *out;

		if (mib_ok) {
			out->why = BA_WHY_ALIGNED;
			return;
		}
		/* Only off 1 MiB: say where it would go, if it fits. */
		out->why = BA_WHY_MIB_ONLY;
		ns = ba_round_up_grid(lowest, g->ao, g->grain);
		if (fit(g, in, ns, &opt)) {
			out->action = BLKALIGN_PLAN_OPTIONAL;
			out->new_start = ns;
			out->new_size = opt.new_size;
			out->grows = opt.grows;
		}
		return;
	}
	ns = start_ok ? in->start : ba_round_up_grid(lowest, g->ao, g->grain);
	out->why = start_ok ? BA_WHY_SIZE : BA_WHY_START;
	if (!fit(g, in, ns, out) && !start_ok && in->low) {
		/* No room on the right: the grain point below, if free. */
		struct ba_plan_result l = *out;
		uint64_t nl = ba_round_down_grid(in->start, g->ao, g->grain);

		if (nl >= in->low && nl > 0 && nl < in->start &&
		    fit(g, in, nl, &l)) {
			*out = l;
			out->why = BA_WHY_START;
			out->left = true;
			out->new_start = nl;
			out->action = BLKALIGN_PLAN_MOVE;
			return;
		}
	}
	if (out->why == BA_WHY_NO_ROOM || out->why == BA_WHY_START_PAST_LIMIT) {
		out->action = BLKALIGN_PLAN_IMPOSSIBLE;
		out->new_start = in->start;
		out->new_size = in->size;
		return;
	}
	out->new_start = ns;
	out->action =
		ns != in->start ? BLKALIGN_PLAN_MOVE : BLKALIGN_PLAN_RESIZE;
}

static bool is_part(const struct blkalign_layer *l)
{
	return l->kind == BLKALIGN_LAYER_PARTITION;
}

/*
 * Where the end of partition @i may go: the next partition with the same
 * parent (BA_PLAN_EBR_ROOM less for a logical one: its EBR and the gap
 * libfdisk wants), the extended container's end, or @usable_end for the top
 * level.  Returns the index of the next partition, or -1.
 * (The partition's own start only moves up, the next one's too: an end
 * before the next one's old start stays before its new start.)
 */
int ba_plan_limit(const struct blkalign_device *d, size_t i,
		  uint64_t usable_end, uint64_t *limit)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t lim;
	int next = -1;

	if (l->parent > 0 && (size_t)l->parent < d->nlayers)
		lim = d->layers[l->parent].start + d->layers[l->parent].size;
	else
		lim = usable_end;
	for (size_t j = 1; j < d->nlayers; j++) {
		const struct blkalign_layer *o = &d->layers[j];
		uint64_t s;

		if (j == i || !is_part(o) || o->parent != l->parent ||
		    o->start <= l->start)
			continue;
		s = o->start;
		if (o->logical)
			s = s > BA_PLAN_EBR_ROOM ? s - BA_PLAN_EBR_ROOM : 0;
		if (s < lim) {
			lim = s;
			next = (int)j;
		}
	}
	*limit = lim;
	return next;
}

/*
 * The lowest start partition @i may move left to: the end of the
 * partition before it (same parent), at least @usable_start.  0 (never)
 * for logical partitions: their EBR sits before them.
 */
uint64_t ba_plan_low(const struct blkalign_device *d, size_t i,
		     uint64_t usable_start)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t low = usable_start;

	if (l->logical || l->parent > 0)
		return 0;
	for (size_t j = 1; j < d->nlayers; j++) {
		const struct blkalign_layer *o = &d->layers[j];

		if (j == i || !is_part(o) || o->parent != l->parent ||
		    o->start >= l->start)
			continue;
		if (o->start + o->size > low)
			low = o->start + o->size;
	}
	return low ? low : 1;
}

/*
 * The lowest start a moved logical partition may take: the end of the
 * logical partition before it plus the EBR room; 0 for others.
 */
uint64_t ba_plan_min_start(const struct blkalign_device *d, size_t i)
{
	const struct blkalign_layer *l = &d->layers[i];
	uint64_t prev_end = 0;

	if (!l->logical)
		return 0;
	for (size_t j = 1; j < d->nlayers; j++) {
		const struct blkalign_layer *o = &d->layers[j];

		if (j == i || !is_part(o) || !o->logical ||
		    o->parent != l->parent || o->start >= l->start)
			continue;
		if (o->start + o->size > prev_end)
			prev_end = o->start + o->size;
	}
	return prev_end ? prev_end + BA_PLAN_EBR_ROOM : 0;
}

/* The layer directly inside partition @i, or -1. */
static int content_of(const struct blkalign_device *d, size_t i)
{
	for (size_t j = i + 1; j < d->nlayers; j++)
		if (d->layers[j].parent == (int)i &&
		    d->layers[j].kind >= BLKALIGN_LAYER_MD)
			return (int)j;
	return -1;
}

/*
 * Bytes from the partition's start its contents need: filesystems their
 * own size, md 1.1/1.2 data_offset + data_size (0.90/1.0 keep their
 * superblock at the end: the whole member), others the whole partition.
 */
static uint64_t used_bytes(const struct blkalign_device *d, size_t i,
			   bool *known, const char **content)
{
	const struct blkalign_layer *l = &d->layers[i];
	int c = content_of(d, i);
	const struct blkalign_layer *cl;
	uint64_t u = l->size;

	*known = false;
	*content = NULL;
	if (c < 0)
		return u;
	cl = &d->layers[c];
	*content = cl->type;
	switch (cl->kind) {
	case BLKALIGN_LAYER_FILESYSTEM:
		if (cl->used_size) {
			u = cl->start - l->start + cl->used_size;
			*known = true;
		}
		break;
	case BLKALIGN_LAYER_MD:
		/* 0.90 and 1.0 keep the superblock at the end: all of it */
		*content = "md";
		*known = true;
		if (cl->version && (!strcmp(cl->version, "1.1") ||
				    !strcmp(cl->version, "1.2")))
			u = cl->start + cl->size - l->start;
		break;
	default:
		break;
	}
	return u; /* may pass the partition's end: build() refuses that */
}

static bool plan_code(const char *code)
{
	static const char *const codes[] = {
		"start-physical",    "start-io-min",
		"start-io-opt",	     "raid-chunk",
		"raid-stripe",	     "size-physical",
		"soft-block-size",   "partition-past-end",
		"partition-overlap", "partition-outside-container",
	};

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (!strcmp(code, codes[i]))
			return true;
	return false;
}

static size_t count_findings(const struct blkalign_finding *f, size_t n,
			     int layer)
{
	size_t c = 0;

	for (size_t k = 0; k < n; k++)
		if (f[k].layer == layer && f[k].severity > BLKALIGN_INFO &&
		    plan_code(f[k].code))
			c++;
	return c;
}

/* Re-run the rules on the disk and partition layers as planned. */
static int recheck(struct ba_plan *p, const struct blkalign_device *d)
{
	struct ba_device tmp;
	int *map;
	int rc = 0;

	map = calloc(d->nlayers, sizeof(*map));
	if (!map)
		return -ENOMEM;
	memset(&tmp, 0, sizeof(tmp));
	tmp.pub = *d;
	for (size_t i = 0; i < d->nlayers; i++) {
		struct blkalign_layer *l;

		map[i] = -1;
		if (i > 0 && !is_part(&d->layers[i]))
			continue;
		l = ba_device_add_layer(&tmp);
		if (!l) {
			rc = -ENOMEM;
			goto out;
		}
		*l = d->layers[i];
		l->parent = l->parent >= 0 ? map[l->parent] : -1;
		map[i] = (int)(l - tmp.layers);
	}
	for (size_t k = 0; k < p->pub.nparts; k++) {
		struct blkalign_plan_part *pp = &p->parts[k];
		struct blkalign_layer *l = &tmp.layers[map[pp->layer]];

		l->start = pp->new_start;
		l->size = pp->new_size;
	}
	ba_rules_run(&tmp);
	p->pub.remaining = 0;
	for (size_t k = 0; k < p->pub.nparts; k++) {
		struct blkalign_plan_part *pp = &p->parts[k];

		pp->findings_after = count_findings(tmp.findings, tmp.nfindings,
						    map[pp->layer]);
		p->pub.remaining += pp->findings_after;
	}
out:
	free(tmp.layers);
	free(tmp.findings);
	free(tmp.problems);
	ba_pool_release(&tmp.pool);
	free(map);
	return rc;
}

/* GPT last usable LBA + 1 in bytes; the label id; partition uuids/names. */
static void read_table(struct ba_plan *p, const struct blkalign_device *d)
{
	uint64_t lss = (uint64_t)d->topology.logical_sector_size.value;
	struct ba_gpt_check chk;
	blkid_partlist ls;
	blkid_parttable tab;
	blkid_probe pr = NULL;
	struct ba_io io;
	int fd;

	p->pub.usable_end = d->size;
	p->pub.usable_start = lss;
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (d->scheme && !strcmp(d->scheme, "gpt")) {
		ba_io_init_fd(&io, fd, d->size);
		if (ba_gpt_check(&io, (uint32_t)lss, &chk) == 0) {
			const struct ba_gpt_header *h =
				chk.primary.state == BA_GPT_OK	? &chk.primary
				: chk.backup.state == BA_GPT_OK ? &chk.backup
								: NULL;
			if (h && (h->last_usable_lba + 1) * lss <= d->size)
				p->pub.usable_end =
					(h->last_usable_lba + 1) * lss;
			if (h && h->first_usable_lba * lss <= d->size)
				p->pub.usable_start = h->first_usable_lba * lss;
		}
	}
	pr = blkid_new_probe();
	if (!pr || blkid_probe_set_device(pr, fd, 0, (blkid_loff_t)d->size))
		goto out;
	blkid_probe_set_sectorsize(pr, (unsigned int)lss);
	blkid_probe_enable_superblocks(pr, 0);
	blkid_probe_enable_partitions(pr, 1);
	ls = blkid_probe_get_partitions(pr);
	if (!ls)
		goto out;
	tab = blkid_partlist_get_table(ls);
	if (tab && blkid_parttable_get_id(tab))
		p->pub.label_id =
			ba_pool_strdup(&p->pool, blkid_parttable_get_id(tab));
	for (int k = 0; k < blkid_partlist_numof_partitions(ls); k++) {
		blkid_partition par = blkid_partlist_get_partition(ls, k);
		int no = blkid_partition_get_partno(par);

		for (size_t m = 0; m < p->pub.nparts; m++) {
			struct blkalign_plan_part *pp = &p->parts[m];
			const char *s;

			if (pp->number != no)
				continue;
			s = blkid_partition_get_uuid(par);
			if (s && *s)
				pp->uuid = ba_pool_strdup(&p->pool, s);
			s = blkid_partition_get_name(par);
			if (s && *s)
				pp->part_name = ba_pool_strdup(&p->pool, s);
		}
	}
out:
	blkid_free_probe(pr);
	close(fd);
}

static const char *dev_of(struct ba_plan *p, const struct blkalign_device *d,
			  const struct blkalign_layer *l)
{
	if (d->is_block_device)
		return ba_pool_printf(&p->pool, "/dev/%s", l->name);
	return ba_pool_printf(&p->pool, "<the loop device of '%s'>p%d", d->path,
			      l->number);
}

static void add_cmd(struct blkalign_plan_part *pp, const char *cmd)
{
	if (cmd && pp->ncommands < BLKALIGN_PLAN_NCOMMANDS)
		pp->commands[pp->ncommands++] = cmd;
}

/* Why it is impossible and what to do instead. */
static void explain_impossible(struct ba_plan *p,
			       const struct blkalign_device *d,
			       struct blkalign_plan_part *pp,
			       const struct ba_plan_result *res,
			       uint64_t planned_start, int next)
{
	const struct blkalign_layer *l = &d->layers[pp->layer];
	uint64_t lss = (uint64_t)d->topology.logical_sector_size.value;
	const char *nname = next >= 0 ? d->layers[next].name : NULL;
	const char *dev = dev_of(p, d, l);
	int c = content_of(d, (size_t)pp->layer);
	uint64_t fs_off = c >= 0 ? d->layers[c].start - l->start : 0;
	const char * or ;

	if (res->why == BA_WHY_START_PAST_LIMIT) {
		pp->reason = ba_pool_printf(
			&p->pool,
			"the aligned start (sector %" PRIu64 ") is past the "
			"room it has (up to byte %" PRIu64 ")",
			planned_start / lss, pp->limit);
	} else {
		pp->reason = ba_pool_printf(
			&p->pool,
			"%s sector %" PRIu64 ", %s needs %" PRIu64
			" bytes but only %" PRIu64 " fit before %s",
			planned_start == l->start ? "kept at" : "moved to",
			planned_start / lss,
			pp->used_known
				? "the data in use"
				: "the whole partition (contents not sized)",
			pp->used_size, res->room,
			!nname ? "the end of the usable space"
			: d->layers[next].logical
				? ba_pool_printf(&p->pool,
						 "'%s' (less 1 MiB "
						 "for its EBR)",
						 nname)
				: ba_pool_printf(&p->pool, "'%s'", nname));
	}
	if (res->why == BA_WHY_NO_ROOM && res->room > fs_off && pp->content &&
	    c >= 0 && d->layers[c].kind == BLKALIGN_LAYER_FILESYSTEM) {
		uint64_t unit = d->layers[c].unit ? d->layers[c].unit : 4096;
		uint64_t fs = (res->room - fs_off) / unit * unit;

		if (!strncmp(pp->content, "ext", 3))
			add_cmd(pp,
				ba_pool_printf(
					&p->pool,
					"shrink the filesystem first: e2fsck -f %s && "
					"resize2fs %s %" PRIu64 "K",
					dev, dev, fs / 1024));
		else if (!strcmp(pp->content, "btrfs"))
			add_cmd(pp,
				ba_pool_printf(
					&p->pool,
					"shrink the filesystem first: btrfs filesystem "
					"resize %" PRIu64 " <its mount point>",
					fs));
		else if (!strcmp(pp->content, "xfs"))
			add_cmd(pp, "xfs cannot shrink: back up, recreate "
				    "the filesystem on the planned partition "
				    "and restore");
		else
			add_cmd(pp,
				ba_pool_printf(
					&p->pool,
					"shrink the %s on %s to at most %" PRIu64
					" bytes first",
					pp->content, dev, fs));
	}
	or = pp->ncommands ? "or " : "";
	if (nname)
		add_cmd(pp,
			ba_pool_printf(
				&p->pool,
				"%smove '%s' right first (it starts at sector %" PRIu64
				"), then run blkalign plan again",
				or, nname, d->layers[next].start / lss));
	else
		add_cmd(pp, ba_pool_printf(&p->pool, "%sgrow the %s first", or,
					   l->logical ? "extended partition"
						      : "disk"));
}

static const char *why_text(struct ba_plan *p, const struct ba_plan_geom *g,
			    const struct ba_plan_result *r)
{
	const char *grow =
		r->grows ? "; grows into the free space after it" : "";

	switch (r->why) {
	case BA_WHY_ALIGNED:
		return NULL;
	case BA_WHY_MIB_ONLY:
		return r->action == BLKALIGN_PLAN_OPTIONAL
			       ? ba_pool_printf(
					 &p->pool,
					 "on the device's grid, only off "
					 "1 MiB: moving is optional%s",
					 grow)
			       : "on the device's grid, only off 1 MiB; no room "
				 "to move it";
	case BA_WHY_START:
		if (r->left)
			return ba_pool_printf(
				&p->pool,
				"start off the device's grid, no "
				"room after it: moved down to the "
				"%" PRIu64 "-byte grain",
				g->grain);
		return ba_pool_printf(&p->pool,
				      "start off the device's grid: moved up "
				      "to the %" PRIu64 "-byte grain%s",
				      g->grain, grow);
	case BA_WHY_SIZE:
		return ba_pool_printf(&p->pool,
				      "size not a multiple of %" PRIu64
				      " bytes (page and physical sector)%s",
				      size_gran(g), grow);
	default:
		return NULL;
	}
}

static int build(struct ba_plan *p, const struct blkalign_device *d)
{
	struct ba_plan_geom g;
	size_t n = 0;

	ba_plan_geom_from(&d->topology, &g);
	p->pub.device = d;
	p->pub.grain = g.grain;
	p->pub.size_granularity = size_gran(&g);
	for (size_t i = 1; i < d->nlayers; i++)
		if (is_part(&d->layers[i]) && !d->layers[i].extended)
			n++;
	p->parts = calloc(n ? n : 1, sizeof(*p->parts));
	if (!p->parts)
		return -ENOMEM;
	for (size_t i = 1; i < d->nlayers; i++) {
		const struct blkalign_layer *l = &d->layers[i];
		struct blkalign_plan_part *pp;

		if (!is_part(l) || l->extended)
			continue;
		pp = &p->parts[p->pub.nparts++];
		pp->layer = (int)i;
		pp->name = l->name;
		pp->number = l->number;
	}
	read_table(p, d);
	for (size_t k = 0; k < p->pub.nparts; k++) {
		struct blkalign_plan_part *pp = &p->parts[k];
		const struct blkalign_layer *l = &d->layers[pp->layer];
		struct ba_plan_input in;
		struct ba_plan_result res;
		int next;

		next = ba_plan_limit(d, (size_t)pp->layer, p->pub.usable_end,
				     &pp->limit);
		pp->old_start = l->start;
		pp->old_size = l->size;
		pp->used_size = used_bytes(d, (size_t)pp->layer,
					   &pp->used_known, &pp->content);
		if (pp->used_size > l->size) {
			/* The contents claim more than the partition holds:
			 * truncated or damaged.  Never move that. */
			pp->action = BLKALIGN_PLAN_IMPOSSIBLE;
			pp->new_start = pp->old_start;
			pp->new_size = pp->old_size;
			pp->reason = ba_pool_printf(
				&p->pool,
				"its %s (%" PRIu64 " bytes) is larger than the "
				"partition (%" PRIu64 " bytes): check it "
				"(fsck) before moving anything",
				pp->content ? pp->content : "contents",
				pp->used_size, l->size);
			pp->findings_before = count_findings(
				d->findings, d->nfindings, pp->layer);
			continue;
		}
		in.start = l->start;
		in.size = l->size;
		in.used = pp->used_size;
		in.limit = pp->limit;
		in.min_start = ba_plan_min_start(d, (size_t)pp->layer);
		in.low = ba_plan_low(d, (size_t)pp->layer, p->pub.usable_start);
		ba_plan_one(&g, &in, &res);
		pp->action = res.action;
		pp->new_start = res.new_start;
		pp->new_size = res.new_size;
		pp->findings_before =
			count_findings(d->findings, d->nfindings, pp->layer);
		if (res.action == BLKALIGN_PLAN_IMPOSSIBLE) {
			uint64_t lo = in.min_start > l->start ? in.min_start
							      : l->start;
			uint64_t ns =
				ba_plan_start_on_grid(&g, l->start)
					? l->start
					: ba_round_up_grid(lo, g.ao, g.grain);
			explain_impossible(p, d, pp, &res, ns, next);
			continue;
		}
		pp->reason = why_text(p, &g, &res);
		if (pp->new_start != pp->old_start)
			pp->bytes_to_copy = pp->used_size;
	}
	return recheck(p, d);
}

/**
 * blkalign_plan_new: plan the realignment of the partitions of @d (an
 * audited image or whole disk).  Reads the partition table again, for
 * the GPT's usable range and the partitions' UUIDs and names.
 * Returns: 0, -EINVAL or -ENOMEM.
 */
int blkalign_plan_new(const struct blkalign_device *d,
		      struct blkalign_plan **out)
{
	struct ba_plan *p;
	int rc;

	if (!d || !out || d->failed || !d->nlayers)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	rc = build(p, d);
	if (rc) {
		blkalign_plan_free(&p->pub);
		return rc;
	}
	p->pub.parts = p->parts;
	*out = &p->pub;
	return 0;
}

void blkalign_plan_free(struct blkalign_plan *pub)
{
	struct ba_plan *p = (struct ba_plan *)pub;

	if (!p)
		return;
	free(p->parts);
	ba_pool_release(&p->pool);
	free(p);
}

const char *blkalign_plan_action_name(enum blkalign_plan_action a)
{
	switch (a) {
	case BLKALIGN_PLAN_NONE:
		return "none";
	case BLKALIGN_PLAN_OPTIONAL:
		return "optional";
	case BLKALIGN_PLAN_RESIZE:
		return "resize";
	case BLKALIGN_PLAN_MOVE:
		return "move";
	case BLKALIGN_PLAN_IMPOSSIBLE:
		return "impossible";
	}
	return "unknown";
}
