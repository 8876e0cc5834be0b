#ifndef PATCHVER_LAB_BISECT_RUN_H
#define PATCHVER_LAB_BISECT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "patchver/lab/bisect.h"
#include "patchver/lab/bisect_boot.h"
#include "patchver/lab/lab.h"

/*
 * One --bisect-boot run, inside the lab, as its three modules share it:
 * bisect_boot.c runs it (revs, the lab, both searches, the window and the
 * triage beside it); bisect_search.h searches (ends, releases, commits,
 * confirmation); bisect_state.h boots one state of it.
 */
struct bisect_run {
	struct history *h;
	const struct bisect_opts *o;
	const struct bisect_events *ev;
	struct lab own, *lab;       /* its own, or --verify-boot's (bisect_boot_boundary) */
	struct lab_opts lab_opts;
	bool fix_mode;              /* "new" = passing */
	time_t start;
	struct bisect_boot_result res;
};

#endif
