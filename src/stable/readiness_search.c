/*
 * The prerequisites' search of backport readiness (readiness_search.h):
 * which commits, applied in order, make a diff go into a release.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/treepath.h"
#include "patchver/engine/upstream.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/patch.h"
#include "patchver/stable/readiness_search.h"

void ready_search_init(struct ready_search *x, struct history *h, uint32_t onto)
{
	memset(x, 0, sizeof(*x));
	x->h = h;
	x->onto = onto;
	x->base = PV_NONE;
}

void ready_search_free(struct ready_search *x)
{
	for (size_t i = 0; i < x->ncands; i++) {
		diff_files_free(&x->cands[i]->diff);
		for (size_t k = 0; k < x->cands[i]->npaths; k++)
			free(x->cands[i]->paths[k]);
		free(x->cands[i]->paths);
		free(x->cands[i]);
	}
	free(x->cands);
	free(x->in_onto);
	free(x->in_tip);
	free(x->line);
	free(x->reverted);
	free(x->carried_up);
	free(x->carried_by);
	free(x->topo);
	memset(x, 0, sizeof(*x));
}

/*
 * A commit of the release's line that reverts another of it ("This
 * reverts commit X", or 'Revert "subject"'): that one is not there any more.
 */
static void mark_reverted(struct ready_search *x, uint32_t c)
{
	char *msg = history_message(x->h, c), *subject = NULL, hex[41];

	if (!msg || !upstream_revert(msg, hex, &subject)) {
		free(msg);
		return;
	}
	for (size_t i = 0; i < x->nline; i++) {
		char *other = *hex ? NULL : history_subject(x->h, x->line[i]);
		uint32_t named = *hex ? rev_find_hex(&x->h->dag, hex) : PV_NONE;
		if (x->line[i] != c && ((*hex && named == x->line[i]) ||
					(!*hex && subject && other && !strcmp(other, subject))))
			x->reverted[i] = true;
		free(other);
	}
	free(subject);
	free(msg);
}

/*
 * What the release already has: its ancestors, and the upstream commits
 * its own line's commits name.  0 or a PV_E* code.
 */
int ready_search_prepare(struct ready_search *x, uint32_t tip)
{
	struct dag *dag = &x->h->dag;
	uint32_t *all;
	size_t n = 0;

	x->tip = tip;
	x->in_onto = dag_ancestors(dag, &x->onto, 1);
	x->in_tip = dag_ancestors(dag, &tip, 1);
	if (!x->in_onto || !x->in_tip)
		return pv_error_set(PV_ECORRUPT, "cannot read the history below %s",
				    git_oid_tostr_s(&dag->oids[x->onto]));
	/* the release line's own commits (base..onto), what they revert, the upstreams they name */
	for (uint32_t c = 0; c < dag->nr; c++) {
		uint32_t np;
		if (!x->in_onto[c] || x->in_tip[c])
			continue;
		dag_parents(dag, c, &np);
		if (np != 1)
			continue;
		x->line = xrealloc(x->line, (x->nline + 1) * sizeof(uint32_t));
		x->line[x->nline++] = c;
	}
	x->reverted = xcalloc(x->nline + 1, sizeof(*x->reverted));
	for (size_t i = 0; i < x->nline; i++)
		mark_reverted(x, x->line[i]);
	for (size_t i = 0; i < x->nline; i++) {
		char hex[41];
		uint32_t up;
		if (x->reverted[i] || (up = backport_named_upstream(x->h, x->line[i], hex)) == PV_NONE)
			continue;
		x->carried_up = xrealloc(x->carried_up, (x->ncarried + 1) * sizeof(uint32_t));
		x->carried_by = xrealloc(x->carried_by, (x->ncarried + 1) * sizeof(uint32_t));
		x->carried_up[x->ncarried] = up;
		x->carried_by[x->ncarried++] = x->line[i];
	}
	/* oldest first: the order the commits went in */
	all = dag_topo_order(dag);
	x->topo = xmalloc((dag->nr + 1) * sizeof(*x->topo));
	for (size_t i = dag->nr; i-- > 0;)
		if (dag->loaded[all[i]])
			x->topo[n++] = all[i];
	x->ntopo = n;
	free(all);
	return 0;
}

uint32_t ready_search_carrier(const struct ready_search *x, uint32_t upstream)
{
	for (size_t i = 0; i < x->ncarried; i++)
		if (x->carried_up[i] == upstream)
			return x->carried_by[i];
	return PV_NONE;
}

struct ready_cand *ready_search_cand(struct ready_search *x, uint32_t commit)
{
	struct dag *dag = &x->h->dag;
	struct ready_cand *c;
	struct patch p;
	uint32_t np;
	const uint32_t *par;

	for (size_t i = 0; i < x->ncands; i++)
		if (x->cands[i]->commit == commit)
			return x->cands[i];
	if (patch_from_commit(&p, x->h->repo, &dag->oids[commit]) < 0) {
		pv_error_set(PV_ECORRUPT, "cannot read the diff of %s: %s",
			     git_oid_tostr_s(&dag->oids[commit]),
			     git_error_last() ? git_error_last()->message : "unknown error");
		git_error_clear();
		return NULL;
	}
	x->cands = xrealloc(x->cands, (x->ncands + 1) * sizeof(*x->cands));
	c = x->cands[x->ncands++] = xcalloc(1, sizeof(*c));
	c->commit = commit;
	diff_files_parse(&c->diff, p.diff);
	c->paths = p.paths;
	c->npaths = p.npaths;
	p.paths = NULL;
	p.npaths = 0;
	patch_free(&p);
	par = dag_parents(dag, commit, &np);
	c->opts.max_fuzz = 2;
	c->opts.three_way = true;
	c->opts.adapt = true;
	c->opts.preimage = np ? &dag->trees[par[0]] : NULL;
	c->opts.own_since = x->base != PV_NONE ? &dag->trees[x->base] : NULL;
	c->as_is = c->opts;
	c->as_is.adapt = false;
	return c;
}

static bool listed(const uint32_t *v, size_t n, uint32_t c)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == c)
			return true;
	return false;
}

int ready_search_candidates(struct ready_search *x, uint32_t tip, char *const *paths,
			    size_t npaths, const uint32_t *skip, size_t nskip,
			    uint32_t **out, size_t *n)
{
	struct dag *dag = &x->h->dag;
	struct treepath_cache *tp;
	/* the fix's parent's ancestors are known already; a prerequisite's are walked */
	bool *walked = tip == x->tip ? NULL : dag_ancestors(dag, &tip, 1);
	const bool *in_tip = tip == x->tip ? x->in_tip : walked;

	*out = NULL;
	*n = 0;
	if (!in_tip)
		return pv_error_set(PV_ECORRUPT, "cannot read the history below %s",
				    git_oid_tostr_s(&dag->oids[tip]));
	tp = xcalloc(npaths + 1, sizeof(*tp));
	for (size_t k = 0; k < npaths; k++)
		treepath_init(&tp[k], dag, paths[k]);
	for (size_t i = 0; i < x->ntopo; i++) {
		uint32_t c = x->topo[i], np;
		bool touches = false;
		if (!in_tip[c] || x->in_onto[c] || listed(skip, nskip, c) ||
		    ready_search_carrier(x, c) != PV_NONE)
			continue;
		dag_parents(dag, c, &np);
		if (np != 1)
			continue;
		for (size_t k = 0; k < npaths && !touches; k++)
			touches = treepath_touches(&tp[k], dag, c);
		if (!touches)
			continue;
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = c;
	}
	for (size_t k = 0; k < npaths; k++)
		treepath_free(&tp[k]);
	free(tp);
	free(walked);
	return 0;
}

/*
 * Apply list in order to a copy of start (each as it goes in at best,
 * adapted at worst; one that goes in in no form fails the list), then
 * target: how target went in, or APPLY_CONFLICT.  A negative PV_E* code
 * when an object cannot be read.
 */
static int trial(struct ready_search *x, const struct apply_tree *start, const uint32_t *list,
		 size_t n, const struct diff_files *target, const struct apply_opts *topts)
{
	struct apply_tree t;
	int how = APPLY_CLEAN;

	apply_tree_copy(&t, start);
	for (size_t i = 0; i < n && how < APPLY_CONFLICT; i++) {
		struct ready_cand *c = ready_search_cand(x, list[i]);
		how = c ? apply_tree_diff(&t, &c->diff, &c->opts, NULL) : PV_ECORRUPT;
	}
	if (how >= 0 && how < APPLY_CONFLICT)
		how = apply_tree_diff(&t, target, topts, NULL);
	apply_tree_free(&t);
	return how;
}

int ready_search_minimal(struct ready_search *x, const struct apply_tree *start,
			 const uint32_t *cands, size_t ncands, const struct diff_files *target,
			 const struct apply_opts *topts, enum apply_how goal,
			 uint32_t **list, size_t *n)
{
	struct apply_tree t;
	uint32_t *keep = xmalloc((ncands + 1) * sizeof(*keep)), *trial_list;
	size_t nkeep = 0;
	int how = APPLY_CLEAN;

	*list = NULL;
	*n = 0;
	/* every candidate that goes in, in order */
	apply_tree_copy(&t, start);
	for (size_t i = 0; i < ncands; i++) {
		struct ready_cand *c = ready_search_cand(x, cands[i]);
		if (!c) {
			how = PV_ECORRUPT;
			break;
		}
		how = apply_tree_diff(&t, &c->diff, &c->opts, NULL);
		if (how < 0)
			break;
		if (how < APPLY_CONFLICT)
			keep[nkeep++] = cands[i];
	}
	if (how >= 0)
		how = apply_tree_diff(&t, target, topts, NULL);
	apply_tree_free(&t);
	if (how < 0 || how > (int)goal) {
		free(keep);
		return how < 0 ? how : 0;
	}
	/* leave each out in turn, newest first, while the rest still do it */
	trial_list = xmalloc((nkeep + 1) * sizeof(*trial_list));
	for (size_t j = nkeep; j-- > 0;) {
		size_t m = 0;
		for (size_t i = 0; i < nkeep; i++)
			if (i != j)
				trial_list[m++] = keep[i];
		how = trial(x, start, trial_list, m, target, topts);
		if (how < 0)
			break;
		if (how <= (int)goal) {
			memcpy(keep, trial_list, m * sizeof(*keep));
			nkeep = m;
		}
	}
	free(trial_list);
	if (how < 0) {
		free(keep);
		return how;
	}
	*list = keep;
	*n = nkeep;
	return 1;
}
