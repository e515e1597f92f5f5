/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * size.c - byte counts for people: the one formatter behind every size
 * the text outputs print, in the style each output has always had
 * (trace's "1536", model's "1.5K", check's lsblk-like "1.5K" and "512B",
 * the findings' "1536 bytes" and bench's "1536-byte"), and bench's
 * latencies.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "blkalignP.h"

/* "64K", "1M" (@k "K", @m "M") or "64 KiB", "1 MiB"; -1 when not exact. */
static int exact(uint64_t bytes, const char *k, const char *m, char *buf,
		 size_t len)
{
	if (bytes && bytes % MIB == 0)
		return snprintf(buf, len, "%" PRIu64 "%s", bytes / MIB, m);
	if (bytes && bytes % KIB == 0)
		return snprintf(buf, len, "%" PRIu64 "%s", bytes / KIB, k);
	return -1;
}

/* One decimal of the largest unit up to M: "1.5K", "1.2M", "512". */
static int short_size(uint64_t bytes, char *buf, size_t len)
{
	if (bytes >= MIB)
		return snprintf(buf, len, "%.1fM", (double)bytes / (double)MIB);
	if (bytes >= KIB)
		return snprintf(buf, len, "%.1fK", (double)bytes / (double)KIB);
	return snprintf(buf, len, "%" PRIu64, bytes);
}

/* Like lsblk: one decimal of the largest unit up to E, "512B" below 1K. */
static int lsblk_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "BKMGTPE";
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		return snprintf(buf, len, "%" PRIu64 "B", bytes);
	return snprintf(buf, len, "%.1f%c", v, units[u]);
}

/**
 * blkalign_size_format: @bytes as text in @style, into @buf of @len bytes.
 * Returns: 0; -ENOSPC when the text did not fit (@buf holds what did);
 * -EINVAL on no buffer or an unknown style.
 */
int blkalign_size_format(uint64_t bytes, enum blkalign_size_style style,
			 char *buf, size_t len)
{
	int n;

	if (!buf || !len)
		return -EINVAL;
	switch (style) {
	case BLKALIGN_SIZE_EXACT:
		n = exact(bytes, "K", "M", buf, len);
		if (n < 0)
			n = snprintf(buf, len, "%" PRIu64, bytes);
		break;
	case BLKALIGN_SIZE_SHORT:
		n = exact(bytes, "K", "M", buf, len);
		if (n < 0)
			n = short_size(bytes, buf, len);
		break;
	case BLKALIGN_SIZE_LSBLK:
		n = lsblk_size(bytes, buf, len);
		break;
	case BLKALIGN_SIZE_WORDS:
	case BLKALIGN_SIZE_ADJECTIVE:
		n = exact(bytes, " KiB", " MiB", buf, len);
		if (n < 0)
			n = snprintf(buf, len, "%" PRIu64 "%s", bytes,
				     style == BLKALIGN_SIZE_WORDS ? " bytes"
								  : "-byte");
		break;
	default:
		buf[0] = '\0';
		return -EINVAL;
	}
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? 0 : -ENOSPC;
}

int blkalign_latency_format(uint64_t ns, char *buf, size_t len)
{
	int n;

	if (!buf || !len)
		return -EINVAL;
	if (ns >= 10000000)
		n = snprintf(buf, len, "%.1fms", (double)ns / 1e6);
	else if (ns >= 1000000)
		n = snprintf(buf, len, "%.2fms", (double)ns / 1e6);
	else
		n = snprintf(buf, len, "%.1fus", (double)ns / 1e3);
	if (n < 0)
		return -EINVAL;
	return (size_t)n < len ? 0 : -ENOSPC;
}

/* blkalign_size_format() for a printf argument: returns @buf. */
const char *ba_size_str(uint64_t bytes, enum blkalign_size_style style,
			char *buf, size_t len)
{
	blkalign_size_format(bytes, style, buf, len);
	return buf;
}
