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

/*
 * A file of the packed inputs (fuzz_next_chunk's chunks from @at on,
 * zeros elsewhere), read through a struct ba_io without ever being
 * built: its size is @size raised to hold every chunk, capped at @max.
 * NULL only when out of memory.
 */
struct ba_io;
struct ba_io *fuzz_file_new(const uint8_t *data, size_t len, size_t at,
			    uint64_t size, uint64_t max);
void fuzz_file_patch(struct ba_io *io, uint64_t off, const void *buf,
		     size_t len);
void fuzz_file_free(struct ba_io *io);

#endif /* BLKALIGN_FUZZ_H */
