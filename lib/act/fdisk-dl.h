/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fdisk-dl.h - libfdisk, loaded when fix first writes a table
 * (fdisk-dl.c): check, plan, model, trace and bench never call it, and
 * with libuuid it costs every process about 0.1 ms at start-up.
 * libfdisk.h gives the types and prototypes; fix-table.c and
 * fix-kernel.c call libfdisk only through these pointers, set by
 * ba_fdisk_dl_load().
 */
#ifndef BLKALIGN_FDISK_DL_H
#define BLKALIGN_FDISK_DL_H

#include <libfdisk/libfdisk.h>
#include <stddef.h>

/* The libfdisk functions blkalign calls: X(name) for each. */
#define BA_FDISK_DL_SYMBOLS(X)          \
	X(fdisk_new_context)            \
	X(fdisk_unref_context)          \
	X(fdisk_assign_device)          \
	X(fdisk_deassign_device)        \
	X(fdisk_get_devfd)              \
	X(fdisk_save_user_sector_size)  \
	X(fdisk_save_user_grain)        \
	X(fdisk_has_label)              \
	X(fdisk_is_labeltype)           \
	X(fdisk_set_first_lba)          \
	X(fdisk_write_disklabel)        \
	X(fdisk_get_partitions)         \
	X(fdisk_set_partition)          \
	X(fdisk_table_get_nents)        \
	X(fdisk_table_get_partition)    \
	X(fdisk_unref_table)            \
	X(fdisk_new_partition)          \
	X(fdisk_unref_partition)        \
	X(fdisk_partition_get_partno)   \
	X(fdisk_partition_get_start)    \
	X(fdisk_partition_get_size)     \
	X(fdisk_partition_set_start)    \
	X(fdisk_partition_set_size)     \
	X(fdisk_partition_is_container) \
	X(fdisk_new_script)             \
	X(fdisk_unref_script)           \
	X(fdisk_script_read_context)    \
	X(fdisk_script_write_file)

#define BA_FDISK_DL_DECLARE(name) extern __typeof__(name) *sym_##name;
BA_FDISK_DL_SYMBOLS(BA_FDISK_DL_DECLARE)
#undef BA_FDISK_DL_DECLARE

int ba_fdisk_dl_load(char *why, size_t len);

#endif
