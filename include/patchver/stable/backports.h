#ifndef PATCHVER_STABLE_BACKPORTS_H
#define PATCHVER_STABLE_BACKPORTS_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/backscan.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/history.h"

/*
 * The backport map of a history (backmap.h): the release index's when the
 * history has one, so a question reads no message; else computed here
 * from the stable-line commits that change one of paths (npaths 0: every
 * one).  A backport changes what its upstream commit changes, and a revert
 * what it reverts, so a question about a few commits needs only their
 * files: a triage reads some dozens of messages, not the 800 of the
 * kernel's 2.6.34.y and 2.6.35.y.  0, or a PV_E* code.
 */
int backport_map_build(struct backport_map *m, struct history *h, struct contain *c,
		       const char *const *paths, size_t npaths);

/*
 * The map for questions about commits: backport_map_build() over the files
 * they change and the paths more (an introducer that changes too many files
 * to list, or whose trees cannot be read, makes it read every stable
 * commit).  0, or a PV_E* code.
 */
int backport_map_for(struct backport_map *m, struct history *h, struct contain *c,
		     const uint32_t *commits, size_t ncommits,
		     const char *const *more, size_t nmore);

/*
 * The files commit changes (caller frees each and the array), for looking
 * for its backports; false when they are too many to list (64) or unreadable.
 */
bool backport_files(struct history *h, uint32_t commit, char ***paths, size_t *npaths);

/*
 * The commits of the stable branches (refs/heads or refs/remotes ending in
 * "linux-<version>.y") that no tag has reached yet: their queues, as a mask
 * of dag.nr + 1.  The other unreleased commits are nobody's backports.
 */
bool *backport_queue(struct history *h, struct contain *c);

/*
 * The commit the upstream line of commit's message names ("commit X
 * upstream.", "[ Upstream commit X ]", a cherry-pick line), the id as
 * written into hex; PV_NONE when the message has no such line (hex "") or
 * the id is not in h.
 */
uint32_t backport_named_upstream(struct history *h, uint32_t commit, char hex[41]);

/*
 * A stable line's commit (first released in a stable tag, or queued on a
 * stable branch): the upstream commit its message names ("commit X
 * upstream.", "[ Upstream commit X ]", a cherry-pick line) into *upstream,
 * PV_NONE when that id is not in h (then the id as written into hex).
 * Returns false for any other commit, or one that names no upstream.
 */
bool backport_upstream_of(struct history *h, struct contain *c, uint32_t commit,
			  uint32_t *upstream, char hex[41]);

/* The message of commit in h, for backmap_compute(). */
char *backport_message(void *h, uint32_t commit);

/* The patch-id of commit in h (git patch-id --stable), for backmap_compute(). */
bool backport_patch_id(void *h, uint32_t commit, git_oid *out);

/*
 * Which commits may be the upstream ones stable commits carry (a mask of
 * dag.nr + 1): every loaded commit that no stable tag released and no
 * stable branch queues (queue: backport_queue(), or NULL for none).
 */
bool *backport_upstream_ok(struct history *h, struct contain *c, const bool *queue);

#endif
