#ifndef PATCHVER_ENGINE_CONTAIN_H
#define PATCHVER_ENGINE_CONTAIN_H

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
	/* a lazy history without a graph: per commit, whether git's walk found it
	   contains known_target (yes, no, not yet known) */
	uint8_t *known;
	uint32_t known_nr, known_target;
	/* a lazy history: git's commit-graph answers, for one target at a time */
	struct cgraph_reach reach;
	uint32_t reach_commit;    /* whose walk reach holds, PV_NONE if none */
	uint32_t *tag_pos;        /* each tag's commit's graph position */
};

void contain_init(struct contain *c, struct history *h);
void contain_free(struct contain *c);

/*
 * All tags containing commit (tag indices, refname order; *tags NULL or
 * the caller's to free).  One walk over the commit's descendants.  0, or
 * PV_ECORRUPT when a lazy history's walk meets an unreadable commit.
 */
int contain_tags_of(struct contain *c, uint32_t commit, uint32_t **tags, size_t *n);

/*
 * The earliest release (tag index in kernel version order) containing
 * commit, PV_NONE for "none"; for every commit at once: releases in
 * version order each claim the commits below them that no earlier release
 * claimed.  O(commits).  0, or PV_ECORRUPT as contain_tags_of.
 */
int contain_first_release_of(struct contain *c, uint32_t commit, uint32_t *release);

/*
 * The same for a history loaded whole (not lazy), where no walk can fail:
 * what the triage, the audit and the reports of a whole history ask.  (On
 * a lazy history a failed walk would read as "not contained": use the
 * forms above there.)
 */
uint32_t *contain_tags(struct contain *c, uint32_t commit, size_t *n);
uint32_t contain_first_release(struct contain *c, uint32_t commit);

#endif
