#ifndef PATCHVER_LAB_PREREQ_H
#define PATCHVER_LAB_PREREQ_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/lab/lab.h"

/*
 * Build prerequisites (--verify-boot): a state with the fix (its last
 * patch) that does not build while its release does.  The failing object
 * is made again alone, its first error read (builderr.h); the file of the
 * fix's parent that defines what is missing and the commit of
 * release..fix^ that brought it there are found (stable/definer.h); that
 * commit is applied before the fix and the state built again, up to
 * `rounds` times.  The chain is the state's (c->prereqs: "<sha> <subject>
 * (defines <name>)"); what stopped it is added to its why (the error names
 * nothing to look for, defined nowhere, no commit brought it, it does not
 * apply, still failing after `rounds`).
 */
struct prereq_search {
	struct lab *lab;
	struct history *h;          /* the fix's history: the lab's kernel tree holds it */
	uint32_t fix;               /* the fix commit; its parent's tree is searched */
	int rounds;                 /* prerequisites at most */
	/* a commit's change as a patch that outlives the candidate (the caller owns it) */
	struct kpatch *(*patch_of)(void *data, const git_oid *commit, int *ret);
	void *data;
};

/* c, candidate i of n, just failed to build.  0, or a PV_E* code that stops the run. */
int prereq_find(const struct prereq_search *s, struct candidate *c, size_t i, size_t n);

#endif
