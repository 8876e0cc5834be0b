#ifndef PATCHVER_LAB_BISECT_H
#define PATCHVER_LAB_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * Bisection, without boots: which item to test next, and where the first
 * "new" item is.  Items are ordered old to new; the item before the first
 * is known old, the last is known new.  The oracle says OLD, NEW or SKIP
 * (cannot tell: a build failure, a boot that never ran the test).  For a
 * regression "new" means bad; for a fix, passing.
 *
 * A state's answer: old (as the good end), new (as the bad end), skip
 * (cannot tell: did not build, did not boot, its checks did not run);
 * flaky (its boots answered both ways) is a step's, never an oracle's.
 */
enum bisect_answer { BISECT_FLAKY = -1, BISECT_OLD, BISECT_NEW, BISECT_SKIP };

typedef int (*bisect_oracle)(void *ctx, size_t item, enum bisect_answer *out);

struct bisect_result {
	size_t first_new;           /* index of the first new item */
	size_t lo;                  /* items before lo are old (or skipped) */
	bool ambiguous;             /* skipped items hide it: any of lo .. first_new */
	size_t steps;
};

/*
 * Binary search over n items (the last known new): the midpoint, or the
 * untested item nearest to it when it is skipped (alternating sides, as
 * git bisect moves away from a skipped commit).  Returns 0, or what the
 * oracle returned when it was not 0 (interrupted, a missing tool).
 */
int bisect_search(size_t n, bisect_oracle oracle, void *ctx, struct bisect_result *r);

/* Mainline releases after good up to and including bad, in version order
 * (or, with series "X.Y", that stable series' tags).  Caller frees. */
uint32_t *bisect_releases(const struct tag_table *t, uint32_t good, uint32_t bad,
			  const char *series, size_t *n);

/*
 * Commits on the first-parent line from bad back to (not including) the
 * first ancestor of any commit in old[], oldest first.  Caller frees.
 */
uint32_t *bisect_first_parent(struct dag *dag, uint32_t bad, const uint32_t *old,
			      size_t nold, size_t *n);

/*
 * Stage 2: the commits after old up to new (new is known new): first-
 * parent midpoints first, as `git bisect --first-parent`; when a merge is
 * to blame, the commits it merged (the merge itself last, as it may be an
 * evil merge).  on_stage (may be NULL) hears of each line searched.
 */
typedef int (*bisect_commit_oracle)(void *ctx, uint32_t commit, enum bisect_answer *out);

struct bisect_commits_result {
	uint32_t commit;            /* the first new commit */
	bool ambiguous;             /* skipped commits hide it: any of candidates */
	uint32_t *candidates;
	size_t ncandidates;
	size_t steps;
};

int bisect_commits(struct dag *dag, uint32_t old, uint32_t new, bisect_commit_oracle oracle,
		   void *ctx, void (*on_stage)(void *ctx, size_t n, bool merged),
		   struct bisect_commits_result *r);

/* "good", "bad", "flaky", "skip"; in the fix phase "good (fixed)", "bad (not fixed)". */
const char *bisect_answer_name(enum bisect_answer answer, bool fix_phase);

#endif
