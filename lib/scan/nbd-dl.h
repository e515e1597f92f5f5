/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * nbd-dl.h - libnbd, loaded when a run first needs it (nbd-dl.c): most
 * runs read no image in a qemu format and no NBD URI, and libnbd costs a
 * process about 2.4 ms and 4 MiB at start-up (it pulls in gnutls,
 * libxml2, ICU and libstdc++).  libnbd.h gives the types and prototypes;
 * nbd.c calls libnbd only through these pointers, each of the type of
 * the function it stands for, set by ba_nbd_dl_load().
 */
#ifndef BLKALIGN_NBD_DL_H
#define BLKALIGN_NBD_DL_H

#include <libnbd.h>
#include <stddef.h>

/* The libnbd functions blkalign calls: X(name) for each. */
#define BA_NBD_DL_SYMBOLS(X)         \
	X(nbd_create)                \
	X(nbd_close)                 \
	X(nbd_get_errno)             \
	X(nbd_get_error)             \
	X(nbd_get_version)           \
	X(nbd_add_meta_context)      \
	X(nbd_supports_uri)          \
	X(nbd_aio_connect_unix)      \
	X(nbd_aio_connect_uri)       \
	X(nbd_aio_is_ready)          \
	X(nbd_aio_is_dead)           \
	X(nbd_aio_is_closed)         \
	X(nbd_aio_command_completed) \
	X(nbd_poll)                  \
	X(nbd_get_size)              \
	X(nbd_is_read_only)          \
	X(nbd_can_flush)             \
	X(nbd_can_meta_context)      \
	X(nbd_aio_pread)             \
	X(nbd_aio_pwrite)            \
	X(nbd_aio_block_status)      \
	X(nbd_aio_flush)

#define BA_NBD_DL_DECLARE(name) extern __typeof__(name) *sym_##name;
BA_NBD_DL_SYMBOLS(BA_NBD_DL_DECLARE)
#undef BA_NBD_DL_DECLARE

int ba_nbd_dl_load(const char *what, char *why, size_t len);

#endif
