#ifndef PATCHVER_LAB_BISECT_STATE_H
#define PATCHVER_LAB_BISECT_STATE_H

#include <stddef.h>

#include "patchver/lab/bisect_run.h"

/*
 * One state of a bisection (struct bisect_run, bisect_run.h): built and
 * booted as many times as asked, its answer from the guest's checks or the
 * lab's judgement, or recalled from the journal of an interrupted run.
 */

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

/* Boots of the final answer: the steps' count, at least 3. */
int bisect_run_confirm_boots(const struct bisect_run *b);

/* bisect_answer_name in the run's phase */
const char *bisect_answer_name_of(const struct bisect_run *b, enum bisect_answer v);

/* A commit's 12-digit id (caller frees). */
char *bisect_run_hex12(const struct bisect_run *b, uint32_t c);

#endif
