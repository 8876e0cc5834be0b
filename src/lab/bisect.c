/*
 * Bisection: midpoints, skips, and the ranges to search.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/lab/bisect.h"

/*
 * The item to test among lo .. hi - 1: the midpoint, else the nearest
 * untested one, alternating below and above.  SIZE_MAX when every item in
 * between was skipped.
 */
static size_t pick(size_t lo, size_t hi, const bool *skipped)
{
	size_t mid = lo + (hi - lo) / 2;

	for (size_t d = 0; d <= hi - lo; d++) {
		if (mid >= lo + d && !skipped[mid - d])
			return mid - d;
		if (mid + d < hi && !skipped[mid + d])
			return mid + d;
	}
	return SIZE_MAX;
}

int bisect_search(size_t n, bisect_oracle oracle, void *ctx, struct bisect_result *r)
{
	bool *skipped = xcalloc(n ? n : 1, sizeof(*skipped));
	size_t lo = 0, hi = n ? n - 1 : 0;   /* untested: lo .. hi - 1; hi is new */
	int ret = 0;

	memset(r, 0, sizeof(*r));
	while (hi > lo) {
		enum bisect_answer v;
		size_t at = pick(lo, hi, skipped);

		if (at == SIZE_MAX) {
			r->ambiguous = true;
			break;
		}
		r->steps++;
		if ((ret = oracle(ctx, at, &v)))
			break;
		if (v == BISECT_SKIP)
			skipped[at] = true;
		else if (v == BISECT_NEW)
			hi = at;
		else
			lo = at + 1;
	}
	/* a skipped item between the last old and the first new may be it */
	for (size_t k = lo; k < hi; k++)
		r->ambiguous = r->ambiguous || skipped[k];
	r->first_new = hi;
	r->lo = lo;
	free(skipped);
	return ret;
}

uint32_t *bisect_releases(const struct tag_table *t, uint32_t good, uint32_t bad,
			  const char *series, size_t *n)
{
	uint32_t *out = xmalloc((t->nreleases + 1) * sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < t->nreleases; i++) {
		uint32_t r = t->releases[i];
		const struct kver *v = &t->v[r].ver;

		if (tags_cmp_version(t, r, good) <= 0 || tags_cmp_version(t, r, bad) > 0)
			continue;
		if (series) {
			char name[32];
			kver_series(v, name, sizeof(name));
			if (strcmp(name, series) || kver_is_rc(v))
				continue;
		} else if (kver_is_stable(v)) {
			continue;   /* not an ancestor of later mainline tags */
		}
		out[(*n)++] = r;
	}
	return out;
}

uint32_t *bisect_first_parent(struct dag *dag, uint32_t bad, const uint32_t *old,
			      size_t nold, size_t *n)
{
	bool *old_side = dag_ancestors(dag, old, nold);
	uint32_t *line = NULL, c = bad;
	size_t alloc = 0;

	*n = 0;
	while (c != PV_NONE && c < dag->nr && !old_side[c]) {
		uint32_t np;
		const uint32_t *p;

		line = xgrow(line, &alloc, *n + 1, sizeof(*line));
		line[(*n)++] = c;
		dag_load(dag, c);
		p = dag_parents(dag, c, &np);
		c = np ? p[0] : PV_NONE;
	}
	for (size_t i = 0; i < *n / 2; i++) {
		uint32_t tmp = line[i];
		line[i] = line[*n - 1 - i];
		line[*n - 1 - i] = tmp;
	}
	free(old_side);
	return line;
}

struct line_search {
	const uint32_t *items;
	bisect_commit_oracle oracle;
	void *ctx;
};

static int line_oracle(void *ctx, size_t i, enum bisect_answer *out)
{
	struct line_search *l = ctx;
	return l->oracle(l->ctx, l->items[i], out);
}

/*
 * The side of a blamed merge to search next: the only other parent of a
 * plain merge; for an octopus, the first other parent that is new (one
 * test per side).  PV_NONE: no side is new, the merge itself is to blame.
 */
static int blamed_side(struct dag *dag, uint32_t merge, bisect_commit_oracle oracle,
		       void *ctx, uint32_t **olds, size_t *nold, uint32_t *side, size_t *steps)
{
	uint32_t np;
	const uint32_t *p = dag_parents(dag, merge, &np);

	*side = PV_NONE;
	*olds = xrealloc(*olds, (np + 1) * sizeof(**olds));
	(*olds)[(*nold)++] = p[0];
	if (np == 2) {
		*side = p[1];
		return 0;
	}
	for (uint32_t k = 1; k < np; k++) {
		enum bisect_answer v;
		int ret;

		(*steps)++;
		if ((ret = oracle(ctx, p[k], &v)))
			return ret;
		if (v == BISECT_NEW) {
			*side = p[k];
			return 0;
		}
		(*olds)[(*nold)++] = p[k];   /* old (or untestable): not this side */
	}
	return 0;
}

int bisect_commits(struct dag *dag, uint32_t old, uint32_t new, bisect_commit_oracle oracle,
		   void *ctx, void (*on_stage)(void *ctx, size_t n, bool merged),
		   struct bisect_commits_result *r)
{
	uint32_t *olds = xmalloc(sizeof(*olds)), top = new;
	size_t nold = 1;
	int ret = 0;

	olds[0] = old;
	memset(r, 0, sizeof(*r));
	r->commit = new;
	for (int depth = 0; depth < 64 && !ret; depth++) {
		struct line_search l = { NULL, oracle, ctx };
		struct bisect_result br;
		uint32_t *items, np;
		size_t n;

		items = bisect_first_parent(dag, top, olds, nold, &n);
		if (depth > 0) {   /* the merge closes the merged line, and is known new */
			items = xrealloc(items, (n + 1) * sizeof(*items));
			items[n++] = r->commit;
		}
		if (on_stage)
			on_stage(ctx, n, depth > 0);
		l.items = items;
		ret = n ? bisect_search(n, line_oracle, &l, &br) : 0;
		if (!ret && n) {
			r->steps += br.steps;
			r->commit = items[br.first_new];
			r->ambiguous = br.ambiguous;
			if (br.ambiguous) {
				r->ncandidates = br.first_new - br.lo + 1;
				r->candidates = xmalloc(r->ncandidates * sizeof(*r->candidates));
				memcpy(r->candidates, items + br.lo, r->ncandidates * sizeof(*items));
			}
		}
		free(items);
		if (ret || !n || r->ambiguous || (depth > 0 && br.first_new == n - 1))
			break;
		dag_load(dag, r->commit);
		dag_parents(dag, r->commit, &np);
		if (np < 2)
			break;
		/* a merge whose first parent is old: the culprit came with another side */
		nold = 1;
		if ((ret = blamed_side(dag, r->commit, oracle, ctx, &olds, &nold, &top, &r->steps)) ||
		    top == PV_NONE)
			break;
	}
	free(olds);
	return ret;
}

const char *bisect_answer_name(enum bisect_answer v, bool fix_phase)
{
	if (v == BISECT_FLAKY)
		return "flaky";
	if (v == BISECT_SKIP)
		return "skip";
	if (v == BISECT_NEW)
		return fix_phase ? "good (fixed)" : "bad";
	return fix_phase ? "bad (not fixed)" : "good";
}
