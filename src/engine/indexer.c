/*
 * What goes into a release index, computed over the dense DAG.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "patchver/base/util.h"
#include "patchver/engine/backscan.h"
#include "patchver/engine/indexer.h"
#include "patchver/engine/namewalk.h"
#include "patchver/engine/treepath.h"

uint32_t *indexer_first_releases(const struct dag *dag, const struct tag_table *t)
{
	uint32_t *first = xmalloc((size_t)dag->nr * sizeof(uint32_t) + 1);
	uint32_t *stack = xmalloc((size_t)dag->nr * sizeof(uint32_t) + 1);

	memset(first, 0xff, (size_t)dag->nr * sizeof(uint32_t));
	/*
	 * Releases in version order each claim what no earlier one claimed.
	 * A commit an earlier release claimed has all its ancestors claimed
	 * too (by that release or earlier), so each walk stops there and
	 * every commit is visited once.
	 */
	for (size_t r = 0; r < t->nreleases; r++) {
		uint32_t tag = t->releases[r], sp = 0;
		uint32_t top = t->v[tag].commit;

		if (first[top] != PV_NONE)
			continue;
		first[top] = tag;
		stack[sp++] = top;
		while (sp) {
			unsigned np;
			const uint32_t *par = dag_parents(dag, stack[--sp], &np);
			for (unsigned i = 0; i < np; i++) {
				if (first[par[i]] != PV_NONE)
					continue;
				first[par[i]] = tag;
				stack[sp++] = par[i];
			}
		}
	}
	free(stack);
	return first;
}

/* Per tag, a growing list of intervals. */
struct iv_list {
	struct relindex_iv *v;
	size_t nr, alloc;
};

static void iv_push(struct iv_list *l, uint32_t lo, uint32_t hi)
{
	l->v = xgrow(l->v, &l->alloc, l->nr + 1, sizeof(*l->v));
	l->v[l->nr].lo = lo;
	l->v[l->nr].hi = hi;
	l->nr++;
}

/*
 * Each tag's ancestors as runs of dense ids, 64 tags at a time: a bit per
 * tag pushed from children to parents in topological order, then one
 * scan that opens a run where a tag's bit turns on and closes it where
 * it turns off.  O(commits) per 64 tags, whatever the history's shape.
 */
static void tag_intervals(const struct dag *dag, const struct tag_table *t,
			  const uint32_t *order, struct iv_list *out)
{
	uint64_t *bits = xmalloc((size_t)dag->nr * sizeof(uint64_t) + 8);
	uint32_t start[64];

	for (size_t t0 = 0; t0 < t->nr; t0 += 64) {
		size_t nt = t->nr - t0 < 64 ? t->nr - t0 : 64;
		uint64_t prev = 0;

		memset(bits, 0, (size_t)dag->nr * sizeof(uint64_t));
		for (size_t k = 0; k < nt; k++)
			if (t->v[t0 + k].commit != PV_NONE)
				bits[t->v[t0 + k].commit] |= 1ull << k;
		for (uint32_t i = 0; i < dag->nr; i++) {
			uint32_t c = order[i];
			unsigned np;
			const uint32_t *par = dag_parents(dag, c, &np);
			for (unsigned p = 0; p < np; p++)
				bits[par[p]] |= bits[c];
		}
		for (uint32_t i = 0; i <= dag->nr; i++) {
			uint64_t cur = i < dag->nr ? bits[i] : 0, diff = cur ^ prev;
			while (diff) {
				int k = __builtin_ctzll(diff);
				diff &= diff - 1;
				if (cur >> k & 1)
					start[k] = i;
				else
					iv_push(&out[t0 + (size_t)k], start[k], i);
			}
			prev = cur;
		}
	}
	free(bits);
}

/* Keep only the segments some name uses, renumbered in order. */
static uint32_t compact_names(const struct namewalk *nr, uint32_t n,
			      struct relindex_name *names, struct name_seg **segs_out)
{
	uint32_t *map = xcalloc(nr->nsegs + 1, sizeof(uint32_t)), nsegs = 1;
	struct name_seg *segs;

	for (uint32_t c = 0; c < n; c++)
		for (uint32_t s = nr->names[c].seg; s && !map[s]; s = nr->segs[s].prev)
			map[s] = 1;
	/* prev < seg: one pass in order gives every prev its new number first */
	for (size_t s = 1; s < nr->nsegs; s++)
		if (map[s])
			map[s] = nsegs++;
	segs = xcalloc(nsegs, sizeof(*segs));
	for (size_t s = 1; s < nr->nsegs; s++) {
		if (!map[s])
			continue;
		segs[map[s]] = nr->segs[s];
		segs[map[s]].prev = map[nr->segs[s].prev];
	}
	for (uint32_t c = 0; c < n; c++) {
		names[c].seg = map[nr->names[c].seg];
		names[c].generation = nr->names[c].generation;
	}
	free(map);
	*segs_out = segs;
	return nsegs;
}

static int64_t now_msec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The tag records, their refnames in a pool, their intervals concatenated. */
static void tag_records(struct relindex_data *d, const struct tag_table *t,
			struct iv_list *ivl, struct relindex_tag **recs_out,
			struct relindex_iv **ivs_out, char **pool_out)
{
	struct relindex_tag *recs = xcalloc(t->nr + 1, sizeof(*recs));
	struct relindex_iv *ivs;
	struct sbuf pool = SBUF_INIT;
	size_t nivs = 0;

	for (size_t i = 0; i < t->nr; i++)
		nivs += ivl[i].nr;
	ivs = xmalloc((nivs + 1) * sizeof(*ivs));
	nivs = 0;
	sbuf_add(&pool, "", 1);
	for (size_t i = 0; i < t->nr; i++) {
		recs[i].name_off = (uint32_t)pool.len;
		sbuf_add(&pool, t->v[i].refname, strlen(t->v[i].refname) + 1);
		recs[i].commit = t->v[i].commit;
		recs[i].taggerdate = t->v[i].taggerdate;
		memcpy(recs[i].target, t->v[i].target.id, GIT_OID_RAWSZ);
		recs[i].deref = t->v[i].deref;
		recs[i].loose = t->v[i].loose;
		recs[i].iv_off = (uint32_t)nivs;
		if (ivl[i].nr)
			memcpy(ivs + nivs, ivl[i].v, ivl[i].nr * sizeof(*ivs));
		nivs += ivl[i].nr;
		free(ivl[i].v);
	}
	recs[t->nr].iv_off = (uint32_t)nivs;
	d->ntags = (uint32_t)t->nr;
	d->tags = recs;
	d->tag_digest = t->tag_digest;
	d->nivs = (uint32_t)nivs;
	d->ivs = ivs;
	d->pool = pool.buf;
	d->pool_size = (uint32_t)pool.len;
	*recs_out = recs;
	*ivs_out = ivs;
	*pool_out = pool.buf;
}

/*
 * Each commit's top mask, so that path walks over a fresh index skip the
 * commits that change nothing under the path's top directory (fs/: 91% of
 * the kernel's) without reading their trees.  Those of an index being
 * extended are kept; a tree that cannot be read gets every bit.
 */
static uint64_t *top_masks(const struct dag *dag)
{
	uint64_t *mask = xmalloc(((size_t)dag->nr + 1) * sizeof(*mask));
	/* opening the object files changes no commit of the DAG */
	struct tree_memo memo = { .odb = dag->odb, .store = dag_store((struct dag *)dag) };

	for (uint32_t i = 0; i < dag->nr; i++) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, i, &np);

		if (i < dag->topmask_nr)
			mask[i] = dag->topmask[i];
		else if (treepath_top_mask(&memo, np ? &dag->trees[par[0]] : NULL,
					   &dag->trees[i], &mask[i]) < 0)
			mask[i] = ~0ull;
	}
	tree_memo_free(&memo);
	return mask;
}

static char *read_message(void *dag, uint32_t commit)
{
	return dag_message(dag, commit);
}

/*
 * The backport map of every commit first released in a stable tag: their
 * messages are read (2.6.34.y and 2.6.35.y: 800 of 211k commits), and for
 * the few naming no upstream commit (14 there) their patch-id is looked
 * for among the others (patch_id NULL: not).  A later run's questions
 * about any commit then need no message and no diff.
 */
static void stable_backports(struct backport_map *m, const struct dag *dag,
			     const struct tag_table *t, const uint32_t *first,
			     backmap_patchid_fn patch_id, void *ctx)
{
	struct backmap_commit *v = NULL;
	bool *upstream_ok = xcalloc((size_t)dag->nr + 1, 1);
	struct backmap_patchids pids = { patch_id, ctx, upstream_ok };
	size_t n = 0, alloc = 0;

	for (uint32_t i = 0; i < dag->nr; i++) {
		if (first[i] == PV_NONE || !kver_is_stable(&t->v[first[i]].ver)) {
			upstream_ok[i] = true;
			continue;
		}
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n].commit = i;
		v[n++].tag = first[i];
	}
	/* reading messages and diffs changes no commit of the DAG */
	backmap_compute(m, (struct dag *)dag, t, v, n, read_message, (void *)dag,
			patch_id ? &pids : NULL);
	free(upstream_ok);
	free(v);
}

void indexer_build(struct relindex *ix, const struct dag *dag,
		   const struct tag_table *t, const char *ident, const char *glob,
		   backmap_patchid_fn patch_id, void *ctx)
{
	struct backport_map bp;
	int64_t start = now_msec();
	struct relindex_data d = { .ident = ident, .glob = glob };
	uint32_t *tips = xmalloc(t->nr * sizeof(uint32_t) + 1), *order, *first;
	struct iv_list *ivl = xcalloc(t->nr + 1, sizeof(*ivl));
	struct relindex_name *names = xmalloc((size_t)dag->nr * sizeof(*names) + 1);
	struct relindex_tag *recs;
	struct relindex_iv *ivs;
	struct name_seg *segs;
	struct namewalk nr;
	int64_t *min_desc;
	uint64_t *topmask;
	const uint64_t *had_mask;
	uint32_t had_mask_nr;
	char *pool;

	for (size_t i = 0; i < t->nr; i++)
		tips[i] = (uint32_t)i;
	namewalk_walk(&nr, dag, t, tips, t->nr, NAMEWALK_NO_CUTOFF);
	d.nsegs = compact_names(&nr, dag->nr, names, &segs);
	namewalk_free(&nr);
	order = dag_topo_order(dag);
	tag_intervals(dag, t, order, ivl);
	free(order);
	min_desc = dag_min_desc_dates(dag);
	first = indexer_first_releases(dag, t);
	tag_records(&d, t, ivl, &recs, &ivs, &pool);

	dag_arrays(dag, &d.dag);
	d.dag.topmask = topmask = top_masks(dag);
	d.min_desc = min_desc;
	d.first = first;
	d.names = names;
	d.segs = segs;
	/* the patch-id search walks paths: by the top masks just computed */
	had_mask = dag->topmask;
	had_mask_nr = dag->topmask_nr;
	((struct dag *)dag)->topmask = topmask;
	((struct dag *)dag)->topmask_nr = dag->nr;
	stable_backports(&bp, dag, t, first, patch_id, ctx);
	((struct dag *)dag)->topmask = had_mask;
	((struct dag *)dag)->topmask_nr = had_mask_nr;
	d.backports = bp.v;
	d.nbackports = (uint32_t)bp.nr;
	d.bpnotes = bp.notes;
	d.nbpnotes = (uint32_t)bp.nnotes;
	d.bpreverts = bp.reverts;
	d.nbpreverts = (uint32_t)bp.nreverts;
	d.build_msec = now_msec() - start;
	relindex_from_data(ix, &d);
	backport_map_free(&bp);
	free(tips);
	free(ivl);
	free(names);
	free(segs);
	free(min_desc);
	free(topmask);
	free(first);
	free(recs);
	free(ivs);
	free(pool);
}
