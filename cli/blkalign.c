/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blkalign.c - the program: the commands of main.c as they are. */
#include "cli.h"

int main(int argc, char **argv)
{
	return cli_main(argc, argv);
}
