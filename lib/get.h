/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * get.h - the bodies of the result getters (lib/get-*.c): one field of a
 * result struct (results.h), or one element of a list it holds, read
 * through a handle that may be NULL.  A NULL handle or an index past the
 * end reads as 0 or NULL.
 */
#ifndef BLKALIGN_GET_H
#define BLKALIGN_GET_H

#include "blkalignP.h"

/* blkalign_<obj>_get_<field>: the field's value. */
#define BA_GET(obj, type, field)                                          \
	type blkalign_##obj##_get_##field(const struct blkalign_##obj *x) \
	{                                                                 \
		return x ? x->field : 0;                                  \
	}

/* blkalign_<obj>_get_<name>: a struct the result holds, by address. */
#define BA_GET_REF(obj, type, name, field)                               \
	type blkalign_##obj##_get_##name(const struct blkalign_##obj *x) \
	{                                                                \
		return x ? &x->field : NULL;                             \
	}

/* blkalign_<obj>_get_<name>: element @i of the list @field of @count. */
#define BA_GET_AT(obj, type, name, field, count)                         \
	type blkalign_##obj##_get_##name(const struct blkalign_##obj *x, \
					 size_t i)                       \
	{                                                                \
		return x && i < x->count ? x->field[i] : 0;              \
	}

/* The same, the element by address. */
#define BA_GET_REF_AT(obj, type, name, field, count)                     \
	type blkalign_##obj##_get_##name(const struct blkalign_##obj *x, \
					 size_t i)                       \
	{                                                                \
		return x && i < x->count ? &x->field[i] : NULL;          \
	}

#endif /* BLKALIGN_GET_H */
