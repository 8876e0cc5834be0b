/*
 * git's changed-path Bloom filters read as git reads them (cgraph.c):
 * every path a commit changes (and each leading directory) is "maybe" in
 * its filter, and the filters do rule out most paths a commit does not
 * change.  On a fixture whose commit-graph was written with
 * --changed-paths; treepath_touches answers the same with and without.
 *
 *   test_bloom REPO
 */
#include <stdlib.h>
#include <git2.h>

#include "check.h"
#include "patchver/engine/history.h"
#include "patchver/engine/treepath.h"

int main(int argc, char **argv)
{
	struct history h;
	struct history_opts o = { argc > 1 ? argv[1] : ".", "v[0-9]*", HISTORY_INDEX_OFF, false, false, NULL };
	size_t changed = 0, unchanged = 0, ruled_out = 0, nfilters = 0;
	struct tree_change *prev = NULL;
	int nprev = 0;

	git_libgit2_init();
	if (history_open(&h, &o) != 0)
		return 2;
	CHECK(cgraph_present(&h.graph));
	for (uint32_t c = 0; c < h.dag.nr; c++) {
		unsigned np;
		const uint32_t *p = dag_parents(&h.dag, c, &np);
		struct tree_change *paths = NULL;
		int n;

		if (!h.dag.loaded[c])
			continue;
		n = treepath_changed(h.dag.odb, np ? &h.dag.trees[p[0]] : NULL, &h.dag.trees[c],
				     100000, &paths);
		CHECK(n >= 0);
		for (int i = 0; i < n; i++) {
			struct cgraph_path_key k;
			int r;
			cgraph_path_key_init(&k, paths[i].path);
			r = cgraph_maybe_changed(&h.graph, &h.dag.oids[c], &k);
			CHECK(r != 0);
			if (!r)
				fprintf(stderr, "  %s %s\n", git_oid_tostr_s(&h.dag.oids[c]), paths[i].path);
			nfilters += r == 1;
			changed++;
			cgraph_path_key_free(&k);
		}
		/* the previous commit's paths, where this one does not change them */
		for (int i = 0; i < nprev; i++) {
			struct cgraph_path_key k;
			struct treepath_cache tp;
			bool mine = false;
			for (int j = 0; j < n && !mine; j++)
				mine = !strcmp(paths[j].path, prev[i].path);
			if (!mine) {
				cgraph_path_key_init(&k, prev[i].path);
				unchanged++;
				ruled_out += cgraph_maybe_changed(&h.graph, &h.dag.oids[c], &k) == 0;
				cgraph_path_key_free(&k);
				/* path limiting gives the same answer with the filters */
				treepath_init(&tp, &h.dag, prev[i].path);
				CHECK(!treepath_touches(&tp, &h.dag, c));
				treepath_free(&tp);
			}
		}
		treepath_changes_free(prev, nprev);
		prev = paths;
		nprev = n < 0 ? 0 : n;
	}
	treepath_changes_free(prev, nprev);
	printf("%zu changed paths found in their filters (%zu filters), "
	       "%zu of %zu unchanged paths ruled out\n", changed, nfilters, ruled_out, unchanged);
	CHECK(changed > 100 && nfilters > 100);
	CHECK(ruled_out * 10 > unchanged * 8);
	history_close(&h);
	git_libgit2_shutdown();
	return check_done();
}
