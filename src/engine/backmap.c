/*
 * The backport map (backmap.h): its lookups.  backscan.c computes one.
 * Nothing here reads an object: the quick path's front links it.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/backmap.h"

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

const struct backport_note *backport_map_notes(const struct backport_map *m, uint32_t commit,
					       size_t *n)
{
	size_t lo = 0, hi = m->nnotes;

	*n = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->notes[mid].commit < commit)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo + *n < m->nnotes && m->notes[lo + *n].commit == commit)
		(*n)++;
	return *n ? &m->notes[lo] : NULL;
}

uint32_t backport_map_revert_of(const struct backport_map *m, uint32_t commit)
{
	size_t lo = 0, hi = m->nreverts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->reverts[mid].commit == commit)
			return m->reverts[mid].revert;
		if (m->reverts[mid].commit < commit)
			lo = mid + 1;
		else
			hi = mid;
	}
	return DAG_NONE;
}

const char *backport_problem_str(uint32_t problem)
{
	switch (problem) {
	case BACKPORT_UNKNOWN_ID: return "names an upstream id that is no commit of this history";
	case BACKPORT_AMBIGUOUS_ID: return "names an abbreviated upstream id several commits share";
	case BACKPORT_NAMES_ITSELF: return "names itself as its upstream commit";
	case BACKPORT_SEVERAL: return "names several upstream commits (each counted)";
	default: return "names an upstream commit oddly";
	}
}
