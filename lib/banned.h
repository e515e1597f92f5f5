/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * banned.h - libc calls that are easy to misuse; use the bounded ones.
 * Included last by every file of the project (after system headers).
 */
#ifndef BLKALIGN_BANNED_H
#define BLKALIGN_BANNED_H

#define BANNED(func) sorry_##func##_is_banned

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gets
#define gets(x) BANNED(gets)

#endif /* BLKALIGN_BANNED_H */
