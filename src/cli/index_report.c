/*
 * --index shown: where the release index is, what it holds, what this
 * run did with it.
 */
#include <stdio.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/engine/relindex.h"
#include "patchver/cli/index_report.h"

static const char *const index_states[] = {
	[INDEX_UNUSED] = "not used", [INDEX_FRESH] = "fresh", [INDEX_EXTENDED] = "extended",
	[INDEX_BUILT] = "built", [INDEX_REBUILT] = "rebuilt",
};

int report_index(const struct history *h, bool json)
{
	const struct relindex *ix = history_index(h);
	struct json j;

	if (!ix)
		return error(EXIT_INTERNAL, "no release index for this repository "
			     "(a shallow clone has none, nor a history changed by replace "
			     "refs or grafts)");
	if (json) {
		json_document_begin(&j, stdout);
		json_kstr(&j, "path", h->ix_saved || h->ix_state == INDEX_FRESH ? h->ix_path : NULL);
		json_kstr(&j, "state", index_states[h->ix_state]);
		json_kint(&j, "commits", ix->dag.nr);
		json_kint(&j, "tags", ix->ntags);
		json_kint(&j, "releases", (long long)h->tags.nreleases);
		json_kint(&j, "bytes", (long long)ix->size);
		json_kint(&j, "build_msec", ix->build_msec);
		json_kint(&j, "backports", ix->nbackports);
		json_kint(&j, "backport_notes", ix->nbpnotes);
		json_kint(&j, "stable_reverts", ix->nbpreverts);
		json_kbool(&j, "refs_known", h->ix_refs_known);
		json_obj_end(&j);
		putchar('\n');
		return 0;
	}
	printf("release index: %s%s\n", h->ix_path,
	       h->ix_saved || h->ix_state == INDEX_FRESH ? "" : " (not saved)");
	printf("  state:     %s\n", index_states[h->ix_state]);
	printf("  commits:   %u\n", ix->dag.nr);
	printf("  tags:      %u (%zu releases)\n", ix->ntags, h->tags.nreleases);
	printf("  size:      %.1f %s\n", ix->size < 1000000 ? (double)ix->size / 1e3 :
	       (double)ix->size / 1e6, ix->size < 1000000 ? "kB" : "MB");
	printf("  computed:  %.3f s\n", (double)ix->build_msec / 1000);
	printf("  backports: %u (odd upstream lines: %u; stable reverts: %u)\n", ix->nbackports,
	       ix->nbpnotes, ix->nbpreverts);
	printf("  tag refs:  %s\n", h->ix_refs_known ?
	       "known (quick queries check packed-refs' tag lines by their digest)" :
	       "not known (quick queries parse packed-refs whole)");
	return 0;
}
