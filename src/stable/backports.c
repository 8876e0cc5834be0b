/*
 * The backport map: what each stable-line commit carries, and its reverts.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/treepath.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/upstream.h"

#define NONE UINT32_MAX
#define MAX_REFS 8          /* upstream ids one message may name */

/* A stable-line commit as the map is built: what it names, what it reverts. */
struct stable_commit {
	uint32_t commit, tag;
	uint32_t named[MAX_REFS];
	size_t nnamed;
	uint32_t reverts;           /* the stable commit it reverts, or DAG_NONE */
	uint32_t reverted_by;       /* the stable commit reverting it, or DAG_NONE */
	char *subject;
	char *reverts_subject;      /* 'Revert "<subject>"' with no id: whose subject */
};

static int cmp_backport(const void *a, const void *b, void *ctx)
{
	const struct backport *x = a, *y = b;
	const struct tag_table *tt = ctx;

	if (x->upstream != y->upstream)
		return x->upstream < y->upstream ? -1 : 1;
	if (x->tag != y->tag)
		return tags_cmp_version(tt, x->tag, y->tag);
	return (x->commit > y->commit) - (x->commit < y->commit);
}

static bool on_stable_line(struct history *h, struct contain *c, uint32_t commit, uint32_t *tag)
{
	*tag = contain_first_release(c, commit);
	return *tag != NONE && kver_is_stable(&h->tags.v[*tag].ver);
}

/* What commit's message names and reverts (by id, else by subject: reverts_subject). */
static void read_commit(struct backport_map *m, struct history *h, struct stable_commit *s)
{
	char refs[MAX_REFS][41], hex[41];
	char *msg = history_message(h, s->commit);
	size_t n;

	s->reverts = DAG_NONE;
	if (!msg)
		return;
	s->subject = subject_of(msg);
	n = upstream_refs(msg, refs, MAX_REFS);
	for (size_t k = 0; k < n && k < MAX_REFS; k++) {
		uint32_t up = rev_find_hex(&h->dag, refs[k]);
		if (up == DAG_NONE || up == s->commit)
			m->unresolved++;
		else
			s->named[s->nnamed++] = up;
	}
	if (upstream_revert(msg, hex, &s->reverts_subject) && *hex)
		s->reverts = rev_find_hex(&h->dag, hex);
	free(msg);
}

/* The stable commit of the same series, before r, whose subject is subject. */
static uint32_t by_subject(struct history *h, const struct stable_commit *v, size_t n,
			   const struct stable_commit *r, const char *subject)
{
	char want[32], have[32];
	uint32_t best = DAG_NONE;

	kver_series(&h->tags.v[r->tag].ver, want, sizeof(want));
	for (size_t i = 0; i < n; i++) {
		if (&v[i] == r || !v[i].subject || strcmp(v[i].subject, subject))
			continue;
		kver_series(&h->tags.v[v[i].tag].ver, have, sizeof(have));
		if (!strcmp(want, have) && tags_cmp_version(&h->tags, v[i].tag, r->tag) <= 0)
			best = v[i].commit;
	}
	return best;
}

/* v is in commit order (built by walking the DAG's ids). */
static struct stable_commit *find(struct stable_commit *v, size_t n, uint32_t commit)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid].commit == commit)
			return &v[mid];
		if (v[mid].commit < commit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Each backport, once per upstream commit its stable commit names. */
static void add_backports(struct backport_map *m, size_t *alloc, struct stable_commit *v,
			  size_t n, const struct stable_commit *s)
{
	for (size_t k = 0; k < s->nnamed; k++) {
		uint32_t up = s->named[k];
		struct stable_commit *via = find(v, n, up);
		struct backport *b;

		/* a backport of a backport carries what the first one names */
		if (via && via->nnamed)
			up = via->named[0];
		m->v = xgrow(m->v, alloc, m->nr + 1, sizeof(*m->v));
		b = &m->v[m->nr++];
		b->upstream = up;
		b->commit = s->commit;
		b->tag = s->tag;
		b->revert = s->reverted_by;
		b->revert_tag = s->reverted_by == DAG_NONE ? NONE : find(v, n, s->reverted_by)->tag;
	}
}

static bool touches_any(struct treepath_cache *caches, size_t n, const struct dag *dag,
			uint32_t i)
{
	if (!n)
		return true;
	for (size_t k = 0; k < n; k++)
		if (treepath_touches(&caches[k], dag, i))
			return true;
	return false;
}

int backport_map_build(struct backport_map *m, struct history *h, struct contain *c,
		       const char *const *paths, size_t npaths)
{
	struct stable_commit *v = NULL;
	size_t n = 0, alloc = 0, map_alloc = 0;
	struct dag *dag = &h->dag;
	struct treepath_cache *caches = xcalloc(npaths + 1, sizeof(*caches));

	memset(m, 0, sizeof(*m));
	for (size_t k = 0; k < npaths; k++)
		treepath_init(&caches[k], dag, paths[k]);
	for (uint32_t i = 0; i < dag->nr; i++) {
		uint32_t tag;
		if (!dag->loaded[i] || !on_stable_line(h, c, i, &tag) ||
		    !touches_any(caches, npaths, dag, i))
			continue;
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		memset(&v[n], 0, sizeof(v[n]));
		v[n].commit = i;
		v[n].reverted_by = DAG_NONE;
		v[n++].tag = tag;
	}
	for (size_t i = 0; i < n; i++)
		read_commit(m, h, &v[i]);
	/* every subject is known now: the reverts that name only one */
	for (size_t i = 0; i < n; i++)
		if (v[i].reverts_subject && v[i].reverts == DAG_NONE)
			v[i].reverts = by_subject(h, v, n, &v[i], v[i].reverts_subject);
	/* a revert of a stable commit: only within the stable lines */
	for (size_t i = 0; i < n; i++) {
		struct stable_commit *target = v[i].reverts == DAG_NONE ? NULL :
					       find(v, n, v[i].reverts);
		if (target && target->reverted_by == DAG_NONE)
			target->reverted_by = v[i].commit;
	}
	for (size_t i = 0; i < n; i++)
		add_backports(m, &map_alloc, v, n, &v[i]);
	if (m->nr)
		qsort_r(m->v, m->nr, sizeof(*m->v), cmp_backport, &h->tags);
	for (size_t i = 0; i < n; i++) {
		free(v[i].subject);
		free(v[i].reverts_subject);
	}
	free(v);
	for (size_t k = 0; k < npaths; k++)
		treepath_free(&caches[k]);
	free(caches);
	return 0;
}

void backport_map_free(struct backport_map *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

const struct backport *backport_map_of(const struct backport_map *m, uint32_t u, size_t *n)
{
	size_t lo = 0, hi = m->nr;

	*n = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->v[mid].upstream < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + *n < m->nr && m->v[lo + *n].upstream == u)
		(*n)++;
	return *n ? &m->v[lo] : NULL;
}

const struct backport *backport_map_by_commit(const struct backport_map *m, uint32_t commit)
{
	for (size_t i = 0; i < m->nr; i++)
		if (m->v[i].commit == commit)
			return &m->v[i];
	return NULL;
}
