#ifndef PATCHVER_STABLE_FIXBLAME_H
#define PATCHVER_STABLE_FIXBLAME_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>

#include "patchver/engine/dag.h"

/*
 * Who last changed the lines a fix needs, blamed at the fix's parent with
 * lineblame (git blame's answer, on the DAG), each line classified:
 *
 *   removed    lines the fix deletes or rewrites (the strongest hint)
 *   neighbour  for a hunk that only adds lines, the context line just
 *              before and just after the addition (the code the fix
 *              extends; a heuristic, reported as such)
 *   context    every other preimage line of the hunks: what the fix needs
 *              to apply, used to find its prerequisites
 */
enum blame_kind { LINE_CONTEXT, LINE_NEIGHBOUR, LINE_REMOVED };

struct blamed {
	git_oid commit;
	unsigned removed, neighbour, context;
};

/* One preimage line of the fix and who it blames to. */
struct blamed_line {
	unsigned file;              /* index of the file in the diff */
	unsigned hunk;              /* index of the hunk in the whole diff */
	size_t line;                /* line number at the base */
	enum blame_kind kind;
	uint32_t commit;            /* DAG index; PV_NONE: beyond the file */
};

struct fixblame {
	struct blamed *v;           /* per commit, counts */
	size_t nr;
	unsigned lines;             /* preimage lines blamed */
	struct blamed_line *line;   /* per line, in diff order */
	size_t nlines;
	unsigned nhunks;
	bool *aside;                /* per hunk: removes nothing, adds only #include
				       lines or declarations (it decides nothing) */
	char **paths;               /* the diff's files with a preimage */
	size_t npaths;
};

/*
 * Blame diff's preimage lines at commit base of dag (loaded).  0, or
 * PV_ECORRUPT (lineblame.h).
 */
int fixblame_run(git_repository *repo, struct dag *dag, uint32_t base,
	       const char *diff, struct fixblame *out);
void fixblame_free(struct fixblame *r);

/* Sort by removed + neighbour lines, most first (ties: by context). */
void fixblame_rank(struct fixblame *r);

#endif
