#ifndef PATCHVER_BACKPORTS_H
#define PATCHVER_BACKPORTS_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"

/*
 * What the stable lines carry: for every commit first released in a stable
 * tag, the upstream commits its message names (upstream.h: every form
 * stable has used, ids wrapped across lines, abbreviated ids), and the
 * stable commit that reverts it, if one does ("This reverts commit <id>",
 * or stable's 'Revert "<subject>"' with no id).  A backport of a backport
 * (a 2.6.35.y commit naming the 2.6.34.y one) counts for the mainline
 * commit the first one names.  So "where did X land on each stable series,
 * as which backport, from which tag, reverted where" is one lookup.
 *
 * Backports that name no upstream commit are not here: match.c finds a
 * fix's by patch-id, against the commits touching the fix's files.
 */
struct backport {
	uint32_t upstream;          /* the mainline commit carried */
	uint32_t commit;            /* the stable commit carrying it */
	uint32_t tag;               /* the first stable tag with commit */
	uint32_t revert;            /* the stable commit reverting it, or DAG_NONE */
	uint32_t revert_tag;        /* the first stable tag with revert, or UINT32_MAX */
};

struct backport_map {
	struct backport *v;         /* by upstream, then by tag's version */
	size_t nr;
	size_t unresolved;          /* named ids that are no commit here (or ambiguous) */
};

/*
 * Read the messages of the stable-line commits that change one of paths
 * (npaths 0: every stable-line commit).  A backport changes what its
 * upstream commit changes, and a revert what it reverts, so a question
 * about a few commits needs only their files: a triage reads some dozens
 * of messages, not the 800 of the kernel's 2.6.34.y and 2.6.35.y (7 ms).
 * 0, or an EXIT_* code.
 */
int backport_map_build(struct backport_map *m, struct history *h, struct contain *c,
		       const char *const *paths, size_t npaths);
void backport_map_free(struct backport_map *m);

/* The backports of upstream commit u: *n of them from the returned one (NULL: none). */
const struct backport *backport_map_of(const struct backport_map *m, uint32_t u, size_t *n);

/* The backport entries whose stable commit is commit (a commit may carry several). */
const struct backport *backport_map_by_commit(const struct backport_map *m, uint32_t commit);

#endif
