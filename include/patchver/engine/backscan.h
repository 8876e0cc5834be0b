#ifndef PATCHVER_ENGINE_BACKSCAN_H
#define PATCHVER_ENGINE_BACKSCAN_H

#include <stddef.h>
#include <stdint.h>

#include "patchver/engine/backmap.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * Computing a backport map (backmap.h) from stable-line commits' messages:
 * the upstream ids they name resolved among the DAG's commits, reverts by
 * id or by the subject they quote, backports of backports followed.
 */
/* A stable-line commit to read: its first stable tag, or BACKMAP_ON_BRANCH. */
struct backmap_commit {
	uint32_t commit, tag;
};

/* Reads commit's message (caller frees; NULL: unreadable). */
typedef char *(*backmap_message_fn)(void *ctx, uint32_t commit);

/* commit's patch-id as `git patch-id --stable` computes it; false: none (no change, unreadable). */
typedef bool (*backmap_patchid_fn)(void *ctx, uint32_t commit, git_oid *out);

/*
 * The backports whose message names no upstream commit of this history
 * (stable's early ones, or one naming an id the history lacks) are found
 * by patch-id: the commits that may be upstream ones (upstream_ok, per
 * commit of the DAG: not a stable line's) changing the same files with
 * the same patch-id.  Each is a backport like a named one, with a
 * BACKPORT_BY_PATCHID note saying how it was found.  The patch-id is the
 * stable layer's (patch.h); the map only asks for it.
 */
struct backmap_patchids {
	backmap_patchid_fn patch_id;
	void *ctx;
	const bool *upstream_ok;
};

/*
 * The map of the stable commits v (dense-id order) of dag, whose tags are
 * t's.  Upstream ids are resolved among dag's loaded commits only; pids
 * (NULL: none) finds the backports naming none.
 */
void backmap_compute(struct backport_map *m, struct dag *dag, const struct tag_table *t,
		     const struct backmap_commit *v, size_t n,
		     backmap_message_fn message, void *ctx, const struct backmap_patchids *pids);

#endif
