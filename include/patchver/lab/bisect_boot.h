#ifndef PATCHVER_BISECT_BOOT_H
#define PATCHVER_BISECT_BOOT_H

#include <stdbool.h>

#include "patchver/engine/history.h"
#include "patchver/lab/lab.h"

/*
 * --bisect-boot: find the first bad release (and commit) by booting
 * kernels in the lab, and with --fix the first release (and commit) where
 * the test passes again; the window between them is the set of affected
 * releases, proven by boots and set against the triage's.
 */
struct bisect_opts {
	bool json;
	struct lab_opts lab;        /* the machine; kernel_tree NULL: -C's repository */
	const char *good, *bad;     /* known good (old) and bad (new) revs */
	const char *fix;            /* a rev known fixed, after bad; NULL: no fix search */
	const char *tests;          /* checks that decide, comma-separated; NULL: --bug decides */
	const char *series;         /* "X.Y": bisect that stable series' tags */
	bool commits;               /* stage 2: the commits between two releases */
	int repeat;                 /* boots per step (the final answer: at least 3) */
	bool resume;                /* reuse the verdicts of an interrupted run's log */
};

/* 0 when found (and confirmed), else an EXIT_* code. */
int bisect_boot(struct history *h, const struct bisect_opts *o);

#endif
