/*
 * Containment: descendants walks and first-release assignment.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/contain.h"
#include "patchver/engine/indexer.h"
#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"

void contain_init(struct contain *c, struct history *h)
{
	memset(c, 0, sizeof(*c));
	c->h = h;
	c->reach_commit = PV_NONE;
	c->verdict_target = PV_NONE;
}

void contain_free(struct contain *c)
{
	free(c->mark);
	free(c->queue);
	free(c->first_release);
	cgraph_reach_free(&c->reach);
	free(c->tag_pos);
	free(c->verdict);
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

enum verdict { V_UNKNOWN, V_YES, V_NO };

/* The verdict of commit x, the array grown with the lazy DAG. */
static uint8_t *verdict_of(struct contain *c, uint32_t x)
{
	if (x >= c->verdict_nr) {
		size_t old = c->verdict_nr, alloc = c->h->dag.nr + 1024u;
		c->verdict = xrealloc(c->verdict, alloc);
		memset(c->verdict + old, V_UNKNOWN, alloc - old);
		c->verdict_nr = (uint32_t)alloc;
	}
	return &c->verdict[x];
}

/*
 * Without a graph: git's contains_tag_algo (commit-reach.c), a depth-first
 * walk from tag t's commit that parses commits as it reaches them.  A
 * commit contains the target as soon as one parent does (its other
 * parents are never read), and verdicts are kept for the next tag, so it
 * reads what git tag --contains reads.  1, 0, or -1 (a commit unreadable:
 * c->err set, the message printed once).
 */
static int walk_contains(struct contain *c, uint32_t tag, uint32_t target)
{
	struct dag *dag = &c->h->dag;
	uint32_t tip = c->h->tags.v[tag].commit;
	struct frame { uint32_t commit; unsigned next; } *stack = NULL;
	size_t nr = 0, alloc = 0;
	int ret;

	if (c->verdict_target != target) {
		free(c->verdict);
		c->verdict = NULL;
		c->verdict_nr = 0;
		c->verdict_target = target;
	}
	if (tip == PV_NONE)
		return 0;
	if (tip == target)
		return 1;
	if (*verdict_of(c, tip) != V_UNKNOWN)
		return *verdict_of(c, tip) == V_YES;
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
			if (!c->err)
				c->err = pv_error_set(PV_ECORRUPT, "history of tag %s is broken at %s: %s",
						     c->h->tags.v[tag].shortname, hex, git_errmsg());
			ret = -1;
			goto out;
		}
		par = dag_parents(dag, f->commit, &np);
		if (f->next == np) {
			*verdict_of(c, f->commit) = V_NO;
			nr--;
			continue;
		}
		p = par[f->next];
		v = p == target ? V_YES : *verdict_of(c, p);
		if (v == V_YES) {
			*verdict_of(c, f->commit) = V_YES;
			nr--;
		} else if (v == V_NO) {
			f->next++;
		} else {
			stack = xgrow(stack, &alloc, nr + 1, sizeof(*stack));
			stack[nr++] = (struct frame){ p, 0 };
		}
	}
	ret = *verdict_of(c, tip) == V_YES;
out:
	free(stack);
	return ret;
}

/* Does tag t contain commit?  A lazy history: by the graph or git's walk. */
static int lazy_contains(struct contain *c, uint32_t t, uint32_t commit)
{
	if (c->h->graph_has_tags)
		return graph_contains(c, t, commit);
	return walk_contains(c, t, commit);
}

static uint32_t *lazy_tags(struct contain *c, uint32_t commit, size_t *n)
{
	uint32_t *out = xmalloc(c->h->tags.nr * sizeof(uint32_t) + 1);

	*n = 0;
	for (uint32_t t = 0; t < c->h->tags.nr; t++)
		if (lazy_contains(c, t, commit) > 0)
			out[(*n)++] = t;
	return out;
}

uint32_t *contain_tags(struct contain *c, uint32_t commit, size_t *n)
{
	struct dag *dag = &c->h->dag;
	uint32_t *out = NULL, head = 0, tail = 0;
	size_t nr = 0, alloc = 0;

	*n = 0;
	if (c->h->lazy)
		return lazy_tags(c, commit, n);
	if (commit >= c->h->tag_commits)
		return NULL;    /* no tag reaches it */
	if (history_index(c->h))
		return relindex_tags_containing(history_index(c->h), commit, n);
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
	const struct tag_table *t = &c->h->tags;

	if (c->h->lazy) {
		/* releases in version order: the first that contains it */
		for (size_t r = 0; r < t->nreleases; r++)
			if (lazy_contains(c, t->releases[r], commit) > 0)
				return t->releases[r];
		return PV_NONE;
	}

	if (commit >= c->h->tag_commits)
		return PV_NONE;
	ix = history_index(c->h);
	if (ix && !strcmp(ix->glob, c->h->release_glob))
		return ix->first[commit];
	if (!c->first_release)
		c->first_release = indexer_first_releases(&c->h->dag, &c->h->tags);
	return c->first_release[commit];
}
