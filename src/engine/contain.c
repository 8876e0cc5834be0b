/*
 * Containment: descendants walks and first-release assignment.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/contain.h"
#include "patchver/engine/indexer.h"
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

/* From the index: each tag's ancestors are intervals of dense ids. */
static uint32_t *indexed_tags(const struct relindex *ix, uint32_t commit, size_t *n)
{
	uint32_t *out = xmalloc((size_t)ix->ntags * sizeof(uint32_t) + 1);

	*n = 0;
	for (uint32_t t = 0; t < ix->ntags; t++)
		if (relindex_tag_contains(ix, t, commit))
			out[(*n)++] = t;
	return out;
}

uint32_t *contain_tags(struct contain *c, uint32_t commit, size_t *n)
{
	struct dag *dag = &c->h->dag;
	uint32_t *out = NULL, head = 0, tail = 0;
	size_t nr = 0, alloc = 0;

	*n = 0;
	if (commit >= c->h->tag_commits)
		return NULL;    /* no tag reaches it */
	if (history_index(c->h))
		return indexed_tags(history_index(c->h), commit, n);
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

uint32_t contain_first_release(struct contain *c, uint32_t commit)
{
	const struct relindex *ix;

	if (commit >= c->h->tag_commits)
		return UINT32_MAX;
	ix = history_index(c->h);
	if (ix && !strcmp(ix->glob, c->h->release_glob))
		return ix->first[commit];
	if (!c->first_release)
		c->first_release = indexer_first_releases(&c->h->dag, &c->h->tags);
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
