#ifndef PATCHVER_LAB_BISECT_SEARCH_H
#define PATCHVER_LAB_BISECT_SEARCH_H

#include <stdint.h>

#include "patchver/lab/bisect_run.h"

/*
 * A bisection's searches (struct bisect_run, bisect_run.h): its ends
 * checked, the releases between them (bisect.h over release tags), then
 * the commits, and the answer confirmed by booting it again.
 */

/*
 * Stage 1 (when both ends are releases), stage 2 (--commits), then the
 * confirmation, into f; the ends are booted first and must answer as
 * given (else PV_EUNCONFIRMED).  0 or a PV_E* code.
 */
int bisect_find(struct bisect_run *b, struct bisect_finding *f, uint32_t old, uint32_t old_tag,
		uint32_t new, uint32_t new_tag);

/* bisect_boot_boundary's search: the two releases' ends booted again, then as bisect_find. */
int bisect_find_boundary(struct bisect_run *b, struct bisect_finding *f, uint32_t old_tag,
			 uint32_t new_tag);

#endif
