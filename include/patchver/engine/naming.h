#ifndef PATCHVER_ENGINE_NAMING_H
#define PATCHVER_ENGINE_NAMING_H

#include <stdbool.h>
#include <stdint.h>

#include "patchver/engine/history.h"
#include "patchver/engine/namewalk.h"

/*
 * git's answer for one commit, whatever git would have cut off.
 *
 * Asked about one commit, git name-rev skips commits dated more than a
 * day before it (or, with a commit-graph, of lower generation).  With a
 * graph the cut never touches a path to the commit, so the answer is the
 * uncut one.  With dates it only matters when a commit on some path down
 * to ours is dated before the cutoff (clock skew): one uncut walk serves
 * every commit, and a commit with such a path gets a walk of its own,
 * cut as git cuts it.
 */
struct naming {
	const struct history *h;
	uint32_t *tips;             /* tags that name commits */
	size_t ntips;
	struct namewalk full;
	bool have_full;
	const struct relindex *ix;  /* uncut names and dates, when it has them */
	int64_t *min_desc_date;     /* min date over a commit and its descendants */
	struct cut_walk {
		int64_t cutoff;
		uint32_t level;         /* a lazy walk cut by graph level, else 0 */
		struct namewalk nr;
	} *cuts;
	size_t ncuts;
};

/* match: a --match glob (git describe --contains --match), or NULL. */
void naming_init(struct naming *n, const struct history *h, const char *match);
void naming_free(struct naming *n);

/* Append the name from the walk with no cutoff (git name-rev --annotate-stdin). */
bool naming_uncut_name(struct naming *n, uint32_t commit, struct sbuf *out);

/*
 * Append git's name for commit, asked alone (*named false: git has none).
 * 0, or PV_ECORRUPT when the lazy walk it needs met an unreadable commit.
 */
int naming_name(struct naming *n, uint32_t commit, struct sbuf *out, bool *named);

/*
 * The name `git name-rev --tags --name-only <object>` prints for a tag
 * object or other non-commit: its exact ref, as git's tip table has it.
 */
bool naming_exact(struct naming *n, const git_oid *object, struct sbuf *out);

#endif
