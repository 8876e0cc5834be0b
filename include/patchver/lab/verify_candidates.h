#ifndef PATCHVER_LAB_VERIFY_CANDIDATES_H
#define PATCHVER_LAB_VERIFY_CANDIDATES_H

#include <stdint.h>

#include "patchver/lab/verify_run.h"

/*
 * --verify-boot's candidates (struct verify, verify_run.h), one scenario
 * each: the history's releases from the fix's triage (a control, each
 * planned affected release with and without the fix, the first fixed
 * release), a patch series that models the story on a tree without it,
 * or the user's --candidate and --expect.
 */

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

#endif
