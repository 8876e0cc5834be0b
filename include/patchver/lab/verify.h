#ifndef PATCHVER_VERIFY_H
#define PATCHVER_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "patchver/engine/history.h"
#include "patchver/lab/lab.h"

/*
 * --verify-boot: build each candidate kernel state and boot it in QEMU
 * with the reproducer, then check that the bug shows in the candidates
 * that have it (as --bug says it shows) and not in the fixed ones.  Candidates come from the
 * triage of the fix:
 *  - on a kernel git repository: the last release before the bug
 *    (control), every affected release as released and with the fix (and
 *    the prerequisites the triage found), and the first release with it;
 *  - on a kernel tree without that history (Debian's linux-source): the
 *    same story modelled by a patch series (regression model, fix).
 * --candidate replaces them with the user's own.
 */
struct verify_opts {
	bool json;
	/* the machine; kernel_tree NULL: -C's repository if it holds a kernel, else Debian's */
	struct lab_opts lab;
	const char *series_dir;     /* model scenario: regression model, then fix */
	char **candidates;          /* NAME=ITEM[,ITEM...] */
	char **expects;             /* NAME=pass|bug|<a --bug> */
};

/* fix_rev may be NULL with candidates.  0 when confirmed, else an EXIT_* code. */
int verify_boot(struct history *h, const char *fix_rev, const struct verify_opts *o);

/* --cache-clean: remove built images and boot logs; prints what it freed. */
int verify_cache_clean(void);

#endif
