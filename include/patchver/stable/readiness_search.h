#ifndef PATCHVER_STABLE_READINESS_SEARCH_H
#define PATCHVER_STABLE_READINESS_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/stable/apply.h"
#include "patchver/stable/hunks.h"

/*
 * The search under readiness.h: the candidates for prerequisites, and the
 * minimal list of them that makes a diff go into a release.
 */

/* A commit the search may apply: its diff, read once. */
struct ready_cand {
	uint32_t commit;
	struct diff_files diff;
	char **paths;
	size_t npaths;
	struct apply_opts opts;     /* fuzz, three-way from its parent, adapted at worst */
	struct apply_opts as_is;    /* the same, never adapted: does it go in as it is? */
};

struct ready_search {
	struct history *h;
	uint32_t onto;
	uint32_t base;              /* where onto's line and the fix's parted (PV_NONE: unknown) */
	bool *in_onto;              /* the release's ancestors */
	uint32_t tip;               /* the tip prepared for: the fix's parent */
	bool *in_tip;               /* its ancestors */
	uint32_t *line;             /* the release line's own commits (base..onto), merges aside */
	bool *reverted;             /* per line commit: another of the line reverts it */
	size_t nline;
	uint32_t *carried_up, *carried_by;  /* upstream commits its line names, and the backports */
	size_t ncarried;
	uint32_t *topo;             /* the loaded commits, oldest first */
	size_t ntopo;
	struct ready_cand **cands;  /* each its own allocation: a pointer to one stays good */
	size_t ncands;
};

void ready_search_init(struct ready_search *x, struct history *h, uint32_t onto);
void ready_search_free(struct ready_search *x);
/* Read what onto has, below tip too.  0 or a PV_E* code. */
int ready_search_prepare(struct ready_search *x, uint32_t tip);
/* The commit of onto's line that is a backport of upstream (names it), PV_NONE. */
uint32_t ready_search_carrier(const struct ready_search *x, uint32_t upstream);
/* The commit's diff, read once (the pointer lasts as x does); NULL with a PV_ECORRUPT recorded. */
struct ready_cand *ready_search_cand(struct ready_search *x, uint32_t commit);

/*
 * The commits below tip that onto neither contains nor carries, merges
 * aside, that change one of paths, not in skip: oldest first into *out
 * (caller frees).  0 or a PV_E* code.
 */
int ready_search_candidates(struct ready_search *x, uint32_t tip, char *const *paths,
			    size_t npaths, const uint32_t *skip, size_t nskip,
			    uint32_t **out, size_t *n);

/*
 * The smallest list of cands (in their order; no member can be left out)
 * that, applied to start, lets target go in at goal or better under topts:
 * 1 with *list (caller frees), 0 when even all of them do not, or a
 * negative PV_E* code.
 */
int ready_search_minimal(struct ready_search *x, const struct apply_tree *start,
			 const uint32_t *cands, size_t ncands, const struct diff_files *target,
			 const struct apply_opts *topts, enum apply_how goal,
			 uint32_t **list, size_t *n);

#endif
