#ifndef PATCHVER_LAB_VERIFY_RUN_H
#define PATCHVER_LAB_VERIFY_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/stable/triage.h"
#include "patchver/lab/lab.h"
#include "patchver/lab/measure.h"
#include "patchver/lab/plan.h"
#include "patchver/lab/verify.h"

/*
 * One --verify-boot run, inside the lab, as its three modules share it:
 * verify.c runs it (the lab, the scenario, the candidates one by one with
 * their build prerequisites, the verdict); verify_candidates.h makes its
 * candidates, one scenario each; verify_measure.h measures where the bug
 * shows beside the text.
 */
struct verify {
	struct history *h;
	const struct verify_opts *o;
	struct lab lab;
	struct lab_opts lab_opts;
	uint32_t fix;
	char fix_hex[13];
	enum verify_scenario scenario;
	char *applied_fix;          /* model: the patch that stands for the fix, as the verdict names it */
	struct kpatch *fix_patch;   /* releases: the fix commit's change, last of a +fix state */
	struct kpatch **patches;    /* owned */
	size_t npatches;
	struct candidate *c;
	size_t n;
	int max_states;             /* the plan's bound; 0: no plan */
	char **left_out;            /* affected releases the plan did not take */
	size_t nleft_out;
	char *plan_note;
	/* releases: the triage, and what the boots measured beside it */
	struct triage t;
	bool have_triage;
	size_t control;             /* the control's candidate, or SIZE_MAX */
	uint32_t control_tag;
	struct pair { uint32_t tag; size_t c; } *pairs;     /* affected releases booted */
	size_t npairs;
	struct measure m;
	bool measured;
};

/* Run candidate i, and find its build prerequisites when it needs them (verify_run.c). */
int verify_run_candidate(struct verify *v, size_t i);

#endif
