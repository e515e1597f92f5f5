/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.h - private pieces of the realignment planner (plan.c): the pure
 * decision for one partition, exposed for the unit tests.
 */
#ifndef BLKALIGN_PLAN_H
#define BLKALIGN_PLAN_H

#include "blkalignP.h"

/* The grids a plan aligns to, in bytes. */
struct ba_plan_geom {
	uint64_t ao; /* the disk's alignment offset (>= 0) */
	uint64_t pss, min_io, opt_io;
	uint64_t page;
	uint64_t grain; /* lcm(1 MiB, pss, min, opt), see rules.c */
};

/* One partition as it is, and what bounds it. */
struct ba_plan_input {
	uint64_t start, size;
	uint64_t used;	    /* bytes from the start to keep (<= size) */
	uint64_t limit;	    /* its end may not pass this byte */
	uint64_t min_start; /* a moved start may not be below this */
	uint64_t low;	    /* moving left: not below this; 0: never */
};

/*
 * Room kept between logical partitions for the next one's EBR: sfdisk
 * (libfdisk 2.38) refuses a logical partition on the grain that starts
 * less than its grain (1 MiB) after the previous one ends.
 */
#define BA_PLAN_EBR_ROOM MIB

enum ba_plan_why {
	BA_WHY_NONE = 0,
	BA_WHY_ALIGNED,
	BA_WHY_MIB_ONLY,	 /* on the device's grid, only off 1 MiB */
	BA_WHY_START,		 /* start off the device's grid */
	BA_WHY_SIZE,		 /* end/size off the physical sector or page */
	BA_WHY_NO_ROOM,		 /* the used data does not fit at new_start */
	BA_WHY_START_PAST_LIMIT, /* nothing fits: the new start is past it */
};

struct ba_plan_result {
	enum blkalign_plan_action action;
	enum ba_plan_why why;
	uint64_t new_start, new_size;
	uint64_t room; /* impossible: the largest size that fits */
	bool grows;    /* the end moves right, into free space */
	bool left;     /* moved left: no room on the right */
};

void ba_plan_geom_from(const struct blkalign_topology *t,
		       struct ba_plan_geom *g);
bool ba_plan_start_on_grid(const struct ba_plan_geom *g, uint64_t start);
void ba_plan_one(const struct ba_plan_geom *g, const struct ba_plan_input *in,
		 struct ba_plan_result *out);
int ba_plan_limit(const struct blkalign_device *d, size_t i,
		  uint64_t usable_end, uint64_t *limit);
uint64_t ba_plan_min_start(const struct blkalign_device *d, size_t i);
uint64_t ba_plan_low(const struct blkalign_device *d, size_t i,
		     uint64_t usable_start);

/* The plan as built: pub is what the caller sees. */
struct ba_plan {
	struct blkalign_plan pub;
	struct blkalign_plan_part *parts;
	struct ba_pool pool;
};

#endif /* BLKALIGN_PLAN_H */
