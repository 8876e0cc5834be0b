#ifndef PATCHVER_LAB_COMPAT_H
#define PATCHVER_LAB_COMPAT_H

#include <stdbool.h>
#include <stddef.h>
#include <git2.h>

/*
 * Building old kernels with today's toolchain: guest/compat/<first
 * version>/ ("2.6.16", "2.6.22-rc3") holds what a sub-era of 2.6 needs,
 * chosen by the tree's own version (the newest directory not after it in
 * kernel version order, in the same X.Y):
 *   make-flags      variables for make's command line, one a line
 *                   ("CC=gcc -fno-pie -std=gnu89 ..."): what works for
 *                   every tree of the sub-era without changing a file;
 *   *.patch         changes to the tree's own files where they must
 *                   change (a Makefile rule make 4.3 rejects, a header
 *                   that refuses gcc 12, ...); each must apply to every
 *                   tree of its sub-era: one that does not is an error;
 *   kernel.config   the base fragment (allnoconfig + it), configs/ the
 *                   profiles in that era's option names;
 *   guest-cc        the compiler of the guest's programs when glibc's
 *                   static start-up cannot run on these kernels
 *                   ("musl-gcc"; without the file: cc);
 *   qemu-args       QEMU arguments these kernels need to boot, one a line
 *                   ("-M", "pc-i440fx-2.0": an older machine's tables).
 * None of it changes what the kernel does.
 */
struct compat_patch {
	char *name;
	git_diff *diff;
};

struct compat {
	char era[16];               /* "2.6.29"; "" when the tree needs none */
	char *dir;                  /* guest/compat/<era>, NULL with none */
	struct compat_patch *patches;
	size_t npatches;
	char **make_vars;           /* NULL-terminated; "VAR=value" */
	size_t nmake_vars;
	char *make_text;            /* the make-flags file as read: part of a state's key */
	char *guest_cc;             /* guest-cc; NULL: the host's cc */
	char **qemu_args;           /* qemu-args, NULL-terminated */
	size_t nqemu_args;
};

/*
 * The sub-era of version ("2.6.34-rc3") among eras (directory names such
 * as "2.6.16"): the newest not after it in the same X.Y, into era (""
 * when none fits).  Pure: no file is read.
 */
void compat_pick(const char *version, char *const *eras, size_t n, char *era, size_t len);

/*
 * Load guest/compat/<the sub-era of version>/ into c (a previous load
 * of the same sub-era is kept).  0, or PV_EINVALID for a broken file.
 */
int compat_load(struct compat *c, const char *guest, const char *version);
void compat_free(struct compat *c);

#endif
