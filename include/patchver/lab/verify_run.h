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
 * One --verify-boot run, inside the lab: verify.c runs it (the lab, the
 * scenario, the candidates one by one with their build prerequisites,
 * the verdict); verify_candidates.c makes its candidates, one scenario
 * each; verify_measure.c measures where the bug shows beside the text.
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

/*
 * The candidates of each scenario, appended to v->c.  0 or a PV_E* code
 * (PV_EINVALID for a --candidate or --expect the user got wrong).
 */
int verify_scenario_releases(struct verify *v, const struct triage *t);
int verify_scenario_model(struct verify *v, const struct triage *t);
int verify_scenario_user(struct verify *v);

/*
 * One affected release booted as released (the bug must show) and with
 * the fix and its prerequisites (it must pass): two candidates, the pair
 * recorded in v->pairs.  0 or a PV_E* code.
 */
int verify_add_pair(struct verify *v, uint32_t tag, const struct release_fit *f,
		    struct kpatch *fix, enum plan_reason why);

/* A commit's change as a patch the run owns (NULL, *ret set, when it has none). */
struct kpatch *verify_patch_of_commit(struct verify *v, git_repository *repo,
				      const git_oid *commit, int *ret);

const char *verify_tag_name(const struct verify *v, uint32_t tag);

/* Run candidate i, and find its build prerequisites when it needs them (verify.c). */
int verify_run_candidate(struct verify *v, size_t i);

/*
 * --measure's work, after the plan's boots: where the bug shows, the
 * measured first release booted when the plan had not, and the text's
 * releases the boots put outside marked so.  0 or a PV_E* code.
 */
int verify_measure(struct verify *v);

/* The text's introducer: the headline group's earliest (as the CVE record takes it). */
uint32_t verify_text_culprit(const struct verify *v, uint32_t *release);

/* What --measure may add: the widest run of affected releases between two planned ones. */
void verify_measure_bound(const struct verify *v, struct verify_result *r);

#endif
