/*
 * The backport map (backmap.h): its lookups.  backscan.c computes one.
 * Nothing here reads an object: the quick path's front links it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/backmap.h"
#include "patchver/engine/oid.h"

void backmap_borrow(struct backport_map *m, const struct backport *v, size_t nr,
		    const struct backport_note *notes, size_t nnotes,
		    const struct backport_revert *reverts, size_t nreverts)
{
	memset(m, 0, sizeof(*m));
	m->reverts = reverts;
	m->nreverts = nreverts;
	m->v = v;
	m->nr = nr;
	m->notes = notes;
	m->nnotes = nnotes;
}

void backport_map_free(struct backport_map *m)
{
	free(m->own);
	free(m->own_notes);
	free(m->own_reverts);
	memset(m, 0, sizeof(*m));
}

/* A record key_run() reads: is it intact?  (NULL: all are.) */
typedef bool (*record_ok_fn)(const void *record, void *ctx);

/*
 * The run of records whose uint32_t key (at offset key_off) is key, in nr
 * records of size bytes sorted by it: its first index, its length in *n.
 * Each record read is first shown to ok; one it rejects ends the search
 * with *n 0 and *damaged set.
 */
static size_t key_run(const void *base, size_t nr, size_t size, size_t key_off, uint32_t key,
		      record_ok_fn ok, void *ctx, size_t *n, bool *damaged)
{
	const unsigned char *p = base;
	size_t lo = 0, hi = nr;
	uint32_t k;

	*n = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ok && !ok(p + mid * size, ctx))
			return *damaged = true, 0;
		memcpy(&k, p + mid * size + key_off, sizeof(k));
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo + *n < nr; (*n)++) {
		if (ok && !ok(p + (lo + *n) * size, ctx))
			return *n = 0, *damaged = true, 0;
		memcpy(&k, p + (lo + *n) * size + key_off, sizeof(k));
		if (k != key)
			break;
	}
	return lo;
}

const struct backport *backport_map_of(const struct backport_map *m, uint32_t u, size_t *n)
{
	bool damaged = false;
	size_t at = key_run(m->v, m->nr, sizeof(*m->v), offsetof(struct backport, upstream), u,
			    NULL, NULL, n, &damaged);

	return *n ? &m->v[at] : NULL;
}

const struct backport *backport_map_of_checked(const struct backport_map *m, uint32_t u,
					       size_t *n, bool (*intact)(const void *b, void *ctx),
					       void *ctx, bool *damaged)
{
	size_t at;

	*damaged = false;
	at = key_run(m->v, m->nr, sizeof(*m->v), offsetof(struct backport, upstream), u,
		     intact, ctx, n, damaged);
	return *n ? &m->v[at] : NULL;
}

const struct backport_note *backport_map_notes(const struct backport_map *m, uint32_t commit,
					       size_t *n)
{
	bool damaged = false;
	size_t at = key_run(m->notes, m->nnotes, sizeof(*m->notes),
			    offsetof(struct backport_note, commit), commit, NULL, NULL, n, &damaged);

	return *n ? &m->notes[at] : NULL;
}

bool backport_map_by_patchid(const struct backport_map *m, uint32_t commit,
			     const git_oid *upstream)
{
	char hex[GIT_OID_HEXSZ + 1];
	size_t n;
	const struct backport_note *bn = backport_map_notes(m, commit, &n);

	oid_to_hex(hex, sizeof(hex), upstream->id);
	for (size_t k = 0; k < n; k++)
		if (bn[k].problem == BACKPORT_BY_PATCHID && !strcmp(bn[k].hex, hex))
			return true;
	return false;
}

uint32_t backport_map_revert_of(const struct backport_map *m, uint32_t commit)
{
	bool damaged = false;
	size_t n, at = key_run(m->reverts, m->nreverts, sizeof(*m->reverts),
			       offsetof(struct backport_revert, commit), commit, NULL, NULL, &n,
			       &damaged);

	return n ? m->reverts[at].revert : PV_NONE;
}

const char *backport_problem_str(uint32_t problem)
{
	switch (problem) {
	case BACKPORT_UNKNOWN_ID: return "names an upstream id that is no commit of this history";
	case BACKPORT_AMBIGUOUS_ID: return "names an abbreviated upstream id several commits share";
	case BACKPORT_NAMES_ITSELF: return "names itself as its upstream commit";
	case BACKPORT_SEVERAL: return "names several upstream commits (each counted)";
	case BACKPORT_BY_PATCHID: return "names no upstream commit: by patch-id, a backport of";
	default: return "names an upstream commit oddly";
	}
}
