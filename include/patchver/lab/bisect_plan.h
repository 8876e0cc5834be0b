#ifndef PATCHVER_LAB_BISECT_PLAN_H
#define PATCHVER_LAB_BISECT_PLAN_H

#include <stdint.h>

#include "patchver/lab/bisect_run.h"

/*
 * The plan of a bisection (struct bisect_plan, bisect_boot.h), into
 * b->res.plan, on the lab b holds open, before anything is built: each
 * search's releases and steps at most, the largest commit gap the commit
 * stage may search, which of its states' images are cached, and the time
 * that may take by what earlier runs recorded.  The fix's search starts
 * where the regression's ends, at the latest at bad: its releases are
 * counted from good (at most).  0 or the lab's PV_E* code.
 */
int bisect_plan_make(struct bisect_run *b, uint32_t good, uint32_t good_tag, uint32_t bad,
		     uint32_t bad_tag, uint32_t fixed, uint32_t fixed_tag);

/* Smallest k with 2^k >= n (0 for n <= 1): a binary search's steps over n. */
int bisect_plan_log2(size_t n);

#endif
