#ifndef PATCHVER_STABLE_CARRIERS_H
#define PATCHVER_STABLE_CARRIERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/backmap.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"
#include "patchver/stable/patch.h"

/*
 * Which stable commits carry a commit: one answer for the triage, the
 * audit and the CVE record (the query reads the same map from the index).
 * A stable line's commit (first released in a stable tag, or queued on a
 * stable branch no tag has reached) carries mainline commit X when its
 * message names X ("commit X upstream." and the other forms, a backport
 * of a backport followed), or, naming no commit of this history, when it
 * has X's patch-id (backscan.h).  A carrier its own line reverted is
 * still listed, with its revert: whether it counts is the asker's.
 */
struct carriers_pid;

struct carriers {
	struct backport_map tagged;     /* the stable tags' commits: the index's, or read */
	struct backport_map queued;     /* the branches' queues, read */
	bool *queue;                    /* per commit: queued (backports.h) */
	bool *stable_line;              /* per commit: a stable tag's first, or queued */
	uint32_t nr;                    /* commits the masks cover */
	struct carriers_pid *pids;      /* every stable-line commit by patch-id, once made */
	size_t npids;
};

/*
 * Load the carriers of h: the tagged ones for questions about commits[]
 * and commits changing one of paths (backport_map_for(); none of either:
 * any question; an index answers every question anyway), the queued ones
 * read now.  Loads the branches.  0 or a PV_E* code.
 */
int carriers_open(struct carriers *cs, struct history *h, struct contain *c,
		  const uint32_t *commits, size_t ncommits, const char *const *paths, size_t npaths);
void carriers_close(struct carriers *cs);

/* The stable commits carrying commit, tagged and queued, in commit order (caller frees). */
size_t carriers_of(const struct carriers *cs, uint32_t commit, uint32_t **out);

/* As carriers_of(), the map's records: *nq more of them at *queued (tag BACKMAP_ON_BRANCH). */
const struct backport *carriers_records(const struct carriers *cs, uint32_t commit, size_t *n,
					const struct backport **queued, size_t *nq);

/*
 * The stable-line commits with commit's patch-id that carriers_of() does
 * not list: backports naming another upstream commit, mainline's twin of
 * this one (the same change merged twice: 2.6.34.1's 812dd8968c68 names
 * 89a7644be2c5, twin of d89d63a97398).  p: commit's patch, or only its
 * paths (the patch-id is then read if a candidate needs it).  From the
 * patch-id index when carriers_index_patchids() made one (many questions:
 * the audit), else among the stable-line commits changing p's files (one
 * question: the triage); one answer either way.  In commit order.
 */
size_t carriers_same_patch(const struct carriers *cs, struct history *h, uint32_t commit,
			   const struct patch *p, uint32_t **out);

/* The patch-id of every stable-line commit, for carriers_same_patch(). */
void carriers_index_patchids(struct carriers *cs, struct history *h);

/* Does stable commit carrier carry upstream by patch-id, naming no upstream commit? */
bool carriers_by_patchid(const struct carriers *cs, const struct history *h, uint32_t carrier,
			 uint32_t upstream);

/* The stable commit reverting carrier on its line, or PV_NONE. */
uint32_t carriers_revert_of(const struct carriers *cs, uint32_t carrier);

/* The notes on a stable commit's message (backmap.h): *n from the returned one. */
const struct backport_note *carriers_notes(const struct carriers *cs, uint32_t commit,
					   size_t *n);

#endif
