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

/*
 * The map of the stable commits v (dense-id order) of dag, whose tags are
 * t's.  Upstream ids are resolved among dag's loaded commits only.
 */
void backmap_compute(struct backport_map *m, struct dag *dag, const struct tag_table *t,
		     const struct backmap_commit *v, size_t n,
		     backmap_message_fn message, void *ctx);

#endif
