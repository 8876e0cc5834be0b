#ifndef PATCHVER_ENGINE_NAMECHAIN_H
#define PATCHVER_ENGINE_NAMECHAIN_H

#include <stdint.h>

#include "patchver/base/util.h"
#include "patchver/engine/tags.h"

/*
 * A name-rev name kept as a chain of segments: a first-parent step shares
 * its child's segment, a merge-parent step adds one ("~5^2").  The naming
 * walk (namewalk.h) builds them, the release index keeps them, and both
 * render them here.
 */
struct name_seg {
	uint32_t prev;          /* 0 for a tip segment */
	uint32_t tip;           /* tag index (tip segments) */
	int32_t generation;     /* of the child when it took the merge step */
	int32_t parent_number;
};

/*
 * Append the name that ends in segment seg (nonzero) with generation
 * first-parent steps after it: "v2.6.34-rc3~29^2~3".
 */
void namechain_render(const struct name_seg *segs, const struct tag_table *tags,
		    uint32_t seg, int32_t generation, struct sbuf *out);

#endif
