/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * check.c - `check` as a pipeline: scan each target into a device record
 * (scan/), judge it (analyze/: the rules), publish it into the report
 * with its status bits.  Only scan/ reads devices and sysfs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/analyze.h"
#include "scan/scan.h"

/*
 * A finding lost (out of memory) makes a report that cannot be trusted
 * whole: it says so, and the status says it is incomplete even when the
 * problem cannot be recorded either.
 */
static void say_lost(struct blkalign_report *r, struct ba_device *d)
{
	size_t lost = d->findings_lost + d->findings_unrendered;

	if (!lost)
		return;
	ba_device_problem(d,
			  "%zu finding(s) could not be recorded: out of "
			  "memory",
			  lost);
	d->pub.problems = d->problems;
	d->pub.nproblems = d->nproblems;
	r->status |= BLKALIGN_STATUS_INCOMPLETE;
}

/* Judge and publish the records scanned since @first. */
void ba_check_finish(struct blkalign_report *r, size_t first)
{
	for (size_t i = first; i < r->ndevices; i++) {
		struct ba_device *d = r->devices[i];

		if (d->scanned)
			ba_rules_run(d);
		ba_device_publish(d);
		say_lost(r, d);
		if (d->pub.failed) {
			/* why is in its problems; the bit says it all */
			r->status |= BLKALIGN_STATUS_FAILED;
			continue;
		}
		for (size_t k = 0; k < d->pub.nfindings; k++)
			if (d->pub.findings[k].severity != BLKALIGN_INFO)
				r->status |= BLKALIGN_STATUS_FINDINGS;
		if (d->nproblems)
			r->status |= BLKALIGN_STATUS_INCOMPLETE;
	}
}

/**
 * blkalign_check_path: audit one image file or block device (or, with a
 * sysroot, the named device of the saved tree) and add it to @r.
 * Returns: 0 (findings and unreadable parts are in the report), or
 * -errno when the target cannot be opened at all.
 */
int blkalign_check_path(struct blkalign_report *r, const char *path)
{
	size_t first;
	int rc;

	if (!r || !path)
		return -EINVAL;
	first = r->ndevices;
	rc = ba_scan_path(r, path);
	ba_check_finish(r, first);
	return rc;
}

/*
 * Whether the record @d of a file holds a disk image: a qemu format, or
 * raw with a partition table or contents the scan found (a file system,
 * md, LVM, LUKS...).  One that could not be opened or read whole is
 * reported, not skipped: what it is is not known.
 */
static bool holds_image(const struct ba_device *d)
{
	if (d->pub.failed || d->pub.is_block_device || d->nproblems)
		return true;
	if (d->pub.image_format && strcmp(d->pub.image_format, "raw"))
		return true;
	return d->pub.scheme || d->nlayers > 1;
}

/**
 * blkalign_check_if_image: audit @path, a file found in a directory or a
 * list, when it holds a disk image (holds_image()), as
 * blkalign_check_path() does; else record it as skipped, with why.
 * Returns: 0, BLKALIGN_CHECK_SKIPPED (nothing audited, the status
 * unchanged), or -errno as blkalign_check_path().
 */
int blkalign_check_if_image(struct blkalign_report *r, const char *path)
{
	struct ba_device *d;
	size_t first;
	int rc;

	if (!r || !path)
		return -EINVAL;
	first = r->ndevices;
	rc = ba_scan_path(r, path);
	if (r->ndevices == first + 1 && !holds_image(r->devices[first])) {
		d = r->devices[--r->ndevices];
		ba_device_release(d);
		free(d);
		rc = blkalign_report_skip(r, path,
					  "not a disk image: raw, with no "
					  "partition table or known contents");
		return rc ? rc : BLKALIGN_CHECK_SKIPPED;
	}
	ba_check_finish(r, first);
	return rc;
}

/**
 * ba_check_image_nbd: audit the image file @path in a qemu format through
 * @n, a connection to it that fix holds, as blkalign_check_path.
 */
int ba_check_image_nbd(struct blkalign_report *r, const char *path,
		       struct ba_nbd *n)
{
	size_t first;
	int rc;

	if (!r || !path || !n)
		return -EINVAL;
	first = r->ndevices;
	rc = ba_scan_image_nbd(r, path, n);
	ba_check_finish(r, first);
	return rc;
}

/**
 * blkalign_check_all: audit every block device of the machine (or of the
 * sysroot) that has a size, like lsblk.  Devices that cannot be opened
 * are audited from sysfs and marked incomplete.
 * Returns: 0 or -errno when the device list cannot be read.
 */
int blkalign_check_all(struct blkalign_report *r)
{
	size_t first;
	int rc;

	if (!r)
		return -EINVAL;
	first = r->ndevices;
	rc = ba_scan_all(r);
	ba_check_finish(r, first);
	return rc;
}

/**
 * blkalign_check_saved: the devices of a report saved by `check --json`
 * (@file), all of them or the one whose path or name is @target, judged
 * again by the rules and added to @r.  Nothing is opened but @file.
 * Returns: 0, -ENOENT (no device @target in it), -EINVAL (not such a
 * report; the context's log says why), -ENOMEM or -errno.
 */
int blkalign_check_saved(struct blkalign_report *r, const char *file,
			 const char *target)
{
	size_t first;
	int rc;

	if (!r || !file)
		return -EINVAL;
	first = r->ndevices;
	rc = ba_scan_saved(r, file, target);
	ba_check_finish(r, first);
	return rc;
}
