/*
 * Containment: descendants walks and first-release assignment.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/contain.h"
#include "patchver/base/util.h"

void contain_init(struct contain *c, struct history *h)
{
	memset(c, 0, sizeof(*c));
	c->h = h;
}

void contain_free(struct contain *c)
{
	free(c->mark);
	free(c->queue);
	free(c->first_release);
	memset(c, 0, sizeof(*c));
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

uint32_t *contain_tags(struct contain *c, uint32_t commit, size_t *n)
{
	struct dag *dag = &c->h->dag;
	uint32_t *out = NULL, head = 0, tail = 0;
	size_t nr = 0, alloc = 0;

	*n = 0;
	if (commit >= c->h->tag_commits)
		return NULL;    /* no tag reaches it */
	dag_build_children(dag);
	if (c->mark_nr != dag->nr) {   /* the DAG grew since the last walk */
		free(c->mark);
		free(c->queue);
		c->mark = xcalloc(dag->nr, sizeof(uint32_t));
		c->queue = xmalloc((size_t)dag->nr * sizeof(uint32_t) + 1);
		c->mark_nr = dag->nr;
		c->epoch = 0;
	}
	if (++c->epoch == 0) {
		memset(c->mark, 0, (size_t)dag->nr * sizeof(uint32_t));
		c->epoch = 1;
	}
	c->mark[commit] = c->epoch;
	c->queue[tail++] = commit;
	while (head < tail) {
		uint32_t x = c->queue[head++];
		unsigned nch;
		const uint32_t *ch;
		size_t nt;
		const uint32_t *t = tags_at_commit(&c->h->tags, x, &nt);

		for (size_t i = 0; i < nt; i++) {
			out = xgrow(out, &alloc, nr + 1, sizeof(*out));
			out[nr++] = t[i];
		}
		ch = dag_children(dag, x, &nch);
		for (unsigned i = 0; i < nch; i++) {
			if (ch[i] >= dag->children_nr || c->mark[ch[i]] == c->epoch)
				continue;
			c->mark[ch[i]] = c->epoch;
			c->queue[tail++] = ch[i];
		}
	}
	qsort(out, nr, sizeof(*out), cmp_u32);
	*n = nr;
	return out;
}

static void assign_first_releases(struct contain *c)
{
	struct dag *dag = &c->h->dag;
	const struct tag_table *t = &c->h->tags;
	uint32_t *stack = xmalloc((size_t)dag->nr * sizeof(uint32_t) + 1);

	c->first_release = xmalloc((size_t)dag->nr * sizeof(uint32_t) + 1);
	memset(c->first_release, 0xff, (size_t)dag->nr * sizeof(uint32_t));
	/*
	 * A commit an earlier release claimed has all its ancestors claimed
	 * too (by that release or earlier), so each walk stops there and
	 * every commit is visited once.
	 */
	for (size_t r = 0; r < t->nreleases; r++) {
		uint32_t tag = t->releases[r], sp = 0;
		uint32_t top = t->v[tag].commit;

		if (c->first_release[top] != UINT32_MAX)
			continue;
		c->first_release[top] = tag;
		stack[sp++] = top;
		while (sp) {
			unsigned np;
			const uint32_t *par = dag_parents(dag, stack[--sp], &np);
			for (unsigned i = 0; i < np; i++) {
				if (c->first_release[par[i]] != UINT32_MAX)
					continue;
				c->first_release[par[i]] = tag;
				stack[sp++] = par[i];
			}
		}
	}
	free(stack);
}

uint32_t contain_first_release(struct contain *c, uint32_t commit)
{
	if (commit >= c->h->tag_commits)
		return UINT32_MAX;
	if (!c->first_release)
		assign_first_releases(c);
	return c->first_release[commit];
}

size_t contain_releases(const struct history *h, const uint32_t *tags,
			size_t n, uint32_t *out)
{
	size_t k = 0;

	if (!n)
		return 0;
	/* h->tags.releases is already in version order: filter it */
	for (size_t r = 0; r < h->tags.nreleases; r++) {
		uint32_t t = h->tags.releases[r];
		if (bsearch(&t, tags, n, sizeof(*tags), cmp_u32))
			out[k++] = t;
	}
	return k;
}
