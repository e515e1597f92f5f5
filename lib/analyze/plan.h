/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * plan.h - private pieces of the realignment planner (plan.c): the pure
 * decision for one partition, exposed for the unit tests.
 */
#ifndef BLKALIGN_PLAN_H
#define BLKALIGN_PLAN_H

#include "analyze/analyze.h"

/* The grids a plan aligns to, in bytes. */
struct ba_plan_geom {
	uint64_t ao; /* the disk's alignment offset (>= 0) */
	uint64_t pss, min_io, opt_io;
	uint64_t page;
	uint64_t grain; /* lcm(1 MiB, pss, min, opt), see rules.c */
	/* an image in a qemu format: its allocation unit (ba_image_grid),
	 * whose grid a start must be on, or 0 */
	uint64_t cluster;
};

/* One partition as it is, and what bounds it. */
struct ba_plan_input {
	uint64_t start, size;
	uint64_t used;	    /* bytes from the start to keep (<= size) */
	uint64_t limit;	    /* its end may not pass this byte */
	uint64_t min_start; /* a moved start may not be below this */
	uint64_t low;	    /* moving left: not below this; 0: never */
	/* sizes on this (0: lcm(page, physical sector)); the physical
	 * sector alone when the contents do their I/O below the page cache
	 * (md, LVM, LUKS, ZFS: the soft block size costs them nothing) */
	uint64_t size_gran;
	bool keep_size; /* metadata at the end (md 0.90/1.0, ZFS) */
	uint64_t floor; /* it must start at or after this: the one before
			 * it was planned past its start (0: none) */
	bool sized;	/* used is what the contents need, not all of it */
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
	BA_WHY_PUSHED,		 /* moved right: the one before needs room */
};

struct ba_plan_result {
	enum blkalign_plan_action action;
	enum ba_plan_why why;
	uint64_t new_start, new_size;
	uint64_t room;	    /* impossible: the largest size that fits */
	uint64_t grid;	    /* a moved start is on this grid (the grain, or a
			     * finer one when the grain has no room) */
	uint64_t try_start; /* impossible: the start whose room is told */
	bool grows;	    /* the end moves right, into free space */
	bool left;	    /* moved left: no room on the right */
	bool size_stays;    /* the size is off but cannot change */
};

#define BA_PLAN_GRIDS 4
size_t ba_plan_grids(const struct ba_plan_geom *g, uint64_t out[BA_PLAN_GRIDS]);

void ba_plan_geom_from(const struct blkalign_topology *t,
		       struct ba_plan_geom *g);
void ba_plan_geom_image(struct ba_plan_geom *g, uint64_t cluster);
bool ba_plan_start_on_grid(const struct ba_plan_geom *g, uint64_t start);
void ba_plan_one(const struct ba_plan_geom *g, const struct ba_plan_input *in,
		 struct ba_plan_result *out);
/* The room of one partition (ba_plan_rooms). */
struct ba_plan_room {
	uint64_t limit;	    /* its end may not pass this byte */
	int next;	    /* the partition that bounds it, or -1 */
	uint64_t low;	    /* a move down: not below this; 0: never */
	uint64_t min_start; /* logical: a moved start not below this */
};

int ba_plan_rooms(const struct blkalign_device *d, uint64_t usable_start,
		  uint64_t usable_end, struct ba_plan_room *rooms);

/* The plan as built: pub is what the caller sees. */
struct ba_plan {
	struct blkalign_plan pub;
	struct blkalign_plan_part *parts;
	struct ba_pool pool;
	int *content; /* while building: the stack layer in each layer */
	bool nomem;   /* a command could not be recorded */
	/* made by blkalign_report_plan: pub.device is @held's, which the
	 * plan keeps alive with a reference to @report (ba_device_hold) */
	struct blkalign_report *report;
	struct ba_device *held;
};

#endif /* BLKALIGN_PLAN_H */
