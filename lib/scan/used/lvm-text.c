/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lvm-text.c - LVM2's metadata text (lvm2 lib/format_text/export.c,
 * import_vsn1.c; the config syntax of lib/config/config.c): sections
 * `name {`...`}`, `key = value` and `key = [v, ...]`, values words or
 * quoted strings, `#` comments.  One iterative, bounded parser over the
 * buffer, without recursion (sections at most BA_LVM_TEXT_DEPTH deep),
 * that hands each section and value to the caller's callbacks
 * (lvm-text.h); what they mean is lvm.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "used/lvm-text.h"

static bool is_word(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
	       ch == '+' || ch == '-';
}

static struct ba_lvm_tok lex(struct ba_lvm_text *x)
{
	const char *t = x->t;
	struct ba_lvm_tok k = {BA_LVM_EOF, NULL, 0};

	for (;;) {
		while (x->pos < x->len &&
		       (t[x->pos] == ' ' || t[x->pos] == '\t' ||
			t[x->pos] == '\n' || t[x->pos] == '\r'))
			x->pos++;
		if (x->pos < x->len && t[x->pos] == '#') {
			while (x->pos < x->len && t[x->pos] != '\n')
				x->pos++;
			continue;
		}
		break;
	}
	if (x->pos >= x->len || t[x->pos] == '\0')
		return k;
	k.p = t + x->pos;
	switch (t[x->pos]) {
	case '=':
		k.kind = BA_LVM_EQ;
		break;
	case '{':
		k.kind = BA_LVM_OPEN;
		break;
	case '}':
		k.kind = BA_LVM_CLOSE;
		break;
	case '[':
		k.kind = BA_LVM_LBR;
		break;
	case ']':
		k.kind = BA_LVM_RBR;
		break;
	case ',':
		k.kind = BA_LVM_COMMA;
		break;
	case '"': {
		size_t i = x->pos + 1;

		while (i < x->len && t[i] != '"' && t[i] != '\0')
			i += t[i] == '\\' && i + 1 < x->len ? 2 : 1;
		if (i >= x->len || t[i] != '"') {
			k.kind = BA_LVM_BAD;
			return k;
		}
		k.kind = BA_LVM_STR;
		k.p = t + x->pos + 1;
		k.len = i - x->pos - 1;
		x->pos = i + 1;
		return k;
	}
	default:
		if (!is_word(t[x->pos])) {
			k.kind = BA_LVM_BAD;
			return k;
		}
		k.kind = BA_LVM_WORD;
		while (x->pos < x->len && is_word(t[x->pos])) {
			x->pos++;
			k.len++;
		}
		return k;
	}
	x->pos++;
	k.len = 1;
	return k;
}

bool ba_lvm_tok_is(const struct ba_lvm_tok *k, const char *s)
{
	size_t n = strlen(s);

	return k->len == n && !memcmp(k->p, s, n);
}

bool ba_lvm_tok_same(const struct ba_lvm_tok *a, const struct ba_lvm_tok *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

int ba_lvm_text_bad(struct ba_lvm_text *x, const char *what)
{
	snprintf(x->why, x->wlen,
		 "its metadata text is not what lvm writes (%s, byte %zu)",
		 what, x->pos);
	return -EBADMSG;
}

int ba_lvm_text_num(struct ba_lvm_text *x, const struct ba_lvm_tok *k,
		    uint64_t *v)
{
	*v = 0;
	if (k->kind != BA_LVM_WORD || !k->len)
		return ba_lvm_text_bad(x, "a number expected");
	for (size_t i = 0; i < k->len; i++) {
		if (k->p[i] < '0' || k->p[i] > '9' || *v > (INT64_MAX - 9) / 10)
			return ba_lvm_text_bad(x, "a number expected");
		*v = *v * 10 + (uint64_t)(k->p[i] - '0');
	}
	return 0;
}

int ba_lvm_text_parse(struct ba_lvm_text *x, const struct ba_lvm_text_ops *ops,
		      void *arg)
{
	struct ba_lvm_tok path[BA_LVM_TEXT_DEPTH], k, key, v;
	int depth = 0, rc;

	x->pos = 0;
	for (;;) {
		k = lex(x);
		if (k.kind == BA_LVM_EOF)
			return depth ? ba_lvm_text_bad(x,
						       "a section not closed")
				     : 0;
		if (k.kind == BA_LVM_CLOSE) {
			if (!depth)
				return ba_lvm_text_bad(x, "a '}' too many");
			rc = ops->pop(arg, path, depth);
			if (rc)
				return rc;
			depth--;
			continue;
		}
		if (k.kind != BA_LVM_WORD)
			return ba_lvm_text_bad(x, "a name expected");
		key = k;
		k = lex(x);
		if (k.kind == BA_LVM_OPEN) {
			if (depth == BA_LVM_TEXT_DEPTH)
				return ba_lvm_text_bad(x, "sections too deep");
			path[depth++] = key;
			rc = ops->push(arg, path, depth);
			if (rc)
				return rc;
			continue;
		}
		if (k.kind != BA_LVM_EQ)
			return ba_lvm_text_bad(x, "'=' or '{' expected");
		v = lex(x);
		if (v.kind == BA_LVM_WORD || v.kind == BA_LVM_STR) {
			rc = ops->value(arg, path, depth, &key, &v, -1);
			if (rc)
				return rc;
			continue;
		}
		if (v.kind != BA_LVM_LBR)
			return ba_lvm_text_bad(x, "a value expected");
		for (int64_t idx = 0;; idx++) {
			v = lex(x);
			if (v.kind == BA_LVM_RBR && idx == 0)
				break;
			if (v.kind != BA_LVM_WORD && v.kind != BA_LVM_STR)
				return ba_lvm_text_bad(x,
						       "a list item expected");
			rc = ops->value(arg, path, depth, &key, &v, idx);
			if (rc)
				return rc;
			k = lex(x);
			if (k.kind == BA_LVM_RBR)
				break;
			if (k.kind != BA_LVM_COMMA)
				return ba_lvm_text_bad(x,
						       "',' or ']' expected");
		}
	}
}
