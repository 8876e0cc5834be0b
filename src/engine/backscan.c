/*
 * Computing the backport map (backscan.h): stable-line commits' messages read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/backscan.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/treepath.h"
#include "patchver/engine/upstream.h"

#define MAX_REFS 8          /* upstream ids one message may name */

/* A stable-line commit as the map is built: what it names, what it reverts. */
struct stable_commit {
	uint32_t commit, tag;
	uint32_t named[MAX_REFS];
	size_t nnamed;
	uint32_t reverts;           /* the stable commit it reverts, or PV_NONE */
	uint32_t reverted_by;       /* the stable commit reverting it, or PV_NONE */
	char *subject;
	char *reverts_subject;      /* 'Revert "<subject>"' with no id: whose subject */
};

struct builder {
	struct dag *dag;
	const struct tag_table *tags;
	struct stable_commit *v;
	size_t n;
	struct backport *out;
	size_t nout, aout;
	struct backport_note *notes;
	size_t nnotes, anotes;
	struct backport_revert *reverts;
	size_t nreverts, areverts;
	uint32_t *rank;             /* per tag: its place in version order */
	const struct backmap_patchids *pids;
	uint32_t base_tag[4];       /* the series bases whose ancestors were marked */
	bool *in_base[4];           /* ... their ancestors (a backport's upstream is not one) */
	size_t nbases;
};

/* Version order of two first tags; a commit on a branch comes after every tag. */
static int cmp_tag(const struct builder *b, uint32_t x, uint32_t y)
{
	if (x == y)
		return 0;
	if (x == BACKMAP_ON_BRANCH || y == BACKMAP_ON_BRANCH)
		return x == BACKMAP_ON_BRANCH ? 1 : -1;
	return (b->rank[x] > b->rank[y]) - (b->rank[x] < b->rank[y]);
}

static int cmp_backport(const void *a, const void *b, void *ctx)
{
	const struct backport *x = a, *y = b;
	int c;

	if (x->upstream != y->upstream)
		return x->upstream < y->upstream ? -1 : 1;
	if ((c = cmp_tag(ctx, x->tag, y->tag)))
		return c;
	return (x->commit > y->commit) - (x->commit < y->commit);
}

static int cmp_version(const void *a, const void *b, void *t)
{
	return tags_cmp_version(t, *(const uint32_t *)a, *(const uint32_t *)b);
}

/* Each tag's place in version order: a sort of 220k backports compares ints. */
static uint32_t *version_ranks(const struct tag_table *t)
{
	uint32_t *order = xmalloc((t->nr + 1) * sizeof(*order));
	uint32_t *rank = xmalloc((t->nr + 1) * sizeof(*rank));

	for (uint32_t i = 0; i < t->nr; i++)
		order[i] = i;
	qsort_r(order, t->nr, sizeof(*order), cmp_version, (void *)t);
	for (uint32_t i = 0; i < t->nr; i++)
		rank[order[i]] = i;
	free(order);
	return rank;
}

static void note(struct builder *b, uint32_t commit, enum backport_problem problem,
		 const char *hex)
{
	struct backport_note *n;

	b->notes = xgrow(b->notes, &b->anotes, b->nnotes + 1, sizeof(*b->notes));
	n = &b->notes[b->nnotes++];
	memset(n, 0, sizeof(*n));
	n->commit = commit;
	n->problem = problem;
	snprintf(n->hex, sizeof(n->hex), "%s", hex);
}

/* The loaded commit hex names, among the DAG's only (the index's arrays are fixed). */
static uint32_t resolve(struct builder *b, const char *hex, enum backport_problem *problem)
{
	uint32_t idx[2];
	size_t len = strlen(hex), found;
	git_oid oid;

	*problem = BACKPORT_UNKNOWN_ID;
	if (len == GIT_OID_HEXSZ) {
		uint32_t i;
		if (git_oid_fromstr(&oid, hex) < 0)
			return PV_NONE;
		i = dag_find(b->dag, &oid);
		return i != PV_NONE && b->dag->loaded[i] ? i : PV_NONE;
	}
	found = dag_find_prefix(b->dag, hex, idx, 2);
	if (found > 1)
		*problem = BACKPORT_AMBIGUOUS_ID;
	return found == 1 ? idx[0] : PV_NONE;
}

/* What commit's message names and reverts (by id, else by subject: reverts_subject). */
static void read_commit(struct builder *b, struct stable_commit *s, char *msg)
{
	char refs[MAX_REFS][41], hex[41];
	enum backport_problem problem;
	size_t n;

	s->reverts = PV_NONE;
	if (!msg)
		return;
	s->subject = objstore_subject(msg);
	n = upstream_refs(msg, refs, MAX_REFS);
	for (size_t k = 0; k < n && k < MAX_REFS; k++) {
		uint32_t up = resolve(b, refs[k], &problem);
		if (up == s->commit)
			note(b, s->commit, BACKPORT_NAMES_ITSELF, refs[k]);
		else if (up == PV_NONE)
			note(b, s->commit, problem, refs[k]);
		else
			s->named[s->nnamed++] = up;
	}
	if (s->nnamed > 1)
		note(b, s->commit, BACKPORT_SEVERAL, refs[0]);
	if (upstream_revert(msg, hex, &s->reverts_subject) && *hex)
		s->reverts = resolve(b, hex, &problem);
}

/* The files commit changes (at most MAX_FILES), or -1: too many, or unreadable. */
#define MAX_FILES 64
static int changed_files(const struct dag *dag, uint32_t commit, struct tree_change **out)
{
	unsigned np;
	const uint32_t *par = dag_parents(dag, commit, &np);
	int n = treepath_changed(dag->odb, np ? &dag->trees[par[0]] : NULL, &dag->trees[commit],
				 MAX_FILES, out);

	if (n > MAX_FILES || n <= 0) {
		treepath_changes_free(*out, n > 0 ? n : 0);
		*out = NULL;
		return -1;
	}
	return n;
}

/* Does commit change exactly the files of f[0..n)?  Tree diffs only, no blob read. */
static bool same_files(const struct dag *dag, uint32_t commit, const struct tree_change *f,
		       int n)
{
	struct tree_change *g = NULL;
	int m = changed_files(dag, commit, &g);
	bool same = m == n;

	for (int i = 0; same && i < m; i++) {
		bool found = false;
		for (int k = 0; k < n && !found; k++)
			found = !strcmp(g[i].path, f[k].path);
		same = found;
	}
	treepath_changes_free(g, m > 0 ? m : 0);
	return same;
}

/*
 * The ancestors of the release a stable tag's series starts from (v2.6.34
 * for v2.6.34.2), NULL if unknown (a branch's commit, no such tag, or too
 * many series): what that series had already needs no backport, so its
 * upstream commit is none of them.  The kernel's history is 15 times the
 * commits after one base: the search reads only those.
 */
static const bool *series_base(struct builder *b, uint32_t tag)
{
	uint32_t base = PV_NONE;

	if (tag == BACKMAP_ON_BRANCH)
		return NULL;
	for (uint32_t i = 0; i < b->tags->nr && base == PV_NONE; i++) {
		const struct tag *x = &b->tags->v[i];
		if (x->release && !kver_is_stable(&x->ver) && !kver_is_rc(&x->ver) &&
		    x->commit != PV_NONE && kver_same_series(&x->ver, &b->tags->v[tag].ver))
			base = i;
	}
	for (size_t k = 0; k < b->nbases; k++)
		if (b->base_tag[k] == base)
			return b->in_base[k];
	if (base == PV_NONE || b->nbases == 4)
		return NULL;
	b->base_tag[b->nbases] = base;
	return b->in_base[b->nbases++] = dag_ancestors(b->dag, &b->tags->v[base].commit, 1);
}

/*
 * The upstream commits a stable commit naming none carries: its patch-id
 * among the commits that may be upstream ones and change its files (two
 * diffs with one patch-id change the same files: a tree walk rules out
 * most before any diff is made).
 */
static void by_patchid(struct builder *b, struct stable_commit *s)
{
	const struct backmap_patchids *p = b->pids;
	struct tree_change *f = NULL;
	struct treepath_cache cache;
	const bool *in_base = series_base(b, s->tag);
	int nf = changed_files(b->dag, s->commit, &f);
	git_oid want, pid;
	char hex[GIT_OID_HEXSZ + 1];

	if (nf < 0 || !p->patch_id(p->ctx, s->commit, &want)) {
		treepath_changes_free(f, nf > 0 ? nf : 0);
		return;
	}
	treepath_init(&cache, b->dag, f[0].path);
	for (uint32_t i = 0; i < b->dag->nr && s->nnamed < MAX_REFS; i++) {
		if (!b->dag->loaded[i] || !p->upstream_ok[i] || i == s->commit ||
		    (in_base && in_base[i]) ||
		    !treepath_touches(&cache, b->dag, i) || !same_files(b->dag, i, f, nf) ||
		    !p->patch_id(p->ctx, i, &pid) || !git_oid_equal(&pid, &want))
			continue;
		s->named[s->nnamed++] = i;
		note(b, s->commit, BACKPORT_BY_PATCHID, git_oid_tostr(hex, sizeof(hex),
								      &b->dag->oids[i]));
	}
	treepath_free(&cache);
	treepath_changes_free(f, nf);
}

static bool same_series(const struct tag_table *t, uint32_t a, uint32_t b)
{
	/* the commits of a branch are given one series at a time */
	if (a == BACKMAP_ON_BRANCH || b == BACKMAP_ON_BRANCH)
		return true;
	return kver_same_series(&t->v[a].ver, &t->v[b].ver);
}

/* The stable commit of r's series, no later than r, whose subject is subject. */
static uint32_t by_subject(struct builder *b, const struct stable_commit *r, const char *subject)
{
	uint32_t best = PV_NONE;

	for (size_t i = 0; i < b->n; i++) {
		const struct stable_commit *s = &b->v[i];
		if (s == r || !s->subject || strcmp(s->subject, subject))
			continue;
		if (same_series(b->tags, s->tag, r->tag) && cmp_tag(b, s->tag, r->tag) <= 0)
			best = s->commit;
	}
	return best;
}

/* v is in commit order (dense ids, ascending). */
static struct stable_commit *find(struct builder *b, uint32_t commit)
{
	size_t lo = 0, hi = b->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (b->v[mid].commit == commit)
			return &b->v[mid];
		if (b->v[mid].commit < commit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Each backport, once per upstream commit its stable commit names. */
static void add_backports(struct builder *b, const struct stable_commit *s)
{
	for (size_t k = 0; k < s->nnamed; k++) {
		uint32_t up = s->named[k];
		const struct stable_commit *via = find(b, up);
		struct backport *e;

		/* a backport of a backport carries what the first one names */
		if (via && via->nnamed)
			up = via->named[0];
		b->out = xgrow(b->out, &b->aout, b->nout + 1, sizeof(*b->out));
		e = &b->out[b->nout++];
		e->upstream = up;
		e->commit = s->commit;
		e->tag = s->tag;
		e->revert = s->reverted_by;
		e->revert_tag = s->reverted_by == PV_NONE ? PV_NONE : find(b, s->reverted_by)->tag;
	}
}

void backmap_compute(struct backport_map *m, struct dag *dag, const struct tag_table *t,
		     const struct backmap_commit *v, size_t n,
		     backmap_message_fn message, void *ctx, const struct backmap_patchids *pids)
{
	struct builder b = { .dag = dag, .tags = t, .n = n, .rank = version_ranks(t),
			     .pids = pids };

	b.v = xcalloc(n + 1, sizeof(*b.v));
	for (size_t i = 0; i < n; i++) {
		char *msg = message(ctx, v[i].commit);
		b.v[i].commit = v[i].commit;
		b.v[i].tag = v[i].tag;
		b.v[i].reverted_by = PV_NONE;
		read_commit(&b, &b.v[i], msg);
		/* a revert carries nothing; one naming no upstream may still carry one */
		if (pids && msg && !b.v[i].nnamed && b.v[i].reverts == PV_NONE &&
		    !b.v[i].reverts_subject)
			by_patchid(&b, &b.v[i]);
		free(msg);
	}
	/* every subject is known now: the reverts that name only one */
	for (size_t i = 0; i < n; i++)
		if (b.v[i].reverts_subject && b.v[i].reverts == PV_NONE)
			b.v[i].reverts = by_subject(&b, &b.v[i], b.v[i].reverts_subject);
	/* a revert of a stable commit: only within the stable lines */
	for (size_t i = 0; i < n; i++) {
		struct stable_commit *target = b.v[i].reverts == PV_NONE ? NULL :
					       find(&b, b.v[i].reverts);
		if (target && target->reverted_by == PV_NONE)
			target->reverted_by = b.v[i].commit;
	}
	for (size_t i = 0; i < n; i++) {
		if (b.v[i].reverted_by == PV_NONE)
			continue;
		b.reverts = xgrow(b.reverts, &b.areverts, b.nreverts + 1, sizeof(*b.reverts));
		b.reverts[b.nreverts].commit = b.v[i].commit;
		b.reverts[b.nreverts++].revert = b.v[i].reverted_by;
	}
	for (size_t i = 0; i < n; i++)
		add_backports(&b, &b.v[i]);
	if (b.nout)
		qsort_r(b.out, b.nout, sizeof(*b.out), cmp_backport, &b);
	for (size_t i = 0; i < n; i++) {
		free(b.v[i].subject);
		free(b.v[i].reverts_subject);
	}
	free(b.v);
	free(b.rank);
	for (size_t k = 0; k < b.nbases; k++)
		free(b.in_base[k]);
	memset(m, 0, sizeof(*m));
	m->v = m->own = b.out;
	m->nr = b.nout;
	m->notes = m->own_notes = b.notes;
	m->nnotes = b.nnotes;
	m->reverts = m->own_reverts = b.reverts;
	m->nreverts = b.nreverts;
}

