/*
 * Containment: descendants walks and first-release assignment.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/indexer.h"

void contain_init(struct contain *c, struct history *h)
{
	memset(c, 0, sizeof(*c));
	c->h = h;
	c->reach_commit = PV_NONE;
	c->known_target = PV_NONE;
}

void contain_free(struct contain *c)
{
	free(c->mark);
	free(c->queue);
	free(c->first_release);
	cgraph_reach_free(&c->reach);
	free(c->tag_pos);
	free(c->known);
	memset(c, 0, sizeof(*c));
}

/*
 * A lazy history answers containment from git's commit-graph when it
 * holds every tag's commit.  A commit the graph lacks is in no tag: the
 * graph holds every ancestor of what it holds.
 */
static int graph_contains(struct contain *c, uint32_t tag, uint32_t commit)
{
	struct history *h = c->h;
	uint32_t pos;

	if (c->reach_commit != commit) {
		cgraph_reach_free(&c->reach);
		pos = dag_graph_pos(&h->dag, commit);
		if (pos == PV_NONE)
			return 0;
		cgraph_reach_init(&c->reach, &h->graph, pos);
		c->reach_commit = commit;
	}
	if (!c->tag_pos) {
		c->tag_pos = xmalloc(h->tags.nr * sizeof(uint32_t) + 1);
		for (size_t t = 0; t < h->tags.nr; t++)
			c->tag_pos[t] = h->tags.v[t].commit == PV_NONE ? PV_NONE :
				dag_graph_pos(&h->dag, h->tags.v[t].commit);
	}
	if (c->tag_pos[tag] == PV_NONE)
		return 0;
	return cgraph_reaches(&c->reach, c->tag_pos[tag]);
}

enum containment { V_UNKNOWN, V_YES, V_NO };

/* Whether commit x contains the target (enum containment), the array grown with the lazy DAG. */
static uint8_t *known_of(struct contain *c, uint32_t x)
{
	if (x >= c->known_nr) {
		size_t old = c->known_nr, alloc = c->h->dag.nr + 1024u;
		c->known = xrealloc(c->known, alloc);
		memset(c->known + old, V_UNKNOWN, alloc - old);
		c->known_nr = (uint32_t)alloc;
	}
	return &c->known[x];
}

/*
 * Without a graph: git's contains_tag_algo (commit-reach.c), a depth-first
 * walk from tag t's commit that parses commits as it reaches them.  A
 * commit contains the target as soon as one parent does (its other
 * parents are never read), and what it learns is kept for the next tag, so it
 * reads what git tag --contains reads.  1, 0, or PV_ECORRUPT (a commit
 * unreadable).
 */
static int walk_contains(struct contain *c, uint32_t tag, uint32_t target)
{
	struct dag *dag = &c->h->dag;
	uint32_t tip = c->h->tags.v[tag].commit;
	struct frame { uint32_t commit; unsigned next; } *stack = NULL;
	size_t nr = 0, alloc = 0;
	int ret;

	if (c->known_target != target) {
		free(c->known);
		c->known = NULL;
		c->known_nr = 0;
		c->known_target = target;
	}
	if (tip == PV_NONE)
		return 0;
	if (tip == target)
		return 1;
	if (*known_of(c, tip) != V_UNKNOWN)
		return *known_of(c, tip) == V_YES;
	stack = xgrow(stack, &alloc, 1, sizeof(*stack));
	stack[nr++] = (struct frame){ tip, 0 };
	while (nr) {
		struct frame *f = &stack[nr - 1];
		unsigned np;
		const uint32_t *par;
		uint32_t p;
		uint8_t v;

		if (dag_parse(dag, f->commit) < 0) {
			char hex[GIT_OID_HEXSZ + 1];

			git_oid_tostr(hex, sizeof(hex), &dag->oids[f->commit]);
			ret = pv_error_wrap(PV_ECORRUPT, "history of tag %s is broken at %s: ",
					    c->h->tags.v[tag].shortname, hex);
			goto out;
		}
		par = dag_parents(dag, f->commit, &np);
		if (f->next == np) {
			*known_of(c, f->commit) = V_NO;
			nr--;
			continue;
		}
		p = par[f->next];
		v = p == target ? V_YES : *known_of(c, p);
		if (v == V_YES) {
			*known_of(c, f->commit) = V_YES;
			nr--;
		} else if (v == V_NO) {
			f->next++;
		} else {
			stack = xgrow(stack, &alloc, nr + 1, sizeof(*stack));
			stack[nr++] = (struct frame){ p, 0 };
		}
	}
	ret = *known_of(c, tip) == V_YES;
out:
	free(stack);
	return ret;
}

/* Does tag t contain commit?  A lazy history: by the graph or git's walk. */
static int lazy_contains(struct contain *c, uint32_t t, uint32_t commit)
{
	int ret;

	if (c->h->graph_has_tags && (ret = graph_contains(c, t, commit)) >= 0)
		return ret;
	/* no graph, or a damaged one: git's walk over the objects */
	return walk_contains(c, t, commit);
}

static int lazy_tags(struct contain *c, uint32_t commit, uint32_t **tags, size_t *n)
{
	uint32_t *out = xmalloc(c->h->tags.nr * sizeof(uint32_t) + 1);
	int ret = 0;

	*n = 0;
	for (uint32_t t = 0; t < c->h->tags.nr && ret >= 0; t++)
		if ((ret = lazy_contains(c, t, commit)) > 0)
			out[(*n)++] = t;
	if (ret < 0) {
		free(out);
		out = NULL;
		*n = 0;
	}
	*tags = out;
	return ret < 0 ? ret : 0;
}

/* A whole history's descendants walk from commit, marking as it goes. */
static uint32_t *walk_tags(struct contain *c, uint32_t commit, size_t *n)
{
	struct dag *dag = &c->h->dag;
	uint32_t *out = NULL, head = 0, tail = 0;
	size_t nr = 0, alloc = 0;

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

int contain_tags_of(struct contain *c, uint32_t commit, uint32_t **tags, size_t *n)
{
	*n = 0;
	*tags = NULL;
	if (c->h->lazy)
		return lazy_tags(c, commit, tags, n);
	if (commit >= c->h->tag_commits)
		return 0;       /* no tag reaches it */
	if (history_index(c->h))
		*tags = relindex_tags_containing(history_index(c->h), commit, n);
	else
		*tags = walk_tags(c, commit, n);
	return 0;
}

int contain_first_release_of(struct contain *c, uint32_t commit, uint32_t *release)
{
	const struct relindex *ix;
	const struct tag_table *t = &c->h->tags;
	int ret;

	*release = PV_NONE;
	if (c->h->lazy) {
		/* releases in version order: the first that contains it */
		for (size_t r = 0; r < t->nreleases; r++)
			if ((ret = lazy_contains(c, t->releases[r], commit)) != 0) {
				if (ret > 0)
					*release = t->releases[r];
				return ret < 0 ? ret : 0;
			}
		return 0;
	}
	if (commit >= c->h->tag_commits)
		return 0;
	ix = history_index(c->h);
	if (ix && !strcmp(ix->glob, c->h->release_glob)) {
		*release = ix->first[commit];
		return 0;
	}
	if (!c->first_release)
		c->first_release = indexer_first_releases(&c->h->dag, &c->h->tags);
	*release = c->first_release[commit];
	return 0;
}

uint32_t *contain_tags(struct contain *c, uint32_t commit, size_t *n)
{
	uint32_t *tags;

	contain_tags_of(c, commit, &tags, n);
	return tags;
}

uint32_t contain_first_release(struct contain *c, uint32_t commit)
{
	uint32_t release;

	contain_first_release_of(c, commit, &release);
	return release;
}
