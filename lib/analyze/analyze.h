/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * analyze.h - what analyze/ offers the stages after it: the model's
 * costs and the rules that turn a device record into findings.  Pure:
 * records in, records out (tests/ts/docs/stages).
 */
#ifndef BLKALIGN_ANALYZE_H
#define BLKALIGN_ANALYZE_H

#include "blkalignP.h"

/* A cost and the request sizes its pub.sizes points to. */
struct ba_model_cost {
	struct blkalign_model_cost pub;
	struct blkalign_size_count sizes[BA_SIZES_LISTED];
};

/* A model and the request sizes its costs point to; never copied. */
struct ba_model {
	struct blkalign_model pub;
	struct blkalign_size_count sizes[2][BA_SIZES_LISTED];
};

int ba_model_cost(const struct blkalign_model_geometry *g,
		  const struct blkalign_model_layer *l,
		  const struct blkalign_workload *w, enum blkalign_kernel k,
		  struct ba_model_cost *out);
int ba_model_run(const struct blkalign_model_geometry *g,
		 const struct blkalign_model_layer *l,
		 const struct blkalign_workload *w, enum blkalign_kernel k,
		 struct ba_model *out);

/* The model's other sized inputs, the layer and the workload: in and
 * out of the full struct (analyze/model.c), and their first sizes. */
int ba_model_sized_in(void *copy, size_t full, const void *in, size_t min);
int ba_model_sized_out(void *out, const void *full, size_t n, size_t min);
#define BA_MODEL_LAYER_SIZE0 \
	BA_SIZE_THROUGH(struct blkalign_model_layer, raid_members_misaligned)
#define BA_WORKLOAD_SIZE0 BA_SIZE_THROUGH(struct blkalign_workload, total)
int ba_model_align_layer(const struct blkalign_model_geometry *g,
			 const struct blkalign_model_layer *l,
			 struct blkalign_model_layer *out);

/* A caller's model geometry (sized) in and out of the full struct. */
int ba_model_geometry_in(struct blkalign_model_geometry *copy,
			 const struct blkalign_model_geometry *in);
void ba_model_geometry_out(struct blkalign_model_geometry *g,
			   const struct blkalign_model_geometry *full);

/* Rules: findings from the layers and the topology. */
void ba_rules_run(struct ba_device *d);
void ba_rules_table_run(struct ba_device *d);
void ba_rules_stack_run(struct ba_device *d);
void ba_rules_image_run(struct ba_device *d);
uint64_t ba_image_grid(const struct blkalign_device *d);
/* A filesystem of this libblkid type sets the soft block size of what it
 * is mounted on (rules.c; plan.c sizes its partition by it). */
bool ba_fs_sets_soft_block(const char *type);

#endif /* BLKALIGN_ANALYZE_H */
