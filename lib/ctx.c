/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ctx.c - the library context: options that would otherwise be global
 * (sysroot, image geometry, page size, log callback).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "blkalignP.h"

/**
 * blkalign_ctx_new: allocate a context with one reference.
 * Returns: the context, or NULL when out of memory.
 */
struct blkalign_ctx *blkalign_ctx_new(void)
{
	struct blkalign_ctx *ctx = calloc(1, sizeof(*ctx));
	long page;

	if (!ctx)
		return NULL;
	ctx->refcount = 1;
	page = sysconf(_SC_PAGESIZE);
	ctx->page_size = page > 0 ? (uint32_t)page : 4096;
	return ctx;
}

void blkalign_ctx_ref(struct blkalign_ctx *ctx)
{
	if (ctx)
		ctx->refcount++;
}

void blkalign_ctx_unref(struct blkalign_ctx *ctx)
{
	if (!ctx || --ctx->refcount > 0)
		return;
	free(ctx->sysroot);
	free(ctx);
}

/**
 * blkalign_ctx_set_sysroot: read sysfs below @dir instead of /sys (a tree
 * saved the way lsblk --sysroot expects).  Devices are then not opened.
 * Returns: 0, -ENOTDIR (no sys/block below @dir), -EINVAL or -ENOMEM.
 */
int blkalign_ctx_set_sysroot(struct blkalign_ctx *ctx, const char *dir)
{
	char *copy = NULL, block[4200];
	struct stat st;

	if (!ctx)
		return -EINVAL;
	if (dir) {
		/* a saved tree has sys/block below it */
		snprintf(block, sizeof(block), "%s/sys/block", dir);
		if (stat(block, &st) || !S_ISDIR(st.st_mode))
			return -ENOTDIR;
		copy = strdup(dir);
		if (!copy)
			return -ENOMEM;
	}
	free(ctx->sysroot);
	ctx->sysroot = copy;
	return 0;
}

/**
 * blkalign_ctx_set_image_geometry: the topology assumed for image files.
 * Returns: 0, or -EINVAL when a value is impossible (sector sizes must be
 * powers of two from 512 to 64 KiB, physical >= logical, I/O sizes
 * multiples of the logical sector, the offset inside a physical sector).
 */
int blkalign_ctx_set_image_geometry(struct blkalign_ctx *ctx,
				    const struct blkalign_image_geometry *given)
{
	struct blkalign_image_geometry copy, *g = &copy;
	uint32_t lss, pss;

	if (!ctx || !given ||
	    ba_sized_copy(&copy, sizeof(copy), given, BA_IMAGE_GEOMETRY_SIZE0))
		return -EINVAL;
	lss = g->logical_sector_size ? g->logical_sector_size : 512;
	pss = g->physical_sector_size ? g->physical_sector_size : lss;
	if (!ba_is_pow2(lss) || lss < 512 || lss > 65536)
		return -EINVAL;
	if (!ba_is_pow2(pss) || pss < lss || pss > 65536)
		return -EINVAL;
	if (g->minimum_io_size % lss || g->optimal_io_size % lss)
		return -EINVAL;
	if (g->alignment_offset < 0 || (uint32_t)g->alignment_offset >= pss ||
	    g->alignment_offset % lss)
		return -EINVAL;
	ctx->image = copy;
	return 0;
}

/**
 * blkalign_ctx_set_page_size: the page size the soft-block-size rule uses
 * (default: this machine's).  Returns: 0 or -EINVAL.
 */
int blkalign_ctx_set_page_size(struct blkalign_ctx *ctx, uint32_t bytes)
{
	if (!ctx || !ba_is_pow2(bytes) || bytes < 512 || bytes > 65536)
		return -EINVAL;
	ctx->page_size = bytes;
	return 0;
}

/**
 * blkalign_ctx_set_used_maps: whether a scan reads the map of used
 * blocks of each partition's contents (blkalign_layer.map_bytes), as
 * fix would read it to copy only those; plan sets it.  Off by default:
 * it reads the filesystems' bitmaps, more than an audit needs.
 */
void blkalign_ctx_set_used_maps(struct blkalign_ctx *ctx, bool on)
{
	if (ctx)
		ctx->used_maps = on;
}

void blkalign_ctx_set_log_fn(struct blkalign_ctx *ctx, blkalign_log_fn fn,
			     void *data)
{
	if (!ctx)
		return;
	ctx->log_fn = fn;
	ctx->log_data = data;
}

int blkalign_ctx_set_word(struct blkalign_ctx *ctx, enum blkalign_word w,
			  const char *text)
{
	if (!ctx || (unsigned int)w >= BLKALIGN_WORD_COUNT)
		return -EINVAL;
	ctx->words[w] = text;
	return 0;
}

const char *ba_word(const struct blkalign_ctx *ctx, enum blkalign_word w)
{
	static const char *const api[BLKALIGN_WORD_COUNT] = {
		[BLKALIGN_WORD_COPY_ALL] = "blkalign_fix_opts.copy_all",
		[BLKALIGN_WORD_RESUME] = "blkalign_fix_resume",
		[BLKALIGN_WORD_ROLLBACK] = "blkalign_fix_resume(rollback)",
		[BLKALIGN_WORD_INSPECT] = "blkalign_fix_inspect",
		[BLKALIGN_WORD_JOURNAL] = "blkalign_fix_opts.journal",
		[BLKALIGN_WORD_PARTITION] = "blkalign_fix_disk(partition)",
		[BLKALIGN_WORD_FIX_RESUME] = "blkalign_fix_resume",
		[BLKALIGN_WORD_FIX_INSPECT] = "blkalign_fix_inspect",
		[BLKALIGN_WORD_SECTOR_SIZE] =
			"blkalign_image_geometry.logical_sector_size",
		[BLKALIGN_WORD_PROGRAM] = "libblkalign",
		[BLKALIGN_WORD_CHECK_JSON] = "blkalign_report_write_json",
	};

	if ((unsigned int)w >= BLKALIGN_WORD_COUNT)
		return "";
	return ctx && ctx->words[w] ? ctx->words[w] : api[w];
}

void ba_log(const struct blkalign_ctx *ctx, const char *fmt, ...)
{
	char buf[512], *msg = NULL;
	va_list ap;
	int n;

	if (!ctx || !ctx->log_fn)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		/* a long one (paths, findings quoted whole): not cut */
		va_start(ap, fmt);
		if (vasprintf(&msg, fmt, ap) < 0)
			msg = NULL;
		va_end(ap);
	}
	ctx->log_fn(ctx->log_data, msg ? msg : buf);
	free(msg);
}

const char *blkalign_version(void)
{
	return BLKALIGN_VERSION;
}
