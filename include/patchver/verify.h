#ifndef PATCHVER_VERIFY_H
#define PATCHVER_VERIFY_H

#include <stdbool.h>

#include "patchver/history.h"

/*
 * --verify-boot: build each candidate kernel state and boot it in QEMU
 * with the guest test, then check that the regressed candidate fails the
 * way the bug says and the fixed ones pass.  The candidates come from the
 * triage of the fix: the last release before the bug (control, pristine),
 * the first release with it (+ the regression model), that release with
 * the fix (+ model + fix), and the first release with the fix.
 */
struct verify_opts {
	bool json;
	const char *kernel_tree;    /* source tree, NULL: Debian's linux-source */
	const char *guest_dir;      /* kernel.config, nofollow-test.c, kernel/ */
	const char *series_dir;     /* patch series: 1st = model, 2nd = fix */
	const char *accel;          /* NULL: pick */
	int timeout;                /* seconds per boot */
	bool keep;                  /* keep built images */
};

/* Returns 0 when the fix is confirmed, else an EXIT_* code. */
int verify_boot(struct history *h, const char *fix_rev, const struct verify_opts *o);

/* --cache-clean: remove built images and boot logs; prints what it freed. */
int verify_cache_clean(void);

#endif
