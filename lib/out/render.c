/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * render.c - a finding's texts, made from the message table
 * (messages.c) and the finding's data when its record is published.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out/out.h"

/* A growing string; oom set once an append failed. */
struct text {
	char *s;
	size_t len, cap;
	bool oom;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->oom)
		return;
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *p;

		while (cap < t->len + n + 1)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p) {
			t->oom = true;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
}

static void puts_(struct text *t, const char *s)
{
	/* as printf's %s prints a NULL string */
	s = s ? s : "(null)";
	put(t, s, strlen(s));
}

struct scope {
	const struct ba_device *d;
	const struct ba_finding *f;
	int depth; /* {resize} inside {resize}: a table bug, stopped */
};

static const char *layer_name(const struct ba_device *d, int i)
{
	return i >= 0 && (size_t)i < d->nlayers ? d->layers[i].name : NULL;
}

/* The number a placeholder names, or false for an unknown one. */
static bool number(const struct ba_finding *f, const char *key, uint64_t *out)
{
	static const char *const args[BA_FINDING_NARGS] = {"a0", "a1", "a2",
							   "a3", "a4", "a5"};
	const struct {
		const char *key;
		uint64_t v;
	} named[] = {
		{"value", f->pub.value},
		{"gran", f->pub.granularity},
		{"rem", f->pub.remainder},
		{"sugg", f->pub.suggested},
		{"unit", f->unit},
		{"sector", f->sector},
		{"soft", f->pub.soft_block_size},
		{"cap", f->pub.request_cap},
		{"capa", f->pub.request_cap_aligned},
	};

	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (!strcmp(key, named[i].key)) {
			*out = named[i].v;
			return true;
		}
	for (size_t i = 0; i < BA_FINDING_NARGS; i++)
		if (!strcmp(key, args[i])) {
			*out = f->arg[i];
			return true;
		}
	return false;
}

static int expand(struct text *t, struct scope *sc, enum ba_text id);

/* A number in the form @mod asks for ("", "h", "d", "x2"). */
static int put_number(struct text *t, const char *mod, uint64_t v)
{
	char buf[40];

	if (!*mod)
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
	else if (!strcmp(mod, "h"))
		ba_size_str(v, BLKALIGN_SIZE_WORDS, buf, sizeof(buf));
	else if (!strcmp(mod, "d"))
		snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)v);
	else if (!strcmp(mod, "x2"))
		snprintf(buf, sizeof(buf), "%02x", (unsigned)v);
	else
		return -EINVAL;
	puts_(t, buf);
	return 0;
}

/* One placeholder, "mod:key" or "key". */
static int placeholder(struct text *t, struct scope *sc, const char *ph)
{
	const struct ba_finding *f = sc->f;
	const struct ba_device *d = sc->d;
	const char *colon = strchr(ph, ':');
	char mod[8] = "";
	const char *key = ph;
	uint64_t v;

	if (colon) {
		if ((size_t)(colon - ph) >= sizeof(mod))
			return -EINVAL;
		memcpy(mod, ph, (size_t)(colon - ph));
		mod[colon - ph] = '\0';
		key = colon + 1;
	}
	if (number(f, key, &v))
		return put_number(t, mod, v);
	if (*mod)
		return -EINVAL;
	if (!strcmp(key, "name"))
		puts_(t, layer_name(d, f->pub.layer));
	else if (!strcmp(key, "other"))
		puts_(t, layer_name(d, f->other));
	else if (!strcmp(key, "dev"))
		puts_(t, d->pub.name);
	else if (key[0] == 's' && key[1] >= '0' &&
		 key[1] < '0' + BA_FINDING_NSTRS && !key[2])
		puts_(t, f->str[key[1] - '0']);
	else if (!strcmp(key, "ratio")) {
		char buf[32];

		snprintf(buf, sizeof(buf), "%.1f",
			 f->pub.request_cap
				 ? (double)f->pub.request_cap_aligned /
					   (double)f->pub.request_cap
				 : 0.0);
		puts_(t, buf);
	} else if (!strcmp(key, "what") || !strcmp(key, "hint")) {
		if (f->pub.layer < 0 || (size_t)f->pub.layer >= d->nlayers)
			return -EINVAL;
		puts_(t, key[0] == 'w'
				 ? ba_message_what(&d->layers[f->pub.layer])
				 : ba_message_hint(&d->layers[f->pub.layer]));
	} else if (!strcmp(key, "resize")) {
		if (sc->depth > 1)
			return -EINVAL;
		return expand(t, sc, f->resize);
	} else
		return -EINVAL;
	return 0;
}

/* Copy template @id into @t, its placeholders filled in. */
static int expand(struct text *t, struct scope *sc, enum ba_text id)
{
	const char *s = ba_message_text(id);
	int rc = 0;

	if (!s)
		return -EINVAL;
	sc->depth++;
	while (*s && !rc) {
		const char *open = strchr(s, '{'), *close;
		char ph[16];

		if (!open) {
			puts_(t, s);
			break;
		}
		put(t, s, (size_t)(open - s));
		close = strchr(open, '}');
		if (!close || (size_t)(close - open - 1) >= sizeof(ph)) {
			rc = -EINVAL;
			break;
		}
		memcpy(ph, open + 1, (size_t)(close - open - 1));
		ph[close - open - 1] = '\0';
		rc = placeholder(t, sc, ph);
		s = close + 1;
	}
	sc->depth--;
	return rc;
}

/**
 * ba_finding_render: @out becomes @f as the report shows it, its message,
 * explanation and fix made from the message table into @d's pool.
 * Returns: 0, -EINVAL for a text the table does not have or a
 * placeholder it cannot fill (a bug: test-rules renders every finding),
 * or -ENOMEM.
 */
int ba_finding_render(struct ba_device *d, const struct ba_finding *f,
		      struct blkalign_finding *out)
{
	const char **dst[BA_NSAY] = {&out->message, &out->explanation,
				     &out->fix};
	struct scope sc = {.d = d, .f = f};

	*out = f->pub;
	for (int i = 0; i < BA_NSAY; i++) {
		struct text t = {0};
		int rc = expand(&t, &sc, f->text[i]);

		if (!rc && t.oom)
			rc = -ENOMEM;
		if (!rc &&
		    !(*dst[i] = ba_pool_strdup(&d->pool, t.s ? t.s : "")))
			rc = -ENOMEM;
		free(t.s);
		if (rc)
			return rc;
	}
	return 0;
}
