/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.c - the realignment planner behind `blkalign plan`: for each
 * partition of an audited disk, where it should start and how large it
 * should be, as pure arithmetic over the layers and the topology, then
 * the rules re-run on the planned layout to prove the findings go away.
 *
 * The partitions of one parent are planned together, left to right:
 * an end may pass the next partition's start when that one is pushed
 * right in turn, into free space (plan_group); never the extended
 * container or the GPT's last usable LBA; the size never drops below
 * what the contents use (filesystem size, md data area, or the whole
 * partition when not known).  docs/plan.md has the decision table.
 * Nothing is written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * An image in a qemu format: a start off 4 KiB is off its cluster grid
 * and makes the filesystem's blocks straddle clusters (the warning of
 * image-cluster-offset): it must move.  The grain stays what it is: a
 * cluster up to 1 MiB divides it, and a start on the grain but off a
 * larger block (a VHDX's 32 MiB) is information only, not worth the
 * free space a 32 MiB start would cost.
 */
void ba_plan_geom_image(struct ba_plan_geom *g, uint64_t cluster)
{
	g->cluster = cluster;
}

/* No start-physical, start-io-min, start-io-opt or (a warning)
 * image-cluster-offset finding there. */
bool ba_plan_start_on_grid(const struct ba_plan_geom *g, uint64_t start)
{
	if (ba_off_grid(start, g->ao, g->pss))
		return false;
	if (g->cluster && start % 4096)
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

static uint64_t gran_of(const struct ba_plan_geom *g,
			const struct ba_plan_input *in)
{
	return in->size_gran ? in->size_gran : size_gran(g);
}

/* Neither size-physical nor (where it costs) soft-block-size. */
static bool size_on_grid(const struct ba_plan_geom *g,
			 const struct ba_plan_input *in, uint64_t start,
			 uint64_t size)
{
	return !ba_off_grid(start + size, g->ao, g->pss) &&
	       size % gran_of(g, in) == 0;
}

/**
 * ba_plan_grids: where a moved start may go, best first: the grain
 * (1 MiB and every device grid), the device's own grid (physical sector,
 * minimum and optimal I/O), physical sector and minimum I/O, the
 * physical sector alone.  A finer grid is tried only when the coarser
 * one has no room: start-mib costs nothing, start-io-opt less than
 * start-io-min, and that less than start-physical.  Returns how many.
 */
size_t ba_plan_grids(const struct ba_plan_geom *g, uint64_t out[BA_PLAN_GRIDS])
{
	uint64_t pss = g->pss ? g->pss : 512;
	uint64_t io;

	if (g->cluster) /* an image's clusters want 4 KiB at least */
		pss = ba_lcm64(pss, 4096);
	io = ba_lcm64(pss, g->min_io ? g->min_io : pss);
	uint64_t dev = g->opt_io ? ba_lcm64(io, g->opt_io) : io;
	uint64_t c[BA_PLAN_GRIDS] = {g->grain, dev, io, pss};
	size_t n = 0;

	for (size_t i = 0; i < BA_PLAN_GRIDS; i++) {
		bool dup = !c[i];

		for (size_t k = 0; k < n && !dup; k++)
			dup = out[k] == c[i];
		if (!dup)
			out[n++] = c[i];
	}
	return n;
}

/*
 * The size at @ns, its start on @grid: the same when it must stay; else
 * end on the grid at or before the old end, else a multiple of the size
 * granularity before it, else grow past it (on the grid when there is
 * room, else on the size granularity).  An end on the grid is taken only
 * when the size is then a multiple of the size granularity too.  False
 * when the used data cannot fit before the limit.
 */
static bool fit(const struct ba_plan_geom *g, const struct ba_plan_input *in,
		uint64_t ns, uint64_t grid, struct ba_plan_result *out)
{
	uint64_t sg = gran_of(g, in), end0 = in->start + in->size, e, s, need;

	if (ns >= in->limit) {
		out->why = BA_WHY_START_PAST_LIMIT;
		return false;
	}
	if (in->keep_size) {
		if (in->size <= in->limit - ns) {
			out->new_size = in->size;
			out->grows = ns + in->size > end0;
			return true;
		}
		out->why = BA_WHY_NO_ROOM;
		out->room = in->limit - ns;
		return false;
	}
	if (end0 > ns) {
		e = ba_round_down_grid(end0, g->ao, grid);
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
	e = ba_round_up_grid(ns + need, g->ao, grid);
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

/*
 * A move off the device's grid: on each grid in turn (ba_plan_grids),
 * up from the lowest start it may take, then (@in->low) down; the first
 * that fits.  When none does, @out says why at the start upwards that
 * had the most room (out->try_start, out->grid): the least the contents
 * would have to shrink.
 */
static bool move_to_grid(const struct ba_plan_geom *g,
			 const struct ba_plan_input *in, uint64_t lowest,
			 struct ba_plan_result *out)
{
	uint64_t grids[BA_PLAN_GRIDS];
	size_t n = ba_plan_grids(g, grids);
	struct ba_plan_result best = *out;
	bool any = false;

	for (size_t k = 0; k < n; k++) {
		struct ba_plan_result r = *out, l = *out;
		uint64_t ns = ba_round_up_grid(lowest, g->ao, grids[k]);
		uint64_t nl = ba_round_down_grid(in->start, g->ao, grids[k]);

		if (fit(g, in, ns, grids[k], &r)) {
			*out = r;
			out->new_start = ns;
			out->grid = grids[k];
			return true;
		}
		if (!any ||
		    (r.why == BA_WHY_NO_ROOM &&
		     (best.why != BA_WHY_NO_ROOM || r.room > best.room))) {
			best = r;
			best.try_start = ns;
			best.grid = grids[k];
			any = true;
		}
		if (in->low && nl >= in->low && nl > 0 && nl < in->start &&
		    fit(g, in, nl, grids[k], &l)) {
			*out = l;
			out->new_start = nl;
			out->grid = grids[k];
			out->left = true;
			return true;
		}
	}
	*out = best;
	return false;
}

/**
 * ba_plan_one: the decision for one partition (docs/plan.md).  Pure.
 */
void ba_plan_one(const struct ba_plan_geom *g, const struct ba_plan_input *in,
		 struct ba_plan_result *out)
{
	bool start_ok = ba_plan_start_on_grid(g, in->start);
	bool mib_ok = ba_off_grid(in->start, g->ao, MIB) == 0;
	bool size_ok = size_on_grid(g, in, in->start, in->size);
	uint64_t lowest = in->min_start > in->start ? in->min_start : in->start;

	if (in->floor > lowest)
		lowest = in->floor;

	memset(out, 0, sizeof(*out));
	out->new_start = in->start;
	out->new_size = in->size;
	if (in->floor > in->start) {
		/* pushed: the partition before it takes its place */
		struct ba_plan_input up = *in;

		up.low = 0;
		if (move_to_grid(g, &up, lowest, out)) {
			out->why = start_ok ? BA_WHY_PUSHED : BA_WHY_START;
			out->action = BLKALIGN_PLAN_MOVE;
			return;
		}
		out->action = BLKALIGN_PLAN_IMPOSSIBLE;
		out->new_start = in->start;
		out->new_size = in->size;
		return;
	}
	if (in->keep_size && !size_ok) {
		/* off, but its metadata sits at its end: it stays */
		out->size_stays = true;
		size_ok = true;
	}
	if (start_ok && size_ok) {
		struct ba_plan_result opt = *out;
		uint64_t ns = ba_round_up_grid(lowest, g->ao, g->grain);

		if (mib_ok) {
			out->why = BA_WHY_ALIGNED;
			return;
		}
		/* Only off 1 MiB: say where it would go, if it fits. */
		out->why = BA_WHY_MIB_ONLY;
		if (fit(g, in, ns, g->grain, &opt)) {
			out->action = BLKALIGN_PLAN_OPTIONAL;
			out->new_start = ns;
			out->new_size = opt.new_size;
			out->grows = opt.grows;
			out->grid = g->grain;
		}
		return;
	}
	if (start_ok) {
		out->why = BA_WHY_SIZE;
		if (fit(g, in, in->start, g->grain, out)) {
			out->action = BLKALIGN_PLAN_RESIZE;
			return;
		}
		/* neither shrinks (contents) nor grows (no room): what it
		 * holds would have to shrink first; the size stays */
		out->action = BLKALIGN_PLAN_NONE;
		out->size_stays = true;
		out->new_size = in->size;
		return;
	}
	out->why = BA_WHY_START;
	if (move_to_grid(g, in, lowest, out)) {
		out->why = BA_WHY_START;
		out->action = BLKALIGN_PLAN_MOVE;
		return;
	}
	out->action = BLKALIGN_PLAN_IMPOSSIBLE;
	out->new_start = in->start;
	out->new_size = in->size;
}

static bool is_part(const struct blkalign_layer *l)
{
	return l->kind == BLKALIGN_LAYER_PARTITION;
}

/* ba_plan_rooms for the partitions of one parent, @ix sorted by start. */
static void rooms_of_group(const struct blkalign_device *d, const size_t *ix,
			   size_t n, uint64_t usable_start, uint64_t usable_end,
			   struct ba_plan_room *rooms)
{
	const struct blkalign_layer *first = &d->layers[ix[0]];
	uint64_t lim = usable_end, prev_end = 0, prev_logical = 0;
	size_t a, b;

	if (first->parent > 0 && (size_t)first->parent < d->nlayers)
		lim = d->layers[first->parent].start +
		      d->layers[first->parent].size;
	/* backwards: the first sibling that starts later bounds the end */
	for (a = n; a-- > 0;) {
		const struct blkalign_layer *l = &d->layers[ix[a]];
		struct ba_plan_room *r = &rooms[ix[a]];

		if (a + 1 < n && d->layers[ix[a + 1]].start > l->start) {
			const struct blkalign_layer *o = &d->layers[ix[a + 1]];
			uint64_t s = o->start;

			if (o->logical)
				s = s > BA_PLAN_EBR_ROOM ? s - BA_PLAN_EBR_ROOM
							 : 0;
			/* its EBR, wherever it is (a fix leaves it near
			 * the old start) */
			if (o->logical && o->ebr && o->ebr < s)
				s = o->ebr;
			r->limit = s < lim ? s : lim;
			r->next = s < lim ? (int)ix[a + 1] : -1;
		} else if (a + 1 < n) {
			r->limit = rooms[ix[a + 1]].limit; /* same start */
			r->next = rooms[ix[a + 1]].next;
		} else {
			r->limit = lim;
			r->next = -1;
		}
	}
	/* forwards: the siblings that start before it bound a move down */
	for (a = 0; a < n; a = b) {
		uint64_t end_here = prev_end, logical_here = prev_logical;

		for (b = a;
		     b < n && d->layers[ix[b]].start == d->layers[ix[a]].start;
		     b++) {
			const struct blkalign_layer *l = &d->layers[ix[b]];
			struct ba_plan_room *r = &rooms[ix[b]];
			uint64_t low = usable_start > prev_end ? usable_start
							       : prev_end;

			r->low = l->logical || l->parent > 0 ? 0
				 : low			     ? low
							     : 1;
			r->min_start = l->logical && prev_logical
					       ? prev_logical + BA_PLAN_EBR_ROOM
					       : 0;
			if (l->start + l->size > end_here)
				end_here = l->start + l->size;
			if (l->logical && l->start + l->size > logical_here)
				logical_here = l->start + l->size;
		}
		prev_end = end_here;
		prev_logical = logical_here;
	}
}

/**
 * ba_plan_rooms: for every partition of @d, the room it has (n log n:
 * the partitions sorted by parent and start once).
 *  - limit: where its end may go: the next partition with the same parent
 *    (BA_PLAN_EBR_ROOM less for a logical one: its EBR and the gap
 *    libfdisk wants), the extended container's end, or @usable_end for
 *    the top level; next: that partition's index, or -1.  (Its own start
 *    only moves up, the next one's too: an end before the next one's old
 *    start stays before its new start.)
 *  - low: the lowest start it may move down to: the end of the partitions
 *    before it (same parent), at least @usable_start; 0 (never) for
 *    logical partitions: their EBR sits before them.
 *  - min_start: a moved logical partition starts at least the EBR room
 *    after the logical partition before it; 0 for others.
 * @rooms has d->nlayers entries.  Returns 0 or -ENOMEM.
 */
int ba_plan_rooms(const struct blkalign_device *d, uint64_t usable_start,
		  uint64_t usable_end, struct ba_plan_room *rooms)
{
	size_t *ix = malloc((d->nlayers ? d->nlayers : 1) * sizeof(*ix));
	size_t n = 0;

	if (!ix)
		return -ENOMEM;
	memset(rooms, 0, d->nlayers * sizeof(*rooms));
	for (size_t i = 1; i < d->nlayers; i++) {
		rooms[i].next = -1;
		if (is_part(&d->layers[i]))
			ix[n++] = i;
	}
	ba_layers_by_parent_start(d->layers, ix, n);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a; b < n &&
			    d->layers[ix[b]].parent == d->layers[ix[a]].parent;
		     b++)
			;
		rooms_of_group(d, ix + a, b - a, usable_start, usable_end,
			       rooms);
	}
	free(ix);
	return 0;
}

/* The layer directly inside partition @i, or -1. */
static int content_of(const struct ba_plan *p, size_t i)
{
	return p->content && i < p->pub.device->nlayers ? p->content[i] : -1;
}

/* The first stack layer directly inside each layer (-1: none), once:
 * the stack's layers follow all the partitions, so a search per
 * partition would be quadratic. */
static int *contents_of(const struct blkalign_device *d)
{
	int *c = malloc((d->nlayers ? d->nlayers : 1) * sizeof(*c));

	for (size_t i = 0; c && i < d->nlayers; i++)
		c[i] = -1;
	for (size_t j = d->nlayers; c && j-- > 1;) {
		int parent = d->layers[j].parent;

		if (parent >= 0 && (size_t)parent < j &&
		    d->layers[j].kind >= BLKALIGN_LAYER_MD)
			c[parent] = (int)j;
	}
	return c;
}

/*
 * Bytes from the partition's start its contents need: filesystems their
 * own size, md 1.1/1.2 data_offset + data_size (0.90/1.0 keep their
 * superblock at the end: the whole member), a ZFS vdev all of it (labels
 * at both ends); others the whole partition, not known.
 */
static uint64_t used_bytes(const struct ba_plan *p, size_t i, bool *known,
			   const char **content)
{
	const struct blkalign_device *d = p->pub.device;
	const struct blkalign_layer *l = &d->layers[i];
	int c = content_of(p, i);
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
		/* used_size counts from where the contents begin, before
		 * their data area (swap's header page, FAT's reserved
		 * sectors and FATs): not from the layer's start */
		if (cl->used_size && cl->start - l->start >= cl->data_offset) {
			u = cl->start - cl->data_offset - l->start +
			    cl->used_size;
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
	case BLKALIGN_LAYER_LVM:
		/* an LVM2 PV: extents anywhere, maybe a second metadata
		 * area at its end: all of it (fix copies what its segments
		 * use, lib/scan/used/lvm.c) */
		*known = true;
		break;
	case BLKALIGN_LAYER_ZFS:
		/* labels at both ends, blocks anywhere: all of it */
	case BLKALIGN_LAYER_TABLE:
		/* a disk's table, its backup header at the end: all of it */
		*known = true;
		break;
	default:
		break;
	}
	return u; /* may pass the partition's end: build() refuses that */
}

/*
 * What the contents of partition @i ask of its size: md, LVM, LUKS and
 * ZFS do their I/O below the partition's page cache, and a mounted
 * filesystem sets the soft block size itself, so its soft block size
 * costs them nothing and sizes need only be whole physical sectors;
 * md 0.90/1.0 and ZFS keep metadata at the end: the size stays.
 */
static void contents_rules(const struct ba_plan *p, size_t i,
			   const struct ba_plan_geom *g,
			   struct ba_plan_input *in)
{
	const struct blkalign_device *d = p->pub.device;
	int c = content_of(p, i);
	const struct blkalign_layer *cl;

	if (c < 0)
		return;
	cl = &d->layers[c];
	switch (cl->kind) {
	case BLKALIGN_LAYER_MD:
		in->keep_size = !cl->version || (strcmp(cl->version, "1.1") &&
						 strcmp(cl->version, "1.2"));
		in->size_gran = g->pss ? g->pss : 512;
		break;
	case BLKALIGN_LAYER_ZFS:
	case BLKALIGN_LAYER_TABLE:
		in->keep_size = true;
		in->size_gran = g->pss ? g->pss : 512;
		break;
	case BLKALIGN_LAYER_LVM:
	case BLKALIGN_LAYER_LUKS:
		in->size_gran = g->pss ? g->pss : 512;
		break;
	case BLKALIGN_LAYER_FILESYSTEM:
		if (ba_fs_sets_soft_block(cl->type))
			in->size_gran = g->pss ? g->pss : 512;
		break;
	default:
		break;
	}
}

static bool plan_code(const char *code)
{
	static const char *const codes[] = {
		"start-physical",	"start-io-min",
		"start-io-opt",		"raid-chunk",
		"raid-stripe",		"size-physical",
		"soft-block-size",	"partition-past-end",
		"partition-overlap",	"partition-outside-container",
		"image-cluster-offset",
	};

	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++)
		if (!strcmp(code, codes[i]))
			return true;
	return false;
}

/* Count finding @f when it is a warning or error the plan is about. */
static void count_one(size_t *c, size_t nlayers,
		      const struct blkalign_finding *f)
{
	if (f->layer >= 0 && (size_t)f->layer < nlayers &&
	    f->severity > BLKALIGN_INFO && plan_code(f->code))
		c[f->layer]++;
}

/* The warning and error findings the plan is about, per layer (@out has
 * @nlayers entries). */
static size_t *count_findings(const struct blkalign_finding *f, size_t n,
			      size_t nlayers)
{
	size_t *c = calloc(nlayers ? nlayers : 1, sizeof(*c));

	for (size_t k = 0; c && k < n; k++)
		count_one(c, nlayers, &f[k]);
	return c;
}

/*
 * Layer @i as planned: a partition at its new start and size, what it
 * holds moved with it (a layer that ran to its end still does).
 * Parents come before their children: @tmp's parent is already placed.
 */
static void place(const struct blkalign_device *d, const int *part_of,
		  const struct ba_plan *p, const struct ba_device *tmp,
		  size_t i, struct blkalign_layer *l)
{
	const struct blkalign_layer *o = &d->layers[i];
	int k = part_of[i];

	if (k >= 0) {
		l->start = p->parts[k].new_start;
		l->size = p->parts[k].new_size;
		return;
	}
	if (o->parent <= 0 || l->parent < 0)
		return;
	{
		const struct blkalign_layer *op = &d->layers[o->parent];
		const struct blkalign_layer *np = &tmp->layers[l->parent];

		l->start = o->start - op->start + np->start;
		if (o->start + o->size == op->start + op->size &&
		    np->start + np->size > l->start)
			l->size = np->start + np->size - l->start;
	}
}

/* Re-run the rules on the layers as planned (the contents too: what a
 * partition holds changes what its findings cost). */
static int recheck(struct ba_plan *p, const struct blkalign_device *d)
{
	struct ba_device tmp;
	size_t *after = NULL;
	int *map, *part_of;
	int rc = 0;

	map = calloc(d->nlayers, sizeof(*map));
	part_of = calloc(d->nlayers, sizeof(*part_of));
	if (!map || !part_of) {
		free(map);
		free(part_of);
		return -ENOMEM;
	}
	memset(&tmp, 0, sizeof(tmp));
	tmp.pub = *d;
	for (size_t i = 0; i < d->nlayers; i++)
		part_of[i] = -1;
	for (size_t k = 0; k < p->pub.nparts; k++)
		part_of[p->parts[k].layer] = (int)k;
	for (size_t i = 0; i < d->nlayers; i++) {
		struct blkalign_layer *l = ba_device_add_layer(&tmp);

		if (!l) {
			rc = -ENOMEM;
			goto out;
		}
		*l = d->layers[i];
		l->parent = l->parent >= 0 && (size_t)l->parent < i
				    ? map[l->parent]
				    : -1;
		map[i] = (int)(l - tmp.layers);
		place(d, part_of, p, &tmp, i, l);
	}
	ba_rules_run(&tmp);
	after = calloc(tmp.nlayers ? tmp.nlayers : 1, sizeof(*after));
	for (size_t k = 0; after && k < tmp.nfindings; k++)
		count_one(after, tmp.nlayers, &tmp.findings[k].pub);
	if (!after || tmp.findings_lost) {
		rc = -ENOMEM;
		goto out;
	}
	p->pub.remaining = 0;
	for (size_t k = 0; k < p->pub.nparts; k++) {
		struct blkalign_plan_part *pp = &p->parts[k];

		pp->findings_after = after[map[pp->layer]];
		p->pub.remaining += pp->findings_after;
	}
out:
	free(after);
	ba_device_release(&tmp);
	free(map);
	free(part_of);
	return rc;
}

/*
 * The table facts the plan keeps (the sfdisk script writes them back):
 * the usable range, the disk id, each partition's UUID and name, all
 * from the audit's snapshot.  A device with no usable range recorded
 * (built by hand) is taken as usable from sector 1 to its end.
 */
static void table_of(struct ba_plan *p, const struct blkalign_device *d)
{
	const struct blkalign_table *t = &d->table;

	p->pub.usable_start =
		t->usable_end ? t->usable_start
			      : (uint64_t)d->topology.logical_sector_size.value;
	p->pub.usable_end = t->usable_end ? t->usable_end : d->size;
	p->pub.label_id = t->id;
	for (size_t k = 0; k < p->pub.nparts; k++) {
		const struct blkalign_layer *l = &d->layers[p->parts[k].layer];

		p->parts[k].uuid = l->uuid;
		p->parts[k].part_name = l->part_name;
	}
}

/* An image in one of qemu's formats (not raw): no loop device reads
 * it, qemu-nbd does. */
static bool qemu_image(const struct blkalign_device *d)
{
	return !d->is_block_device && d->image_format &&
	       strcmp(d->image_format, "raw");
}

/* The node of partition @l for a command; for an image, the partition
 * node of the device that @attach_of attaches it to. */
static const char *dev_of(struct ba_plan *p, const struct blkalign_device *d,
			  const struct blkalign_layer *l)
{
	if (d->is_block_device)
		return ba_pool_printf(&p->pool, "/dev/%s", l->name);
	if (qemu_image(d))
		return ba_pool_printf(&p->pool, "/dev/nbd0p%d", l->number);
	return ba_pool_printf(&p->pool, "\"${dev}p%d\"", l->number);
}

/* The command that gives an image's partitions nodes (dev_of), or NULL
 * for a block device. */
static const char *attach_of(struct ba_plan *p, const struct blkalign_device *d)
{
	if (d->is_block_device)
		return NULL;
	if (qemu_image(d))
		return ba_pool_printf(&p->pool,
				      "attach the image first: modprobe nbd && "
				      "qemu-nbd --connect=/dev/nbd0 '%s' "
				      "(qemu-nbd --disconnect /dev/nbd0 after)",
				      d->path);
	return ba_pool_printf(&p->pool,
			      "attach the image first: dev=$(losetup -f "
			      "--show '%s') && partx -a \"$dev\" (losetup -d "
			      "\"$dev\" after)",
			      d->path);
}

/* @cmd (NULL: it could not be made) after @pp's commands. */
static void add_cmd(struct ba_plan *p, struct blkalign_plan_part *pp,
		    const char *cmd)
{
	const char **v =
		cmd ? ba_pool_calloc(&p->pool, pp->ncommands + 1, sizeof(*v))
		    : NULL;

	if (!v) {
		p->nomem = true;
		return;
	}
	for (size_t i = 0; i < pp->ncommands; i++)
		v[i] = pp->commands[i];
	v[pp->ncommands++] = cmd;
	pp->commands = v;
}

/* Why it is impossible and what to do instead. */
static const char *grid_name(struct ba_plan *p, const struct ba_plan_geom *g,
			     uint64_t grid);

static void explain_impossible(struct ba_plan *p,
			       const struct blkalign_device *d,
			       const struct ba_plan_geom *g,
			       struct blkalign_plan_part *pp,
			       const struct ba_plan_result *res,
			       uint64_t planned_start, int next)
{
	const struct blkalign_layer *l = &d->layers[pp->layer];
	uint64_t lss = (uint64_t)d->topology.logical_sector_size.value;
	const char *nname = next >= 0 ? d->layers[next].name : NULL;
	const char *dev = dev_of(p, d, l);
	int c = content_of(p, (size_t)pp->layer);
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
			"no start on the device's grid has room: %s sector "
			"%" PRIu64 " (%s, the most room), %s needs %" PRIu64
			" bytes but only %" PRIu64 " fit before %s",
			planned_start == l->start ? "kept at" : "moved to",
			planned_start / lss, grid_name(p, g, res->grid),
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
		const char *attach = attach_of(p, d);

		if (attach && strcmp(pp->content, "btrfs") &&
		    strcmp(pp->content, "xfs"))
			add_cmd(p, pp, attach);
		if (!strncmp(pp->content, "ext", 3))
			add_cmd(p, pp,
				ba_pool_printf(
					&p->pool,
					"shrink the filesystem first: e2fsck -f %s && "
					"resize2fs %s %" PRIu64 "K",
					dev, dev, fs / 1024));
		else if (!strcmp(pp->content, "btrfs"))
			add_cmd(p, pp,
				ba_pool_printf(
					&p->pool,
					"shrink the filesystem first: btrfs filesystem "
					"resize %" PRIu64 " <its mount point>",
					fs));
		else if (!strcmp(pp->content, "xfs"))
			add_cmd(p, pp,
				"xfs cannot shrink: back up, recreate "
				"the filesystem on the planned partition "
				"and restore");
		else if (!strcmp(pp->content, "ntfs"))
			/* the volume, less the boot sector's copy after it */
			add_cmd(p, pp,
				ba_pool_printf(
					&p->pool,
					"shrink the filesystem first: ntfsresize "
					"--size %" PRIu64 " %s",
					fs > unit ? fs - unit : fs, dev));
		else
			add_cmd(p, pp,
				ba_pool_printf(
					&p->pool,
					"shrink the %s on %s to at most %" PRIu64
					" bytes first",
					pp->content, dev, fs));
	}
	or = pp->ncommands ? "or " : "";
	if (nname)
		add_cmd(p, pp,
			ba_pool_printf(
				&p->pool,
				"%smove '%s' right first (it starts at sector %" PRIu64
				"), then run blkalign plan again",
				or, nname, d->layers[next].start / lss));
	else
		add_cmd(p, pp,
			ba_pool_printf(&p->pool, "%sgrow the %s first", or,
				       l->logical ? "extended partition"
						  : "disk"));
}

/* "the 1048576-byte grain", "the 4096-byte physical sector grid", ... */
static const char *grid_name(struct ba_plan *p, const struct ba_plan_geom *g,
			     uint64_t grid)
{
	if (!grid || grid == g->grain)
		return ba_pool_printf(&p->pool, "the %" PRIu64 "-byte grain",
				      g->grain);
	return ba_pool_printf(&p->pool,
			      "the %" PRIu64 "-byte %s grid (no room on the "
			      "%" PRIu64 "-byte grain)",
			      grid, grid == g->pss ? "physical sector" : "I/O",
			      g->grain);
}

/* Why @r, in words; @pushed names the partition whose place its end
 * takes (that one moves right), or NULL. */
static const char *why_text(struct ba_plan *p, const struct ba_plan_geom *g,
			    const struct ba_plan_input *in,
			    const struct ba_plan_result *r, const char *pushed)
{
	const char *grow =
		pushed			 ? ba_pool_printf(&p->pool,
							  "; its end moves into the place of "
									    "'%s', which moves right",
							  pushed)
		: !r->grows		 ? ""
		: r->new_size > in->size ? "; grows into the free "
					   "space after it"
					 : "; its end moves into the "
					   "free space after it";

	switch (r->why) {
	case BA_WHY_ALIGNED:
		return r->size_stays
			       ? ba_pool_printf(&p->pool,
						"its size stays: %s sits at "
						"its end",
						in->keep_size ? "its metadata"
							      : "what it holds")
			       : NULL;
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
				"start off the device's grid, no room after "
				"it: moved down to %s",
				grid_name(p, g, r->grid));
		return ba_pool_printf(
			&p->pool,
			"start off the device's grid: moved up to %s%s",
			grid_name(p, g, r->grid), grow);
	case BA_WHY_PUSHED:
		return ba_pool_printf(
			&p->pool,
			"aligned, but the partition before it needs its place: "
			"moved up to %s",
			grid_name(p, g, r->grid));
	case BA_WHY_SIZE:
		return ba_pool_printf(
			&p->pool,
			"size not a multiple of %" PRIu64 " bytes (%s)%s",
			in->size_gran ? in->size_gran : size_gran(g),
			in->size_gran ? "physical sector"
				      : "page and physical sector",
			grow);
	case BA_WHY_NO_ROOM:
		/* a size it cannot take: neither smaller nor larger */
		return ba_pool_printf(
			&p->pool,
			"size not a multiple of %" PRIu64 " bytes, but it "
			"cannot shrink (%s %" PRIu64 " bytes) and has no room "
			"to grow (%" PRIu64 " bytes fit): shrink what it holds "
			"first, then resize it",
			in->size_gran ? in->size_gran : size_gran(g),
			!in->sized ? "its contents, not sized, keep all"
				   : "its contents need",
			in->used, r->room);
	default:
		return NULL;
	}
}

/* Nothing can be planned for @pp: it stays where it is, as it is. */
static void stays_impossible(struct blkalign_plan_part *pp)
{
	pp->action = BLKALIGN_PLAN_IMPOSSIBLE;
	pp->new_start = pp->old_start;
	pp->new_size = pp->old_size;
}

/*
 * dos: the sectors between the MBR and the first partition hold boot
 * loaders on old disks (GRUB's core.img in sectors 1-62 before a
 * partition at 63): a move down never goes below the lowest start there
 * is, nor below 1 MiB when that is lower.
 */
static uint64_t dos_low(const struct blkalign_device *d, uint64_t low)
{
	uint64_t first = MIB;

	for (size_t i = 1; i < d->nlayers; i++)
		if (is_part(&d->layers[i]) && d->layers[i].start < first)
			first = d->layers[i].start;
	return first > low ? first : low;
}

/*
 * Partition @k as it is, and what bounds it as far as the old layout
 * says (@room); false when nothing can be planned for it (the reason
 * said): it stays as it is, an obstacle to its neighbours.
 */
static bool prepare(struct ba_plan *p, const struct blkalign_device *d,
		    const struct ba_plan_geom *g, size_t k,
		    const struct ba_plan_room *room, const size_t *before,
		    struct ba_plan_input *in)
{
	struct blkalign_plan_part *pp = &p->parts[k];
	const struct blkalign_layer *l = &d->layers[pp->layer];

	pp->limit = room->limit;
	pp->old_start = l->start;
	pp->old_size = l->size;
	pp->findings_before = before[pp->layer];
	pp->used_size =
		used_bytes(p, (size_t)pp->layer, &pp->used_known, &pp->content);
	stays_impossible(pp);
	if (l->start + l->size > d->size) {
		/* runs past the end of the disk: the table is wrong, or the
		 * image cut short; nothing moves it safely */
		pp->reason = ba_pool_printf(
			&p->pool,
			"it ends %" PRIu64 " bytes past the end of the "
			"disk (partition-past-end): a truncated image or "
			"a table from a larger disk; fix the table (or "
			"the image) first",
			l->start + l->size - d->size);
		return false;
	}
	if (pp->used_size > l->size) {
		/* The contents claim more than the partition holds:
		 * truncated or damaged.  Never move that. */
		pp->reason = ba_pool_printf(
			&p->pool,
			"its %s (%" PRIu64 " bytes) is larger than the "
			"partition (%" PRIu64 " bytes): check it "
			"(fsck) before moving anything",
			pp->content ? pp->content : "contents", pp->used_size,
			l->size);
		return false;
	}
	memset(in, 0, sizeof(*in));
	in->start = l->start;
	in->size = l->size;
	in->used = pp->used_size;
	in->sized = pp->used_known;
	in->limit = room->limit;
	in->min_start = room->min_start;
	in->low = room->low;
	contents_rules(p, (size_t)pp->layer, g, in);
	return true;
}

/*
 * What the move of @pp copies (fix-used.c does the same): all its
 * used_size in whole sectors, or less by the map of used blocks the scan
 * read of partition @l (when the contents are sized, as fix reads a map
 * only then, and the map skips something).
 */
static void count_copy(struct blkalign_plan_part *pp,
		       const struct blkalign_layer *l, uint64_t lss)
{
	uint64_t len =
		lss ? (pp->used_size + lss - 1) / lss * lss : pp->used_size;

	if (len > pp->old_size || len > pp->new_size)
		len = pp->old_size < pp->new_size ? pp->old_size : pp->new_size;
	pp->bytes_to_copy = len;
	if (!pp->used_known || !l->map_source)
		return;
	pp->map_source = l->map_source;
	pp->map_problem = l->map_problem;
	if (!l->map_problem && l->map_bytes < len)
		pp->bytes_to_copy = l->map_bytes;
}

/* The decision for partition @k on @in, into its plan part; @next the
 * partition that bounds it (for the reason), or -1; @pushed the one
 * after it that its end may push right, or -1. */
static void decide(struct ba_plan *p, const struct blkalign_device *d,
		   const struct ba_plan_geom *g, size_t k,
		   const struct ba_plan_input *in, int next, int pushed)
{
	struct blkalign_plan_part *pp = &p->parts[k];
	struct ba_plan_result res;

	ba_plan_one(g, in, &res);
	pp->limit = in->limit;
	pp->action = res.action;
	pp->new_start = res.new_start;
	pp->new_size = res.new_size;
	pp->reason = NULL;
	pp->ncommands = 0;
	pp->bytes_to_copy = 0;
	pp->map_source = NULL;
	pp->map_problem = NULL;
	if (res.action == BLKALIGN_PLAN_IMPOSSIBLE) {
		explain_impossible(p, d, g, pp, &res, res.try_start, next);
		return;
	}
	pp->reason = why_text(p, g, in, &res,
			      pushed >= 0 && res.new_start + res.new_size >
						      d->layers[pushed].start
				      ? d->layers[pushed].name
				      : NULL);
	if (pp->new_start != pp->old_start)
		count_copy(pp, &d->layers[pp->layer],
			   (uint64_t)d->topology.logical_sector_size.value);
}

/* Where partition @k ends once planned (where it ends now unless it
 * moves or is resized). */
static uint64_t planned_end(const struct blkalign_plan_part *pp)
{
	if (pp->action == BLKALIGN_PLAN_MOVE ||
	    pp->action == BLKALIGN_PLAN_RESIZE)
		return pp->new_start + pp->new_size;
	return pp->old_start + pp->old_size;
}

/* One parent's partitions, sorted by start (@ix, layer indices; @part
 * maps a layer to its plan part or -1: an extended container). */
struct group {
	const size_t *ix;
	size_t n;
	const int *part;
	struct ba_plan_input *in;
	const bool *ok;
	const struct ba_plan_room *rooms;
	uint64_t end;	       /* where the last one's end may go */
	uint64_t usable_start; /* a move down: not below this */
};

/* The part of layer ix[a], when it may be pushed right: planned, and
 * either sized (fix moves it without --copy-all) or moving anyway (it
 * needs --copy-all for that already); else -1. */
static int movable(const struct ba_plan *p, const struct ba_plan_geom *g,
		   const struct blkalign_device *d, const struct group *gr,
		   size_t a)
{
	int k = gr->part[gr->ix[a]];

	if (k < 0 || !gr->ok[k])
		return -1;
	return p->parts[k].used_known || !ba_plan_start_on_grid(
						 g, d->layers[gr->ix[a]].start)
		       ? k
		       : -1;
}

static uint64_t gap_before(const struct blkalign_device *d,
			   const struct group *gr, size_t a)
{
	return d->layers[gr->ix[a]].logical ? BA_PLAN_EBR_ROOM : 0;
}

/* Old extents in start order without overlap: the group can be planned
 * as a whole. */
static bool disjoint(const struct blkalign_device *d, const struct group *gr)
{
	for (size_t a = 1; a < gr->n; a++) {
		const struct blkalign_layer *l = &d->layers[gr->ix[a - 1]];

		if (d->layers[gr->ix[a]].start < l->start + l->size)
			return false;
	}
	return true;
}

/*
 * @latest[a]: the highest start on the grain the partition of ix[a]
 * could be pushed to with every partition after it pushed as far as it
 * goes too (or its own start, when that is higher or it cannot move):
 * the room the one before it has if it may push.
 */
static void latest_starts(const struct ba_plan *p,
			  const struct blkalign_device *d,
			  const struct ba_plan_geom *g, const struct group *gr,
			  uint64_t *latest)
{
	uint64_t bound = gr->end;

	for (size_t a = gr->n; a-- > 0;) {
		const struct blkalign_layer *l = &d->layers[gr->ix[a]];
		int k = movable(p, g, d, gr, a);
		uint64_t at = l->start, gap = gap_before(d, gr, a);

		if (k >= 0) {
			const struct ba_plan_input *in = &gr->in[k];
			uint64_t sg = gran_of(g, in), need;

			need = in->keep_size
				       ? in->size
				       : ((in->used ? in->used : 1) + sg - 1) /
						 sg * sg;
			if (bound >= need) {
				uint64_t c = ba_round_down_grid(
					bound - need, g->ao, g->grain);

				if (c > at && c + need <= bound)
					at = c;
			}
		}
		latest[a] = at;
		bound = at > gap ? at - gap : 0;
	}
}

/*
 * Plan one parent's partitions left to right.  Each one's end may reach
 * where the next one starts; where the next one moves anyway (its start
 * is off the device's grid), or this one has no room otherwise, as far
 * as the next ones can be pushed (latest_starts): the next one then
 * starts after it (ba_plan_input.floor).  So an XP disk's NTFS at 63,
 * with a partition at a cylinder boundary right after it, reaches the
 * grain when the second moves further right into the free space after
 * it (issue 25).  A group whose partitions overlap already keeps the
 * old bounds; so does every logical partition, whose EBR stays near its
 * old start when it moves.
 */
static int plan_group(struct ba_plan *p, const struct blkalign_device *d,
		      const struct ba_plan_geom *g, const struct group *gr)
{
	uint64_t *latest = calloc(gr->n ? gr->n : 1, sizeof(*latest));
	uint64_t planned_max = 0, old_max = 0;
	bool whole = disjoint(d, gr);

	if (!latest)
		return -ENOMEM;
	if (whole)
		latest_starts(p, d, g, gr, latest);
	for (size_t a = 0; a < gr->n; a++) {
		const struct blkalign_layer *l = &d->layers[gr->ix[a]];
		int k = gr->part[gr->ix[a]], kb;
		const struct ba_plan_room *room = &gr->rooms[gr->ix[a]];
		struct ba_plan_input *in;
		uint64_t gap = gap_before(d, gr, a), push;

		if (k < 0 || !gr->ok[k]) { /* it stays: an obstacle */
			if (l->start + l->size > planned_max)
				planned_max = l->start + l->size;
			if (l->start + l->size > old_max)
				old_max = l->start + l->size;
			continue;
		}
		in = &gr->in[k];
		if (whole && a > 0) {
			if (planned_max > old_max)
				in->floor = planned_max + gap;
			if (l->logical)
				in->min_start = planned_max + gap;
			if (in->low) {
				in->low = planned_max > gr->usable_start
						  ? planned_max
						  : gr->usable_start;
				if (!in->low)
					in->low = 1;
			}
		}
		kb = a + 1 < gr->n ? movable(p, g, d, gr, a + 1) : -1;
		/* a logical partition's EBR stays where it was when libfdisk
		 * moves it (measured: sfdisk 2.38 rewrites it one sector
		 * before the old start): nothing may reach into that */
		if (kb >= 0 && d->layers[gr->ix[a + 1]].logical)
			kb = -1;
		push = a + 1 < gr->n && latest[a + 1] > gap_before(d, gr, a + 1)
			       ? latest[a + 1] - gap_before(d, gr, a + 1)
			       : 0;
		if (whole && kb >= 0 && push > in->limit &&
		    !ba_plan_start_on_grid(g, d->layers[gr->ix[a + 1]].start)) {
			in->limit = push; /* it moves anyway */
			decide(p, d, g, (size_t)k, in, -1, (int)gr->ix[a + 1]);
		} else {
			decide(p, d, g, (size_t)k, in, room->next, -1);
			if (whole && kb >= 0 && push > in->limit &&
			    p->parts[k].action == BLKALIGN_PLAN_IMPOSSIBLE) {
				in->limit = push; /* no room otherwise */
				decide(p, d, g, (size_t)k, in, -1,
				       (int)gr->ix[a + 1]);
			}
		}
		if (planned_end(&p->parts[k]) > planned_max)
			planned_max = planned_end(&p->parts[k]);
		if (l->start + l->size > old_max)
			old_max = l->start + l->size;
	}
	free(latest);
	return 0;
}

/* Every partition, a parent's partitions at a time, in start order. */
static int plan_all(struct ba_plan *p, const struct blkalign_device *d,
		    const struct ba_plan_geom *g, struct ba_plan_input *in,
		    const bool *ok, const struct ba_plan_room *rooms)
{
	size_t *ix = malloc((d->nlayers ? d->nlayers : 1) * sizeof(*ix));
	int *part = malloc((d->nlayers ? d->nlayers : 1) * sizeof(*part));
	size_t n = 0;
	int rc = 0;

	if (!ix || !part) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < d->nlayers; i++) {
		part[i] = -1;
		if (i > 0 && is_part(&d->layers[i]))
			ix[n++] = i;
	}
	for (size_t k = 0; k < p->pub.nparts; k++)
		part[p->parts[k].layer] = (int)k;
	ba_layers_by_parent_start(d->layers, ix, n);
	for (size_t a = 0, b; a < n && !rc; a = b) {
		const struct blkalign_layer *first = &d->layers[ix[a]];
		struct group gr = {
			.ix = ix + a,
			.part = part,
			.in = in,
			.ok = ok,
			.rooms = rooms,
			.end = p->pub.usable_end,
			.usable_start = p->pub.usable_start,
		};

		for (b = a; b < n && d->layers[ix[b]].parent == first->parent;
		     b++)
			;
		gr.n = b - a;
		if (first->parent > 0 && (size_t)first->parent < d->nlayers)
			gr.end = d->layers[first->parent].start +
				 d->layers[first->parent].size;
		if (gr.end > p->pub.usable_end)
			gr.end = p->pub.usable_end;
		rc = plan_group(p, d, g, &gr);
	}
out:
	free(ix);
	free(part);
	return rc;
}

static int build(struct ba_plan *p, const struct blkalign_device *d)
{
	struct ba_plan_geom g;
	struct ba_plan_room *rooms = NULL;
	struct ba_plan_input *in = NULL;
	size_t *before = NULL;
	bool *ok = NULL;
	size_t n = 0;
	int rc = -ENOMEM;

	ba_plan_geom_from(&d->topology, &g);
	ba_plan_geom_image(&g, ba_image_grid(d));
	p->pub.device = d;
	p->pub.grain = g.grain;
	p->pub.size_granularity = size_gran(&g);
	for (size_t i = 1; i < d->nlayers; i++)
		if (is_part(&d->layers[i]) && !d->layers[i].extended)
			n++;
	p->parts = calloc(n ? n : 1, sizeof(*p->parts));
	p->content = contents_of(d);
	rooms = calloc(d->nlayers, sizeof(*rooms));
	in = calloc(n ? n : 1, sizeof(*in));
	ok = calloc(n ? n : 1, sizeof(*ok));
	before = count_findings(d->findings, d->nfindings, d->nlayers);
	if (!p->parts || !p->content || !rooms || !in || !ok || !before)
		goto out;
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
	table_of(p, d);
	if (d->scheme && !strcmp(d->scheme, "dos"))
		p->pub.usable_start = dos_low(d, p->pub.usable_start);
	rc = ba_plan_rooms(d, p->pub.usable_start, p->pub.usable_end, rooms);
	if (rc)
		goto out;
	for (size_t k = 0; k < p->pub.nparts; k++)
		ok[k] = prepare(p, d, &g, k, &rooms[p->parts[k].layer], before,
				&in[k]);
	rc = plan_all(p, d, &g, in, ok, rooms);
	if (!rc)
		rc = recheck(p, d);
out:
	free(rooms);
	free(in);
	free(ok);
	free(before);
	free(p->content);
	p->content = NULL;
	return rc;
}

/**
 * blkalign_plan_new: plan the realignment of the partitions of @d (an
 * audited image or whole disk, or one built in memory).  It reads
 * nothing: the usable range, UUIDs and names come from @d's table.
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
	if (!rc && p->nomem)
		rc = -ENOMEM;
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
	if (p->report)
		ba_device_put(p->report, p->held);
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
