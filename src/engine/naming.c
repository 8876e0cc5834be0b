/*
 * Choosing the right walk for git's per-rev cutoff.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

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
}

void naming_free(struct naming *n)
{
	if (n->have_full)
		namerev_free(&n->full);
	for (size_t i = 0; i < n->ncuts; i++)
		namerev_free(&n->cuts[i].nr);
	free(n->cuts);
	free(n->tips);
	free(n->min_desc_date);
	memset(n, 0, sizeof(*n));
}

const struct namerev *naming_uncut(struct naming *n)
{
	if (!n->have_full) {
		namerev_walk(&n->full, &n->h->dag, &n->h->tags, n->tips, n->ntips,
			     NAMEREV_NO_CUTOFF);
		n->have_full = true;
	}
	return &n->full;
}

/* For every commit, the oldest date on it or any descendant. */
static void compute_min_desc(struct naming *n)
{
	const struct dag *dag = &n->h->dag;
	uint32_t *order = dag_topo_order(dag);

	n->min_desc_date = xmalloc((size_t)dag->nr * sizeof(int64_t) + 1);
	memcpy(n->min_desc_date, dag->dates, (size_t)dag->nr * sizeof(int64_t));
	/* children come before parents in order: push minima down */
	for (uint32_t k = 0; k < dag->nr; k++) {
		uint32_t c = order[k];
		unsigned np;
		const uint32_t *par = dag_parents(dag, c, &np);
		for (unsigned i = 0; i < np; i++)
			if (n->min_desc_date[par[i]] > n->min_desc_date[c])
				n->min_desc_date[par[i]] = n->min_desc_date[c];
	}
	free(order);
}

static const struct namerev *cut_walk(struct naming *n, int64_t cutoff)
{
	struct cut_walk *w;

	for (size_t i = 0; i < n->ncuts; i++)
		if (n->cuts[i].cutoff == cutoff)
			return &n->cuts[i].nr;
	n->cuts = xrealloc(n->cuts, (n->ncuts + 1) * sizeof(*n->cuts));
	w = &n->cuts[n->ncuts++];
	w->cutoff = cutoff;
	namerev_walk(&w->nr, &n->h->dag, &n->h->tags, n->tips, n->ntips, cutoff);
	return &w->nr;
}

bool naming_name(struct naming *n, uint32_t commit, struct sbuf *out)
{
	const struct history *h = n->h;
	int64_t cutoff;

	if (commit >= h->tag_commits)
		return false;   /* not reachable from any tag */
	if (cgraph_present(&h->graph) &&
	    cgraph_contains(&h->graph, &h->dag.oids[commit]))
		return namerev_name(naming_uncut(n), commit, out);
	cutoff = namerev_cutoff_for(h->dag.dates[commit]);
	if (!n->min_desc_date)
		compute_min_desc(n);
	if (n->min_desc_date[commit] >= cutoff)
		return namerev_name(naming_uncut(n), commit, out);
	return namerev_name(cut_walk(n, cutoff), commit, out);
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
