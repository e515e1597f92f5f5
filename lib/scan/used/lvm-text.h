/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lvm-text.h - LVM2's metadata text (lvm-text.c), for the LVM used-extent
 * reader (lvm.c).
 */
#ifndef BLKALIGN_LVM_TEXT_H
#define BLKALIGN_LVM_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BA_LVM_TEXT_DEPTH 8 /* vg/logical_volumes/lv/segmentN is 4 */

enum ba_lvm_kind {
	BA_LVM_EOF,
	BA_LVM_WORD,
	BA_LVM_STR,
	BA_LVM_EQ,
	BA_LVM_OPEN,
	BA_LVM_CLOSE,
	BA_LVM_LBR,
	BA_LVM_RBR,
	BA_LVM_COMMA,
	BA_LVM_BAD
};

struct ba_lvm_tok {
	enum ba_lvm_kind kind;
	const char *p; /* a word, or a string's bytes between the quotes */
	size_t len;
};

/* The text being read, and where a message goes. */
struct ba_lvm_text {
	const char *t;
	size_t len, pos;
	char *why;
	size_t wlen;
};

/*
 * What a parse reports, in the text's order.  @path[0..depth) names the
 * sections from the outermost: push has the one just opened last, pop
 * the one about to close.  value: key = @v in the innermost section,
 * @idx the item's index in a list (key = [v, ...]), -1 for a scalar.
 * A non-zero return stops the parse with it.
 */
struct ba_lvm_text_ops {
	int (*push)(void *arg, const struct ba_lvm_tok *path, int depth);
	int (*pop)(void *arg, const struct ba_lvm_tok *path, int depth);
	int (*value)(void *arg, const struct ba_lvm_tok *path, int depth,
		     const struct ba_lvm_tok *key, const struct ba_lvm_tok *v,
		     int64_t idx);
};

/* One pass over @x's text from its start: 0, a callback's return, or
 * -EBADMSG (with @x->why) on syntax lvm does not write. */
int ba_lvm_text_parse(struct ba_lvm_text *x, const struct ba_lvm_text_ops *ops,
		      void *arg);

/* -EBADMSG, @x->why saying @what is wrong and at which byte. */
int ba_lvm_text_bad(struct ba_lvm_text *x, const char *what);

/* @k as a decimal number of at most 2^63 - 1 (else ba_lvm_text_bad). */
int ba_lvm_text_num(struct ba_lvm_text *x, const struct ba_lvm_tok *k,
		    uint64_t *v);

/* @k's bytes are @s; @a's are @b's. */
bool ba_lvm_tok_is(const struct ba_lvm_tok *k, const char *s);
bool ba_lvm_tok_same(const struct ba_lvm_tok *a, const struct ba_lvm_tok *b);

#endif /* BLKALIGN_LVM_TEXT_H */
