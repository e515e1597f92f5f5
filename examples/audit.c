/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audit.c - libblkalign's C API in one program (docs/libblkalign.md): audit
 * the disks and images named on the command line, print each one's
 * layers and findings, and, for a single disk, the plan that would align
 * it.  Exits with the report's status, as blkalign check does.
 *
 *   cc -o audit audit.c $(pkg-config --cflags --libs blkalign)
 *   ./audit [-p PHYSICAL-SECTOR-SIZE] disk.img...
 *
 * An image file has no drive under it: -p says what the drive it will be
 * written to has (512e and 4Kn drives: 4096), as check's
 * --physical-sector-size does.
 */
#define _POSIX_C_SOURCE 200809L /* getopt */

#include <blkalign.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The library never prints: what it would say comes here. */
static void say(void *data, const char *msg)
{
	fprintf(stderr, "%s: %s\n", (const char *)data, msg);
}

static void print_device(const struct blkalign_device *d)
{
	const struct blkalign_topology *t = blkalign_device_get_topology(d);
	size_t i;

	if (blkalign_device_get_failed(d)) {
		/* not audited at all: what could not be read, and why */
		for (i = 0; i < blkalign_device_get_nproblems(d); i++)
			printf("%s: %s\n", blkalign_device_get_path(d),
			       blkalign_device_get_problem(d, i));
		return;
	}
	printf("%s: %" PRIu64 " bytes, %s table, %" PRId64
	       "-byte physical sectors\n",
	       blkalign_device_get_name(d), blkalign_device_get_size(d),
	       blkalign_device_get_scheme(d) ? blkalign_device_get_scheme(d)
					     : "no",
	       blkalign_topology_get(t, BLKALIGN_TOPO_PHYSICAL_SECTOR_SIZE,
				     NULL));
	for (i = 0; i < blkalign_device_get_nlayers(d); i++) {
		const struct blkalign_layer *l =
			blkalign_device_get_layer(d, i);

		printf("  layer %s %s start %" PRIu64 " size %" PRIu64 "\n",
		       blkalign_layer_get_name(l),
		       blkalign_layer_kind_name(blkalign_layer_get_kind(l)),
		       blkalign_layer_get_start(l), blkalign_layer_get_size(l));
	}
	/* worst first; a finding names its layer by index */
	for (i = 0; i < blkalign_device_get_nfindings(d); i++) {
		const struct blkalign_finding *f =
			blkalign_device_get_finding(d, i);
		const struct blkalign_layer *l = blkalign_device_get_layer(
			d, (size_t)blkalign_finding_get_layer(f));

		printf("  %s %s on %s: %s\n",
		       blkalign_severity_name(blkalign_finding_get_severity(f)),
		       blkalign_finding_get_code(f), blkalign_layer_get_name(l),
		       blkalign_finding_get_message(f));
	}
}

static void print_plan(struct blkalign_report *r)
{
	struct blkalign_plan *p;
	size_t i;

	/* a plan is made from a report that holds one disk or image */
	if (blkalign_report_plan(r, "plan", 0, &p) < 0)
		return;
	for (i = 0; i < blkalign_plan_get_nparts(p); i++) {
		const struct blkalign_plan_part *pt =
			blkalign_plan_get_part(p, i);

		printf("  plan %s: %s, start %" PRIu64 " -> %" PRIu64
		       ", size %" PRIu64 " -> %" PRIu64 "\n",
		       blkalign_plan_part_get_name(pt),
		       blkalign_plan_action_name(
			       blkalign_plan_part_get_action(pt)),
		       blkalign_plan_part_get_old_start(pt),
		       blkalign_plan_part_get_new_start(pt),
		       blkalign_plan_part_get_old_size(pt),
		       blkalign_plan_part_get_new_size(pt));
	}
	blkalign_plan_free(p);
}

int main(int argc, char **argv)
{
	/* a struct the caller fills starts from its _INIT: it sets the size */
	struct blkalign_image_geometry geom = BLKALIGN_IMAGE_GEOMETRY_INIT;
	struct blkalign_ctx *ctx;
	struct blkalign_report *r;
	unsigned int status;
	int opt, rc, i;

	while ((opt = getopt(argc, argv, "p:")) != -1) {
		if (opt != 'p')
			return 16;
		geom.physical_sector_size = (uint32_t)strtoul(optarg, NULL, 0);
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: %s [-p BYTES] DISK-OR-IMAGE...\n",
			argv[0]);
		return 16;
	}
	printf("libblkalign %s, built against %s\n",
	       blkalign_get_library_version(NULL, NULL, NULL),
	       BLKALIGN_VERSION);

	ctx = blkalign_ctx_new();
	if (!ctx)
		return 4;
	blkalign_ctx_set_log_fn(ctx, say, argv[0]);
	if (blkalign_ctx_set_image_geometry(ctx, &geom) < 0) {
		fprintf(stderr, "%s: bad physical sector size\n", argv[0]);
		blkalign_ctx_unref(ctx);
		return 16;
	}
	r = blkalign_report_new(ctx);
	if (!r) {
		blkalign_ctx_unref(ctx);
		return 4;
	}
	for (i = optind; i < argc; i++) {
		/* a target that cannot be opened is still in the report: a
		 * failed device with its problems (printed below) */
		rc = blkalign_check_path(r, argv[i]);
		if (rc < 0 && rc != -ENOENT && rc != -EACCES)
			fprintf(stderr, "%s: %s\n", argv[i], strerror(-rc));
	}
	for (size_t d = 0; d < blkalign_report_ndevices(r); d++)
		print_device(blkalign_report_device(r, d));
	if (optind == argc - 1)
		print_plan(r);

	/* bits: 1 findings, 2 incomplete, 4 failed (blkalign(8)) */
	status = blkalign_report_status(r);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
	return (int)status;
}
