/*
 * Patch-id and subject matching over a history.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/revsyntax.h"
#include "patchver/engine/treepath.h"
#include "patchver/engine/upstream.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/match.h"

const char *match_kind_name(enum match_kind k)
{
	return k == MATCH_PATCHID ? "patch-id" : k == MATCH_SUBJECT ? "subject" : "none";
}

/* Does commit i change any of the patch's files?  (caches per path) */
static bool touches(struct treepath_cache *caches, size_t n, const struct dag *dag,
		    uint32_t i)
{
	for (size_t k = 0; k < n; k++)
		if (treepath_touches(&caches[k], dag, i))
			return true;
	return false;
}

static void push(uint32_t **v, size_t *nr, size_t *alloc, uint32_t x)
{
	*v = xgrow(*v, alloc, *nr + 1, sizeof(**v));
	(*v)[(*nr)++] = x;
}

/* Non-merge commits touching the patch's files (all of them if it names none). */
static size_t candidates(struct history *h, const struct patch *p,
			 const bool *in_range, uint32_t **out)
{
	struct dag *dag = &h->dag;
	struct treepath_cache *caches = xcalloc(p->npaths + 1, sizeof(*caches));
	size_t nr = 0, alloc = 0;

	*out = NULL;
	for (size_t k = 0; k < p->npaths; k++)
		treepath_init(&caches[k], dag, p->paths[k]);
	for (uint32_t i = 0; i < dag->nr; i++) {
		unsigned np;
		if (!dag->loaded[i] || (in_range && !in_range[i]))
			continue;
		dag_parents(dag, i, &np);
		if (np > 1)
			continue;
		if (!p->npaths || touches(caches, p->npaths, dag, i))
			push(out, &nr, &alloc, i);
	}
	for (size_t k = 0; k < p->npaths; k++)
		treepath_free(&caches[k]);
	free(caches);
	return nr;
}

static bool is_mainline(struct history *h, struct contain *c, uint32_t commit)
{
	uint32_t r = contain_first_release(c, commit);
	return r == PV_NONE ? commit >= h->tag_commits
			       : !kver_is_stable(&h->tags.v[r].ver);
}

/* The upstream commit among matches: on mainline, earliest first release. */
static uint32_t pick_upstream(struct history *h, struct contain *c,
			      const uint32_t *v, size_t nr)
{
	uint32_t best = PV_NONE, best_rel = PV_NONE;

	for (size_t i = 0; i < nr; i++) {
		uint32_t r = contain_first_release(c, v[i]);
		if (!is_mainline(h, c, v[i]))
			continue;
		if (best == PV_NONE ||
		    (r != PV_NONE && (best_rel == PV_NONE ||
					 tags_cmp_version(&h->tags, r, best_rel) < 0))) {
			best = v[i];
			best_rel = r;
		}
	}
	return best != PV_NONE ? best : (nr ? v[0] : PV_NONE);
}

/*
 * A stable mail says which upstream commit it carries: that one, when
 * this history has it.  Else a stable commit picked by patch-id (an
 * adapted backport matches only itself) gives way to the upstream its
 * own message names.
 */
static uint32_t named_upstream(struct history *h, struct contain *c, const struct patch *p,
			       uint32_t picked, char ref[41])
{
	char hex[41];
	uint32_t named;

	*ref = '\0';
	if (p->message && upstream_ref(p->message, ref) &&
	    (named = rev_find_hex(&h->dag, ref)) != PV_NONE)
		return named;
	if (picked == PV_NONE || is_mainline(h, c, picked))
		return picked;
	named = backport_named_upstream(h, picked, hex);
	return named != PV_NONE ? named : picked;
}

static bool same_subject(struct history *h, uint32_t commit, const char *subject)
{
	char *s = history_subject(h, commit);
	bool same = !strcmp(s, subject);
	free(s);
	return same;
}

void match_patch(struct history *h, struct contain *c, const struct patch *p,
		 const bool *in_range, struct match *out)
{
	uint32_t *cand;
	size_t ncand = candidates(h, p, in_range, &cand), alloc = 0;

	memset(out, 0, sizeof(*out));
	out->upstream = PV_NONE;
	if (p->has_patchid) {
		for (size_t i = 0; i < ncand; i++)
			if (patch_same_id(h->repo, &h->dag, cand[i], p))
				push(&out->commits, &out->nr, &alloc, cand[i]);
		if (out->nr)
			out->kind = MATCH_PATCHID;
	}
	if (!out->nr && p->subject && *p->subject) {
		for (size_t i = 0; i < ncand; i++)
			if (same_subject(h, cand[i], p->subject))
				push(&out->commits, &out->nr, &alloc, cand[i]);
		if (out->nr)
			out->kind = MATCH_SUBJECT;
	}
	out->upstream = named_upstream(h, c, p, pick_upstream(h, c, out->commits, out->nr),
				       out->upstream_ref);
	free(cand);
}

void match_free(struct match *m)
{
	free(m->commits);
	memset(m, 0, sizeof(*m));
}

size_t match_twins(struct history *h, struct contain *c, uint32_t commit, const struct patch *p,
		   uint32_t **out)
{
	struct dag *dag = &h->dag;
	struct treepath_cache *caches;
	char *subject;
	bool *below;
	size_t nr = 0, alloc = 0;
	uint32_t first;

	*out = NULL;
	if (!p->has_patchid || !p->npaths)
		return 0;
	subject = history_subject(h, commit);
	first = contain_first_release(c, commit);
	below = dag_ancestors(dag, &commit, 1);
	caches = xcalloc(p->npaths + 1, sizeof(*caches));
	for (size_t k = 0; k < p->npaths; k++)
		treepath_init(&caches[k], dag, p->paths[k]);
	for (uint32_t i = 0; i < dag->nr; i++) {
		uint32_t r;
		if (below[i] || !dag->loaded[i])
			continue;
		/* in a mainline release: stable's copies are backports, not twins */
		r = contain_first_release(c, i);
		if (r == PV_NONE || kver_is_stable(&h->tags.v[r].ver))
			continue;
		/* a copy released with the fix or after it fixes no release the fix does not */
		if (first != PV_NONE && tags_cmp_version(&h->tags, r, first) >= 0)
			continue;
		if (!touches(caches, p->npaths, dag, i))
			continue;
		/* the same change merged twice keeps its subject: read that before a diff */
		if (same_subject(h, i, subject) && patch_same_id(h->repo, dag, i, p))
			push(out, &nr, &alloc, i);
	}
	for (size_t k = 0; k < p->npaths; k++)
		treepath_free(&caches[k]);
	free(caches);
	free(below);
	free(subject);
	return nr;
}

int match_range(struct history *h, const char *range, bool **mask)
{
	const char *to = rev_range_to(range);
	char *from;
	struct rev a, b;
	int ret;

	*mask = NULL;
	if (!to)
		return pv_error_set(PV_EINVALID, "'%s' is not a range A..B", range);
	from = xstrndup(range, (size_t)(to - 2 - range));
	ret = rev_resolve(&a, h->repo, &h->dag, from);
	if (!ret)
		ret = rev_resolve(&b, h->repo, &h->dag, to);
	free(from);
	if (ret)
		return ret;
	/* A..B: ancestors of B that are not ancestors of A */
	*mask = dag_ancestors(&h->dag, &b.commit, 1);
	{
		bool *old = dag_ancestors(&h->dag, &a.commit, 1);
		for (uint32_t c = 0; c < h->dag.nr; c++)
			(*mask)[c] = (*mask)[c] && !old[c];
		free(old);
	}
	return 0;
}
