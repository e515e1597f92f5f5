/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fuzz.h - the libFuzzer entry point every target defines; replay.c
 * calls it on files when the target is built without libFuzzer.
 */
#ifndef BLKALIGN_FUZZ_H
#define BLKALIGN_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the code under test failed: crash so the fuzzer (or
 * the replay) reports the input. */
#define FUZZ_CHECK(cond)                                      \
	do {                                                  \
		if (!(cond))                                  \
			fuzz_fail(__FILE__, __LINE__, #cond); \
	} while (0)

void fuzz_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

uint32_t fuzz_le32(const uint8_t *p);
bool fuzz_next_chunk(const uint8_t *data, size_t size, size_t *at,
		     uint32_t *off, size_t *len);

#endif /* BLKALIGN_FUZZ_H */
