/*
 * Rendering a name kept as segments (namechain.h).
 */
#include <stdlib.h>

#include "patchver/engine/namechain.h"

void namechain_render(const struct name_seg *segs, const struct tag_table *tags,
		    uint32_t seg, int32_t generation, struct sbuf *out)
{
	uint32_t chain[64] = { 0 }, *path = chain, n = 1, k;

	/* the segments from the tip's down to seg; prev < seg, so this ends */
	for (uint32_t s = seg; segs[s].prev; s = segs[s].prev)
		n++;
	if (n > 64)
		path = xmalloc(n * sizeof(*path));
	k = n;
	for (uint32_t s = seg; k; s = segs[s].prev)
		path[--k] = s;
	sbuf_adds(out, tags->v[segs[path[0]].tip].shortname);
	for (k = 1; k < n; k++) {
		const struct name_seg *g = &segs[path[k]];
		if (g->generation > 0)
			sbuf_addf(out, "~%d^%d", g->generation, g->parent_number);
		else
			sbuf_addf(out, "^%d", g->parent_number);
	}
	if (path != chain)
		free(path);
	/* a tip reached through a tag object is "tag^0" */
	if (generation > 0)
		sbuf_addf(out, "~%d", generation);
	else if (!segs[seg].prev && tags->v[segs[seg].tip].deref)
		sbuf_adds(out, "^0");
}
