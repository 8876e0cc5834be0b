#ifndef PATCHVER_BLAME_H
#define PATCHVER_BLAME_H

#include <stddef.h>
#include <git2.h>

/*
 * Who last changed the lines a fix needs, blamed at the fix's parent with
 * libgit2, limited to each hunk's lines.
 *
 *   removed    lines the fix deletes or rewrites (the strongest hint)
 *   neighbour  for a hunk that only adds lines, the context line just
 *              before and just after the addition (the code the fix
 *              extends; a heuristic, reported as such)
 *   context    every other preimage line of the hunks: what the fix needs
 *              to apply, used to find its prerequisites
 */
struct blamed {
	git_oid commit;
	unsigned removed, neighbour, context;
};

struct blame_result {
	struct blamed *v;
	size_t nr;
	unsigned lines;             /* preimage lines blamed */
};

/* Blame diff's preimage lines at base.  0, or -1 with a libgit2 error. */
int blame_diff(git_repository *repo, const git_oid *base, const char *diff,
	       struct blame_result *out);
void blame_result_free(struct blame_result *r);

/* Sort by removed + neighbour lines, most first (ties: by context). */
void blame_rank(struct blame_result *r);

#endif
