#ifndef PATCHVER_ENGINE_INDEXER_H
#define PATCHVER_ENGINE_INDEXER_H

#include <stdint.h>

#include "patchver/engine/backscan.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/relindex.h"
#include "patchver/engine/tags.h"

/*
 * Computing a release index from a history loaded below its tags: the
 * uncut name-rev walk, first releases, each tag's ancestors as intervals
 * of dense ids, and the dates that tell when git's cutoff can differ.
 * All from the DAG's arrays: no object is read.
 */

/*
 * The earliest release (tag index, kernel version order) containing each
 * commit of dag, PV_NONE for none.  Caller frees.
 */
uint32_t *indexer_first_releases(const struct dag *dag, const struct tag_table *t);

/*
 * The index image of dag (whose every commit a tag reaches) and its tags,
 * for the repository ident; t's releases follow the release glob glob.
 * patch_id(ctx, ...) finds the stable backports naming no upstream commit
 * (backscan.h; NULL: the map holds the named ones only).
 */
void indexer_build(struct relindex *ix, const struct dag *dag,
		   const struct tag_table *t, const char *ident, const char *glob,
		   backmap_patchid_fn patch_id, void *ctx);

#endif
