/*
 * git name-rev's naming walk (builtin/name-rev.c, git 2.39).
 *
 * Kept step for step: tips sorted by tagger date (stable on refname order),
 * a LIFO walk from each tip that pushes the updated parents so the first
 * parent comes out first, and is_better_name() deciding replacements.
 * The outcome depends on that order (a name can win at a commit yet lose
 * at its parent), so the order is part of the contract, not a detail.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/cgraph.h"
#include "patchver/engine/namewalk.h"

#define MERGE_TRAVERSAL_WEIGHT 65535

static int effective_distance(int32_t distance, int32_t generation)
{
	return distance + (generation > 0 ? MERGE_TRAVERSAL_WEIGHT : 0);
}

/* Both names come from tags (--tags): older tag first, then distance. */
static bool is_better(const struct rev_name *name, int64_t taggerdate,
		      int32_t generation, int32_t distance)
{
	if (name->taggerdate != taggerdate)
		return name->taggerdate > taggerdate;
	return effective_distance(name->distance, name->generation) >
	       effective_distance(distance, generation);
}

static bool update(struct rev_name *name, int64_t taggerdate,
		   int32_t generation, int32_t distance)
{
	if (name->seg && !is_better(name, taggerdate, generation, distance))
		return false;
	name->taggerdate = taggerdate;
	name->generation = generation;
	name->distance = distance;
	return true;
}

static uint32_t new_seg(struct namewalk *nr, uint32_t prev, uint32_t tip,
			int32_t generation, int32_t parent_number)
{
	struct name_seg *s;

	nr->segs = xgrow(nr->segs, &nr->segs_alloc, nr->nsegs + 1, sizeof(*nr->segs));
	s = &nr->segs[nr->nsegs];
	s->prev = prev;
	s->tip = tip;
	s->generation = generation;
	s->parent_number = parent_number;
	return (uint32_t)nr->nsegs++;
}

/* A lazy walk parses c before looking at it; names follow the DAG's growth. */
static void reach(struct namewalk *nr, uint32_t c)
{
	if (!nr->lazy)
		return;
	if (dag_parse(nr->lazy, c) < 0 && !nr->broken)
		nr->broken = c + 1;   /* the walk goes on; the caller reports it */
	if (nr->lazy->nr > nr->nnames) {
		uint32_t n = nr->lazy->nr * 2;
		nr->names = xrealloc(nr->names, (size_t)n * sizeof(*nr->names));
		memset(nr->names + nr->nnames, 0, (size_t)(n - nr->nnames) * sizeof(*nr->names));
		nr->nnames = n;
	}
}

static bool before_cutoff(struct namewalk *nr, uint32_t c)
{
	reach(nr, c);
	if (nr->graph)
		return cgraph_level_at(nr->graph, dag_graph_pos(nr->lazy, c)) < nr->level_cutoff;
	return nr->dag->dates[c] < nr->cutoff;
}

static void name_from_tip(struct namewalk *nr, uint32_t tip,
			  uint32_t **stack, size_t *alloc)
{
	const struct tag *tag = &nr->tags->v[tip];
	uint32_t start = tag->commit, *queue = NULL;
	size_t sp = 0, qalloc = 0;

	if (before_cutoff(nr, start))
		return;
	if (!update(&nr->names[start], tag->taggerdate, 0, 0))
		return;
	nr->names[start].seg = new_seg(nr, 0, tip, 0, 0);

	*stack = xgrow(*stack, alloc, sp + 1, sizeof(**stack));
	(*stack)[sp++] = start;
	while (sp) {
		uint32_t c = (*stack)[--sp];
		const struct rev_name name = nr->names[c];
		unsigned np, nq = 0;

		reach(nr, c);
		dag_parents(nr->dag, c, &np);
		queue = xgrow(queue, &qalloc, np, sizeof(*queue));
		for (unsigned k = 0; k < np; k++) {
			/* reaching a parent may move the DAG's arrays: look again */
			uint32_t p = dag_parents(nr->dag, c, &np)[k];
			int32_t gen, dist;

			if (before_cutoff(nr, p))
				continue;
			if (k > 0) {
				gen = 0;
				dist = name.distance + MERGE_TRAVERSAL_WEIGHT;
			} else {
				gen = name.generation + 1;
				dist = name.distance + 1;
			}
			if (!update(&nr->names[p], name.taggerdate, gen, dist))
				continue;
			nr->names[p].seg = k > 0 ?
				new_seg(nr, name.seg, tip, name.generation, (int32_t)k + 1) :
				name.seg;
			queue[nq++] = p;
		}
		/* the first parent must come out first */
		*stack = xgrow(*stack, alloc, sp + nq, sizeof(**stack));
		while (nq)
			(*stack)[sp++] = queue[--nq];
	}
	free(queue);
}

/* git's cmp_by_tag_and_age for tags only; ties broken by refname order */
static int cmp_tips(const void *a_, const void *b_, void *table)
{
	const struct tag_table *tags = table;
	uint32_t a = *(const uint32_t *)a_, b = *(const uint32_t *)b_;
	int64_t da = tags->v[a].taggerdate, db = tags->v[b].taggerdate;

	if (da != db)
		return da < db ? -1 : 1;
	return a < b ? -1 : a > b;
}

static void walk(struct namewalk *nr, const struct dag *dag,
		 const struct tag_table *tags, const uint32_t *tips, size_t ntips)
{
	uint32_t *order = xmalloc(ntips * sizeof(uint32_t) + 1), *stack = NULL;
	size_t n = 0, alloc = 0;

	nr->dag = dag;
	nr->tags = tags;
	nr->names = xcalloc(dag->nr + 1, sizeof(*nr->names));
	nr->nnames = dag->nr;
	new_seg(nr, 0, 0, 0, 0);    /* segment 0 means "no name" */

	for (size_t i = 0; i < ntips; i++)
		if (tags->v[tips[i]].commit != PV_NONE)
			order[n++] = tips[i];
	qsort_r(order, n, sizeof(*order), cmp_tips, (void *)tags);
	for (size_t i = 0; i < n; i++)
		name_from_tip(nr, order[i], &stack, &alloc);
	free(stack);
	free(order);
}

void namewalk_walk(struct namewalk *nr, const struct dag *dag,
		  const struct tag_table *tags, const uint32_t *tips,
		  size_t ntips, int64_t cutoff)
{
	memset(nr, 0, sizeof(*nr));
	nr->cutoff = cutoff;
	walk(nr, dag, tags, tips, ntips);
}

void namewalk_walk_lazy(struct namewalk *nr, struct dag *dag,
		       const struct tag_table *tags, const uint32_t *tips,
		       size_t ntips, int64_t cutoff, const struct cgraph *graph,
		       uint32_t level_cutoff)
{
	memset(nr, 0, sizeof(*nr));
	nr->cutoff = cutoff;
	nr->lazy = dag;
	nr->graph = graph;
	nr->level_cutoff = level_cutoff;
	walk(nr, dag, tags, tips, ntips);
}

void namewalk_free(struct namewalk *nr)
{
	free(nr->names);
	free(nr->segs);
	memset(nr, 0, sizeof(*nr));
}

bool namewalk_name(const struct namewalk *nr, uint32_t commit, struct sbuf *out)
{
	const struct rev_name *n;

	if (!nr->names || commit >= nr->nnames)
		return false;
	n = &nr->names[commit];
	if (!n->seg)
		return false;
	namechain_render(nr->segs, nr->tags, n->seg, n->generation, out);
	return true;
}
