/*
 * The series rows the CNA's formats are written from (cve_rows.h).
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/cli/cve_rows.h"

void cve_release_of(const struct history *h, uint32_t tag, char *buf, size_t len)
{
	kver_series(&h->tags.v[tag].ver, buf, len);
}

const char *cve_version_of(const struct history *h, uint32_t tag)
{
	const char *name = h->tags.v[tag].shortname;
	return name[0] == 'v' ? name + 1 : name;
}

bool cve_is_affected(const struct triage_group *g, uint32_t tag)
{
	for (size_t i = 0; i < g->naffected; i++)
		if (g->affected[i] == tag)
			return true;
	return false;
}

bool cve_any_affected(const struct triage_group *g)
{
	for (size_t i = 0; i < g->nseries; i++)
		if (g->series[i].affected)
			return true;
	return false;
}

bool cve_affected_again(const struct triage_group *g, const struct series *s)
{
	bool after = false;

	for (size_t k = 0; k < s->ntags; k++) {
		after |= s->tags[k] == s->fixed_in;
		if (after && cve_is_affected(g, s->tags[k]))
			return true;
	}
	return false;
}

static void add_fixed(struct cve_fixed **v, size_t *n, size_t *alloc, uint32_t tag,
		      uint32_t commit)
{
	*v = xgrow(*v, alloc, *n + 1, sizeof(**v));
	(*v)[*n].tag = tag;
	(*v)[(*n)++].commit = commit;
}

struct cve_fixed *cve_rows_fixed(const struct cve_rows *r, const struct history *h,
				 const struct triage *t, size_t *n)
{
	struct cve_fixed *v = NULL;
	size_t alloc = 0;

	*n = 0;
	for (size_t i = 0; i < r->g->nseries; i++) {
		const struct series *s = &r->g->series[i];
		if (s->fixed_in == PV_NONE || cve_affected_again(r->g, s))
			continue;
		if (s->fixed_by_backport && s->backport != PV_NONE)
			add_fixed(&v, n, &alloc, s->fixed_in, s->backport);
		else if (s->twin != PV_NONE)
			add_fixed(&v, n, &alloc, s->fixed_in, s->twin);
	}
	if (t->fix_first != PV_NONE)
		add_fixed(&v, n, &alloc, t->fix_first, t->fix);
	/* in version order (a handful: one per stable line and mainline) */
	for (size_t i = 1; i < *n; i++)
		for (size_t k = i; k > 0 && tags_cmp_version(&h->tags, v[k - 1].tag, v[k].tag) > 0;
		     k--) {
			struct cve_fixed tmp = v[k];
			v[k] = v[k - 1];
			v[k - 1] = tmp;
		}
	return v;
}

void cve_rows_note(struct cve_rows *r, char *text)
{
	r->notes = xgrow(r->notes, &r->alloc, r->nnotes + 1, sizeof(*r->notes));
	r->notes[r->nnotes++] = text;
}

void cve_rows_init(struct cve_rows *r, struct history *h, struct contain *c,
		   const struct triage *t, uint32_t measured)
{
	memset(r, 0, sizeof(*r));
	r->intro = measured;
	if (r->intro == PV_NONE && t->groups[0].conf >= CONF_LIKELY)
		r->intro = triage_introducer(t, h, NULL);
	if (r->intro != PV_NONE && measured == PV_NONE) {
		r->g = &t->groups[0];
		return;
	}
	if (r->intro == PV_NONE) {
		r->unknown = true;
		r->intro = triage_root(h, t->fix);
	}
	triage_place(&r->placed, t, h, c, &r->intro, 1);
	r->g = &r->placed;
	r->own = true;
}

void cve_rows_free(struct cve_rows *r)
{
	if (r->own)
		triage_group_free(&r->placed);
	for (size_t i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
}
