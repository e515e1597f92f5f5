/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * version.c - which libblkalign is running (blkalign-version.h says which
 * one a program was built against).
 */
#include "blkalign.h"

/**
 * blkalign_get_library_version: the version of this library, as text
 * ("0.1.0"), and its parts in @major, @minor and @patch where given.
 */
const char *blkalign_get_library_version(int *major, int *minor, int *patch)
{
	if (major)
		*major = BLKALIGN_VERSION_MAJOR;
	if (minor)
		*minor = BLKALIGN_VERSION_MINOR;
	if (patch)
		*patch = BLKALIGN_VERSION_PATCH;
	return BLKALIGN_VERSION;
}
