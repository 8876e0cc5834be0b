/*
 * Stable triage of one fix: evidence, affected releases, series, verdict.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "patchver/stable/apply.h"
#include "patchver/base/error.h"
#include "patchver/stable/match.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/triage.h"
#include "patchver/stable/upstream.h"
#include "patchver/base/util.h"

#define NONE UINT32_MAX

static struct evidence *add_evidence(struct triage *t, enum evidence_kind kind)
{
	struct evidence *e;

	t->ev = xrealloc(t->ev, (t->nev + 1) * sizeof(*t->ev));
	e = &t->ev[t->nev++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->commit = DAG_NONE;
	e->first_release = NONE;
	return e;
}

static size_t hex_run(const char *p)
{
	size_t n = 0;
	while (isxdigit((unsigned char)p[n]) && n < 40)
		n++;
	return isalnum((unsigned char)p[n]) ? 0 : n;
}

static bool already(const struct triage *t, uint32_t commit)
{
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].commit == commit)
			return true;
	return false;
}

/* Fixes: <sha> ("subject") */
static void fixes_line(struct triage *t, struct history *h, const char *p)
{
	size_t n = hex_run(p);
	struct evidence *e;
	const char *q;

	if (n < 7)
		return;
	e = add_evidence(t, EV_FIXES);
	memcpy(e->ref, p, n);
	e->ref[n] = '\0';
	e->commit = rev_find_hex(&h->dag, e->ref);
	q = strstr(p + n, "(\"");
	if (q) {
		const char *end = strstr(q + 2, "\")");
		e->claimed_subject = end ? xstrndup(q + 2, (size_t)(end - q - 2)) : NULL;
	}
	if (e->commit != DAG_NONE && e->claimed_subject) {
		char *real = history_subject(h, e->commit);
		e->subject_mismatch = strcmp(real, e->claimed_subject) != 0;
		free(real);
	}
	/* the mail and its commit often carry the same trailer: keep one */
	for (size_t i = 0; i + 1 < t->nev; i++) {
		struct evidence *old = &t->ev[i];
		if (old->kind != EV_FIXES || old->commit != e->commit ||
		    (e->commit == DAG_NONE && strcmp(old->ref, e->ref)))
			continue;
		if (e->subject_mismatch && !old->subject_mismatch) {
			free(old->claimed_subject);
			old->claimed_subject = e->claimed_subject;
			old->subject_mismatch = true;
		} else {
			free(e->claimed_subject);
		}
		t->nev--;
		return;
	}
}

/* "commit <sha>" anywhere else: a weaker hint of what broke it */
static void mentions(struct triage *t, struct history *h, const char *line,
		     const char *upstream_hex)
{
	for (const char *p = line; (p = strcasestr(p, "commit ")); p += 7) {
		size_t n = hex_run(p + 7);
		char hex[41];
		uint32_t c;
		struct evidence *e;

		if (n < 8)
			continue;
		memcpy(hex, p + 7, n);
		hex[n] = '\0';
		if (upstream_hex && !strncasecmp(upstream_hex, hex, n))
			continue;
		c = rev_find_hex(&h->dag, hex);
		if (c == DAG_NONE || c == t->fix || already(t, c))
			continue;
		e = add_evidence(t, EV_MENTION);
		memcpy(e->ref, hex, n + 1);
		e->commit = c;
	}
}

static void read_message(struct triage *t, struct history *h, const char *msg)
{
	char up[41];
	bool has_up = upstream_ref(msg, up);

	for (const char *p = msg; p && *p;) {
		const char *eol = strchr(p, '\n');
		char *line = xstrndup(p, eol ? (size_t)(eol - p) : strlen(p));
		const char *s = line;

		while (isspace((unsigned char)*s))
			s++;
		if (!strncasecmp(s, "fixes:", 6)) {
			s += 6;
			while (isspace((unsigned char)*s))
				s++;
			fixes_line(t, h, s);
		} else if (!strncasecmp(s, "cc:", 3) && strcasestr(s, "stable@")) {
			const char *hash = strchr(s, '#');
			t->cc_stable = true;
			if (hash) {
				hash++;
				while (isspace((unsigned char)*hash))
					hash++;
				snprintf(t->cc_hint, sizeof(t->cc_hint), "%.*s",
					 (int)strcspn(hash, " \t"), hash);
			}
		} else {
			mentions(t, h, s, has_up ? up : NULL);
		}
		free(line);
		p = eol ? eol + 1 : NULL;
	}
}

static bool is_merge(const struct dag *dag, uint32_t c)
{
	unsigned np;
	dag_parents(dag, c, &np);
	return np > 1;
}

static int add_blame(struct triage *t, struct history *h)
{
	struct dag *dag = &h->dag;
	struct blame_result r;
	unsigned np;
	const uint32_t *par = dag_parents(dag, t->fix, &np);

	if (!np || !*t->fixp.diff)
		return 0;
	if (blame_diff(h->repo, &dag->oids[par[0]], t->fixp.diff, &r) < 0)
		return error(EXIT_CORRUPT, "cannot blame the fix's lines: %s", git_errmsg());
	blame_rank(&r);
	t->blame_lines = r.lines;
	for (size_t i = 0; i < r.nr; i++) {
		struct evidence *e = add_evidence(t, EV_BLAME);
		git_oid_tostr(e->ref, sizeof(e->ref), &r.v[i].commit);
		e->commit = rev_find_hex(dag, e->ref);
		e->lines = r.v[i];
		e->merge = e->commit != DAG_NONE && is_merge(dag, e->commit);
	}
	blame_result_free(&r);
	return 0;
}

/* Is ev an introducer under the evidence kind that decided? */
static bool introduces(const struct triage *t, const struct evidence *e)
{
	if (!t->have_introducers || e->kind != t->used || e->commit == DAG_NONE)
		return false;
	if (e->kind == EV_BLAME)
		return !e->merge && e->lines.removed + e->lines.neighbour > 0;
	return true;
}

static void choose_evidence(struct triage *t)
{
	static const enum evidence_kind order[] = { EV_FIXES, EV_MENTION, EV_BLAME };

	for (size_t k = 0; k < 3; k++) {
		t->used = order[k];
		t->have_introducers = true;
		for (size_t i = 0; i < t->nev; i++)
			if (introduces(t, &t->ev[i]))
				return;
	}
	t->have_introducers = false;
}

/* Mark in set[] every tag containing commit. */
static void mark_tags(struct contain *c, uint32_t commit, bool *set)
{
	size_t n;
	uint32_t *tags = contain_tags(c, commit, &n);

	for (size_t i = 0; i < n; i++)
		set[tags[i]] = true;
	free(tags);
}

static bool tag_contains(struct contain *c, uint32_t tag, uint32_t commit)
{
	size_t n;
	uint32_t *tags = contain_tags(c, commit, &n);
	bool yes = false;

	for (size_t i = 0; i < n && !yes; i++)
		yes = tags[i] == tag;
	free(tags);
	return yes;
}

static void build_series(struct triage *t, struct history *h, const bool *intro,
			 const bool *fixed, struct contain *c)
{
	const struct tag_table *tt = &h->tags;

	for (size_t r = 0; r < tt->nreleases; r++) {
		uint32_t base = tt->releases[r];
		const struct kver *bv = &tt->v[base].ver;
		struct series *s;

		if (kver_is_rc(bv) || kver_is_stable(bv))
			continue;
		t->series = xrealloc(t->series, (t->nseries + 1) * sizeof(*t->series));
		s = &t->series[t->nseries++];
		memset(s, 0, sizeof(*s));
		kver_series(bv, s->name, sizeof(s->name));
		s->base = base;
		s->first_affected = s->last_affected = s->fixed_in = NONE;
		s->backport = DAG_NONE;
		s->affected = intro[base];
		s->tags = xmalloc((tt->nreleases + 1) * sizeof(uint32_t));
		for (size_t k = r; k < tt->nreleases; k++) {
			uint32_t tag = tt->releases[k];
			const struct kver *v = &tt->v[tag].ver;
			if (!kver_same_base(v, bv) || kver_is_rc(v))
				continue;
			s->tags[s->ntags++] = tag;
			if (!s->affected)
				continue;
			if (intro[tag] && !fixed[tag]) {
				if (s->first_affected == NONE)
					s->first_affected = tag;
				s->last_affected = tag;
			} else if (fixed[tag] && s->fixed_in == NONE) {
				s->fixed_in = tag;
			}
		}
		if (s->fixed_in != NONE && !tag_contains(c, s->fixed_in, t->fix)) {
			s->fixed_by_backport = true;
			for (size_t b = 0; b < t->nbackports; b++)
				if (tag_contains(c, s->fixed_in, t->backports[b]))
					s->backport = t->backports[b];
		}
	}
}

/*
 * For each affected release: does the fix apply there?  If not, which of
 * the commits that last changed its hunks' lines (the blame evidence,
 * already computed) does the release lack: its prerequisites.
 */
static int apply_check(struct triage *t, struct history *h, struct contain *c)
{
	bool **has = NULL;      /* has[k][tag]: release tag carries blamed commit k */

	if (!t->naffected || !*t->fixp.diff)
		return 0;
	has = xcalloc(t->nev + 1, sizeof(*has));
	for (size_t k = 0; k < t->nev; k++) {
		if (t->ev[k].kind != EV_BLAME || t->ev[k].commit == DAG_NONE)
			continue;
		has[k] = xcalloc(h->tags.nr + 1, 1);
		mark_tags(c, t->ev[k].commit, has[k]);
	}
	t->fits = xcalloc(t->naffected, sizeof(*t->fits));
	for (size_t i = 0; i < t->naffected; i++) {
		struct release_fit *f = &t->fits[i];
		uint32_t commit = h->tags.v[t->affected[i]].commit;
		char *why = NULL;

		f->tag = t->affected[i];
		f->applies = apply_to_tree(h->repo, &h->dag.trees[commit], t->fixp.diff, NULL, &why) == 0;
		free(why);
		for (size_t k = 0; !f->applies && k < t->nev; k++) {
			if (!has[k] || has[k][f->tag])
				continue;
			f->prereqs = xrealloc(f->prereqs, (f->nprereqs + 1) * sizeof(uint32_t));
			f->prereqs[f->nprereqs++] = t->ev[k].commit;
		}
	}
	for (size_t k = 0; k < t->nev; k++)
		free(has[k]);
	free(has);
	return 0;
}

static void find_affected(struct triage *t, struct history *h, struct contain *c)
{
	size_t ntags = h->tags.nr;
	bool *intro = xcalloc(ntags + 1, 1), *fixed = xcalloc(ntags + 1, 1);

	for (size_t i = 0; i < t->nev; i++)
		if (introduces(t, &t->ev[i]))
			mark_tags(c, t->ev[i].commit, intro);
	mark_tags(c, t->fix, fixed);
	for (size_t b = 0; b < t->nbackports; b++)
		mark_tags(c, t->backports[b], fixed);
	t->affected = xmalloc((h->tags.nreleases + 1) * sizeof(uint32_t));
	for (size_t r = 0; r < h->tags.nreleases; r++) {
		uint32_t tag = h->tags.releases[r];
		if (intro[tag] && !fixed[tag])
			t->affected[t->naffected++] = tag;
	}
	build_series(t, h, intro, fixed, c);
	free(intro);
	free(fixed);
}

int triage_read(struct triage *t, struct history *h, uint32_t fix)
{
	memset(t, 0, sizeof(*t));
	t->fix = fix;
	t->fix_first = UINT32_MAX;
	if (patch_from_commit(&t->fixp, h->repo, &h->dag.oids[fix]) < 0)
		return error(EXIT_CORRUPT, "cannot read the diff of %s: %s",
			     git_oid_tostr_s(&h->dag.oids[fix]), git_errmsg());
	read_message(t, h, t->fixp.message);
	return 0;
}

int triage_run(struct triage *t, struct history *h, struct contain *c,
	       uint32_t fix, const struct patch *mail)
{
	int ret;

	memset(t, 0, sizeof(*t));
	t->fix = fix;
	if (patch_from_commit(&t->fixp, h->repo, &h->dag.oids[fix]) < 0)
		return error(EXIT_CORRUPT, "cannot read the fix's diff: %s", git_errmsg());
	t->fix_first = contain_first_release(c, fix);
	read_message(t, h, t->fixp.message);
	if (mail)
		read_message(t, h, mail->message);
	if ((ret = add_blame(t, h)))
		return ret;
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].commit != DAG_NONE)
			t->ev[i].first_release = contain_first_release(c, t->ev[i].commit);
	choose_evidence(t);
	t->nbackports = match_backports(h, c, fix, &t->fixp, &t->backports);
	find_affected(t, h, c);
	apply_check(t, h, c);
	triage_verdict(t, h);
	return 0;
}

void triage_free(struct triage *t)
{
	patch_free(&t->fixp);
	for (size_t i = 0; i < t->nev; i++)
		free(t->ev[i].claimed_subject);
	free(t->ev);
	free(t->backports);
	free(t->affected);
	for (size_t i = 0; t->fits && i < t->naffected; i++)
		free(t->fits[i].prereqs);
	free(t->fits);
	for (size_t i = 0; i < t->nseries; i++)
		free(t->series[i].tags);
	free(t->series);
	free(t->verdict);
	free(t->cc_note);
	memset(t, 0, sizeof(*t));
}
