/*
 * dyad's vulnerable:fixed lines from the CVE record's rows (dyad_report.h).
 * Versions are written as dyad writes them: a mainline release without
 * its -rc ("2.6.36" for a commit of v2.6.36-rc1), a stable tag's name.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/cli/cve_rows.h"
#include "patchver/cli/dyad_report.h"

struct dyad_entry {
	char version[40];
	uint32_t commit;
	uint32_t tag;           /* the release the version names: order and series */
	bool mainline;
};

struct dyad {
	struct history *h;
	struct dyad_entry *vuln, *fixed;
	size_t nvuln, nfixed, avuln, afixed;
};

static void add(struct dyad *d, bool fixed, uint32_t tag, uint32_t commit)
{
	struct dyad_entry *e;

	if (fixed) {
		d->fixed = xgrow(d->fixed, &d->afixed, d->nfixed + 1, sizeof(*d->fixed));
		e = &d->fixed[d->nfixed++];
	} else {
		d->vuln = xgrow(d->vuln, &d->avuln, d->nvuln + 1, sizeof(*d->vuln));
		e = &d->vuln[d->nvuln++];
	}
	e->commit = commit;
	e->tag = tag;
	e->mainline = !kver_is_stable(&d->h->tags.v[tag].ver);
	if (e->mainline)
		cve_release_of(d->h, tag, e->version, sizeof(e->version));
	else
		snprintf(e->version, sizeof(e->version), "%s", cve_version_of(d->h, tag));
}

/*
 * Where the bug came: the introducer's mainline release, and the stable
 * lines that took it as a backport before that release (dyad drops the
 * newer ones: the mainline entry covers them).
 */
static void vulnerable(struct dyad *d, struct contain *c, const struct cve_rows *r,
		       const struct triage *t)
{
	uint32_t rel;

	if (r->unknown || r->intro == triage_root(d->h, t->fix))
		return;
	rel = contain_first_release(c, r->intro);
	if (rel != PV_NONE)
		add(d, false, rel, r->intro);
	for (size_t i = 0; i < r->g->nseries; i++) {
		const struct series *s = &r->g->series[i];
		if (s->intro_backport == PV_NONE || s->intro_tag == PV_NONE)
			continue;
		if (rel == PV_NONE || tags_cmp_version(&d->h->tags, s->intro_tag, rel) < 0)
			add(d, false, s->intro_tag, s->intro_backport);
	}
}

/* Where the fix is: the CVE record's fixing commits (cve_rows_fixed). */
static void fixed(struct dyad *d, const struct cve_rows *r, const struct triage *t)
{
	size_t n;
	struct cve_fixed *v = cve_rows_fixed(r, d->h, t, &n);

	for (size_t i = 0; i < n; i++)
		add(d, true, v[i].tag, v[i].commit);
	free(v);
}

/* dyad's pairing: the same version, mainline with mainline, the same series, else the first. */
static const struct dyad_entry *pair_of(const struct dyad *d, const struct dyad_entry *f)
{
	const struct kver *fv = &d->h->tags.v[f->tag].ver;

	for (size_t i = 0; i < d->nvuln; i++) {
		const struct dyad_entry *v = &d->vuln[i];
		if (!strcmp(v->version, f->version) || (v->mainline && f->mainline) ||
		    kver_same_series(&d->h->tags.v[v->tag].ver, fv))
			return v;
	}
	return &d->vuln[0];
}

static void line(FILE *out, const struct history *h, const struct dyad_entry *v,
		 const struct dyad_entry *f)
{
	char vh[GIT_OID_HEXSZ + 1], fh[GIT_OID_HEXSZ + 1];

	if (v)
		git_oid_tostr(vh, sizeof(vh), &h->dag.oids[v->commit]);
	if (f)
		git_oid_tostr(fh, sizeof(fh), &h->dag.oids[f->commit]);
	fprintf(out, "%s:%s:%s:%s\n", v ? v->version : "0", v ? vh : "0",
		f ? f->version : "0", f ? fh : "0");
}

void dyad_report_write(FILE *out, struct history *h, struct contain *c, const struct triage *t)
{
	struct dyad d = { .h = h };
	struct cve_rows r;
	bool *paired;

	cve_rows_init(&r, h, c, t, PV_NONE);
	vulnerable(&d, c, &r, t);
	fixed(&d, &r, t);
	paired = xcalloc(d.nvuln + 1, sizeof(*paired));
	fprintf(out, "# %s\n", git_oid_tostr_s(&h->dag.oids[t->fix]));
	for (size_t i = 0; i < d.nfixed; i++) {
		const struct dyad_entry *v = d.nvuln ? pair_of(&d, &d.fixed[i]) : NULL;
		line(out, h, v, &d.fixed[i]);
		/* dyad: a vulnerable entry is covered by a pair from it, or fixed at its version */
		for (size_t k = 0; k < d.nvuln; k++)
			paired[k] |= &d.vuln[k] == v || !strcmp(d.vuln[k].version, d.fixed[i].version);
	}
	for (size_t k = 0; k < d.nvuln; k++)
		if (!paired[k])
			line(out, h, &d.vuln[k], NULL);
	free(paired);
	free(d.vuln);
	free(d.fixed);
	cve_rows_free(&r);
}
