#ifndef PATCHVER_ENGINE_REVS_H
#define PATCHVER_ENGINE_REVS_H

#include <stddef.h>
#include <stdint.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front includes this */

#include "patchver/engine/dag.h"

/*
 * Turning what a user typed into a commit.  libgit2 (like git name-rev)
 * refuses a short sha that also prefixes a blob or tree; `git log` takes
 * the one commit.  patchver does what git log does, and reports ambiguity
 * only between commits.
 */
struct rev {
	const char *spec;       /* as typed */
	git_oid object;         /* what the spec names (a tag object, say) */
	git_object_t type;
	git_oid oid;            /* the commit, after peeling */
	uint32_t commit;        /* index in the DAG (loaded with its history) */
};

/*
 * Resolve spec.  Returns 0, or PV_ENOTFOUND, PV_EAMBIGUOUS, PV_ENOTCOMMIT
 * or PV_ECORRUPT with a one-line message naming the input (error.h).
 */
int rev_resolve(struct rev *out, git_repository *repo, struct dag *dag,
		const char *spec);

/*
 * The commit a sha written in a message names (7 to 40 hex digits), loading
 * it if needed; PV_NONE if absent or ambiguous.  Never prints.
 */
uint32_t rev_find_hex(struct dag *dag, const char *hex);

/*
 * Every commit hex (7 to 40 digits) may name: at most max of them written
 * to out, their number returned (0: none).  Objects that are not commits
 * do not count, as for `git log <short>`.  Never prints.
 */
size_t rev_find_hex_all(struct dag *dag, const char *hex, uint32_t *out, size_t max);

#endif
