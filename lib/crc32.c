/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * crc32.c - the CRC-32 of UEFI (ISO 3309, reflected polynomial 0xEDB88320)
 * that guards GPT headers and entry arrays (table built on first use),
 * and the CRC-32C (Castagnoli, reflected 0x82F63B78) of VHDX headers and
 * region tables (MS-VHDX §2.2.2; bitwise: 64 KiB once per image).
 */
#include "blkalignP.h"

static uint32_t table[256];
static bool table_ready;

static void build_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	table_ready = true;
}

/* Continue a CRC: start with crc = 0 for a new buffer. */
uint32_t ba_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!table_ready)
		build_table();
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

/* The CRC-32C of @len bytes at @buf (init and final xor ~0). */
uint32_t ba_crc32c(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = 0xffffffffU;

	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82F63B78U & (0U - (c & 1)));
	}
	return ~c;
}
