#ifndef PATCHVER_CONTAIN_H
#define PATCHVER_CONTAIN_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/cgraph.h"
#include "patchver/engine/history.h"

/*
 * Which tags contain a commit (git tag --contains), and the earliest
 * release among them in kernel version order.
 */
struct contain {
	struct history *h;
	uint32_t *mark;           /* per commit: epoch of the last walk that saw it */
	uint32_t mark_nr;
	uint32_t epoch;
	uint32_t *queue;
	uint32_t *first_release;  /* bulk answer per commit, or NULL */
	int err;                  /* PV_ECORRUPT once a lazy walk met an unreadable commit */
	/* a lazy history without a graph: git's walk's verdicts for one target */
	uint8_t *verdict;
	uint32_t verdict_nr, verdict_target;
	/* a lazy history: git's commit-graph answers, for one target at a time */
	struct cgraph_reach reach;
	uint32_t reach_commit;    /* whose walk reach holds, PV_NONE if none */
	uint32_t *tag_pos;        /* each tag's commit's graph position */
};

void contain_init(struct contain *c, struct history *h);
void contain_free(struct contain *c);

/*
 * All tags containing commit (tag indices, refname order); caller frees.
 * One walk over the commit's descendants.
 */
uint32_t *contain_tags(struct contain *c, uint32_t commit, size_t *n);

/*
 * The earliest release (tag index in kernel version order) containing each
 * commit, for every commit at once: releases in version order each claim
 * the commits below them that no earlier release claimed.  O(commits).
 * Returns PV_NONE for "none".
 */
uint32_t contain_first_release(struct contain *c, uint32_t commit);

#endif
