/*
 * Choosing the right walk for git's per-rev cutoff.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/naming.h"

void naming_init(struct naming *n, const struct history *h, const char *match)
{
	const struct tag_table *t = &h->tags;
	struct sbuf pat = SBUF_INIT;

	memset(n, 0, sizeof(*n));
	n->h = h;
	n->tips = xmalloc(t->nr * sizeof(uint32_t) + 1);
	if (match)
		sbuf_addf(&pat, "refs/tags/%s", match);
	for (size_t i = 0; i < t->nr; i++) {
		/* describe --match P is name-rev --refs=refs/tags/P (wildmatch, no FNM_PATHNAME) */
		if (match && fnmatch(sbuf_str(&pat), t->v[i].refname, 0) != 0)
			continue;
		n->tips[n->ntips++] = (uint32_t)i;
	}
	sbuf_free(&pat);
	/* the index names from every tag: of use when --match keeps them all */
	if (n->ntips == t->nr)
		n->ix = history_index(h);
}

void naming_free(struct naming *n)
{
	if (n->have_full)
		namewalk_free(&n->full);
	for (size_t i = 0; i < n->ncuts; i++)
		namewalk_free(&n->cuts[i].nr);
	free(n->cuts);
	free(n->tips);
	free(n->min_desc_date);
	memset(n, 0, sizeof(*n));
}

static const struct namewalk *uncut_walk(struct naming *n)
{
	if (!n->have_full) {
		namewalk_walk(&n->full, &n->h->dag, &n->h->tags, n->tips, n->ntips,
			     NAMEWALK_NO_CUTOFF);
		n->have_full = true;
	}
	return &n->full;
}

bool naming_uncut_name(struct naming *n, uint32_t commit, struct sbuf *out)
{
	const struct relindex_name *name;

	if (commit >= n->h->tag_commits)
		return false;
	if (!n->ix)
		return namewalk_name(uncut_walk(n), commit, out);
	name = &n->ix->names[commit];
	if (!name->seg)
		return false;
	namechain_render(n->ix->segs, &n->h->tags, name->seg, name->generation, out);
	return true;
}

static const struct namewalk *cut_walk(struct naming *n, int64_t cutoff)
{
	struct cut_walk *w;

	for (size_t i = 0; i < n->ncuts; i++)
		if (n->cuts[i].cutoff == cutoff)
			return &n->cuts[i].nr;
	n->cuts = xrealloc(n->cuts, (n->ncuts + 1) * sizeof(*n->cuts));
	w = &n->cuts[n->ncuts++];
	w->cutoff = cutoff;
	namewalk_walk(&w->nr, &n->h->dag, &n->h->tags, n->tips, n->ntips, cutoff);
	return &w->nr;
}

/*
 * A lazy history: git's own cut walk, parsing only what it reaches.  With
 * a commit-graph holding the commit, cut by level (what git does with
 * generations); else by date.  The DAG grows as the walk reads commits,
 * which changes no answer: hence the cast.
 */
static int lazy_name(struct naming *n, uint32_t commit, struct sbuf *out, bool *named)
{
	const struct history *h = n->h;
	struct dag *dag = (struct dag *)&h->dag;
	const struct cgraph *graph = &h->graph;
	uint32_t level = cgraph_present(graph) ? cgraph_level(graph, &dag->oids[commit]) : PV_NONE;
	int64_t cutoff = NAMEWALK_NO_CUTOFF;
	struct cut_walk *w;

	if (level == PV_NONE) {      /* not in the graph: git cuts by date */
		graph = NULL;
		level = 0;
		cutoff = namewalk_cutoff_for(dag->dates[commit]);
	}
	for (w = n->cuts; w < n->cuts + n->ncuts; w++)
		if (w->cutoff == cutoff && w->level == level)
			break;
	if (w == n->cuts + n->ncuts) {
		n->cuts = xrealloc(n->cuts, (n->ncuts + 1) * sizeof(*n->cuts));
		w = &n->cuts[n->ncuts++];
		w->cutoff = cutoff;
		w->level = level;
		namewalk_walk_lazy(&w->nr, dag, &h->tags, n->tips, n->ntips, cutoff, graph, level);
	}
	/* a broken walk names nothing surely, for this commit or the next */
	if (w->nr.broken) {
		char hex[GIT_OID_HEXSZ + 1];
		git_oid_tostr(hex, sizeof(hex), &dag->oids[w->nr.broken - 1]);
		return pv_error_set(PV_ECORRUPT, "history below the tags is broken at %s: %s",
				    hex, git_errmsg());
	}
	*named = namewalk_name(&w->nr, commit, out);
	return 0;
}

int naming_name(struct naming *n, uint32_t commit, struct sbuf *out, bool *named)
{
	const struct history *h = n->h;
	bool in_graph;
	int64_t min_desc = 0;

	*named = false;
	if (h->lazy)
		return lazy_name(n, commit, out, named);
	if (commit >= h->tag_commits)
		return 0;       /* not reachable from any tag */
	in_graph = cgraph_present(&h->graph) && cgraph_contains(&h->graph, &h->dag.oids[commit]);
	if (!in_graph && n->ix) {
		min_desc = n->ix->min_desc[commit];
	} else if (!in_graph) {
		if (!n->min_desc_date)
			n->min_desc_date = dag_min_desc_dates(&h->dag);
		min_desc = n->min_desc_date[commit];
	}
	if (namewalk_uncut_is_gits(in_graph, h->dag.dates[commit], min_desc))
		*named = naming_uncut_name(n, commit, out);
	else
		*named = namewalk_name(cut_walk(n, namewalk_cutoff_for(h->dag.dates[commit])),
				       commit, out);
	return 0;
}

bool naming_exact(struct naming *n, const git_oid *object, struct sbuf *out)
{
	const struct tag_table *t = &n->h->tags;

	for (size_t i = 0; i < n->ntips; i++) {
		if (git_oid_equal(&t->v[n->tips[i]].target, object)) {
			sbuf_adds(out, t->v[n->tips[i]].shortname);
			return true;
		}
	}
	return false;
}
