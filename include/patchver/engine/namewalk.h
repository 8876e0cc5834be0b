#ifndef PATCHVER_ENGINE_NAMEWALK_H
#define PATCHVER_ENGINE_NAMEWALK_H

#include <stdbool.h>
#include <stdint.h>

#include "patchver/base/util.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/namechain.h"
#include "patchver/engine/tags.h"

/*
 * git name-rev --tags (git 2.39), reproduced on the dense DAG.
 *
 * A walk gives every commit reachable from the tips (above a date cutoff)
 * the name git would give it.  Names are kept as a chain of segments: a
 * first-parent step shares its child's segment, a merge-parent step adds
 * one ("~5^2"), so a walk allocates no strings.
 */
#define NAMEWALK_NO_CUTOFF INT64_MIN

struct rev_name {
	int64_t taggerdate;
	int32_t distance;
	int32_t generation;
	uint32_t seg;           /* 0: no name */
};

struct namewalk {
	const struct dag *dag;
	const struct tag_table *tags;
	struct rev_name *names;     /* per commit */
	uint32_t nnames;            /* commits the walk knew of */
	struct name_seg *segs;
	size_t nsegs, segs_alloc;
	int64_t cutoff;
	struct dag *lazy;           /* parse commits as the walk reaches them */
	const struct cgraph *graph; /* cut by topological level instead of date */
	uint32_t level_cutoff;
	uint32_t broken;            /* lazy: a commit that could not be read, + 1 */
};

/*
 * Name all commits from tips (tag indices, any order: they are sorted as
 * git sorts them).  Commits with a date below cutoff are not walked.
 */
void namewalk_walk(struct namewalk *nr, const struct dag *dag,
		  const struct tag_table *tags, const uint32_t *tips,
		  size_t ntips, int64_t cutoff);
/*
 * The same walk on a DAG whose commits are parsed as it reaches them, so
 * that a cut walk reads only what lies above its cutoff, as git's does.
 * With graph, commits of a level below level_cutoff are cut (git's cut by
 * generation number when it has a commit-graph); else by date.
 */
void namewalk_walk_lazy(struct namewalk *nr, struct dag *dag,
		       const struct tag_table *tags, const uint32_t *tips,
		       size_t ntips, int64_t cutoff, const struct cgraph *graph,
		       uint32_t level_cutoff);
void namewalk_free(struct namewalk *nr);

/* Append commit's name to out; false (nothing appended) if it has none. */
bool namewalk_name(const struct namewalk *nr, uint32_t commit, struct sbuf *out);

/*
 * The date cutoff git uses when asked about a commit of this date: a zero
 * date means none; otherwise a day's slop below it.
 */
static inline int64_t namewalk_cutoff_for(int64_t date)
{
	const int64_t slop = 86400;

	if (date == 0)
		return NAMEWALK_NO_CUTOFF;
	return date < INT64_MIN + slop ? INT64_MIN : date - slop;
}

/*
 * Is the uncut walk's name git's answer for a commit asked alone?  With a
 * commit-graph holding it, always: git then cuts by generation, which never
 * touches a path down to it.  Else when nothing on such a path (min_desc:
 * the oldest date at or above it) is dated before git's cutoff.
 */
static inline bool namewalk_uncut_is_gits(bool in_graph, int64_t date, int64_t min_desc)
{
	return in_graph || min_desc >= namewalk_cutoff_for(date);
}

#endif
