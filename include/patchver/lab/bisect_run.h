#ifndef PATCHVER_LAB_BISECT_RUN_H
#define PATCHVER_LAB_BISECT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "patchver/lab/bisect.h"
#include "patchver/lab/bisect_boot.h"
#include "patchver/lab/lab.h"

/*
 * One --bisect-boot run, inside the lab: bisect_boot.c runs it (revs,
 * the lab, both searches, the window and the triage beside it);
 * bisect_search.c searches (ends, releases, commits, confirmation);
 * bisect_state.c boots one state of it.
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

/*
 * Build and boot a state `repeat` times (label: the caller's, now the
 * step's); its answer is the boots' when they agree, "flaky" when
 * they do not, "skip" when none can tell; a step the journal recalls is
 * not booted.  0 or the lab's PV_E* code.
 */
int bisect_test_state(struct bisect_run *b, const char *kind, char *label, const git_oid *commit,
		      struct kpatch **patches, size_t np, int repeat,
		      enum bisect_answer *answer);

/* The journal of this bisection (its question hashed), opened through bisect_opts.journal. */
void bisect_open_journal(struct bisect_run *b);

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

/* Boots of the final answer: the steps' count, at least 3. */
int bisect_run_confirm_boots(const struct bisect_run *b);

/* bisect_answer_name in the run's phase */
const char *bisect_answer_name_of(const struct bisect_run *b, enum bisect_answer v);

/* A commit's 12-digit id (caller frees). */
char *bisect_run_hex12(const struct bisect_run *b, uint32_t c);

#endif
