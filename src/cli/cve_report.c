/*
 * CVE JSON 5 "affected" entries from a triage (the kernel CNA's shape).
 * Both blocks are read off one set of series rows, the triage's own (or
 * placed the triage's way from a measured or unknown introducer), so the
 * git ranges, the version ranges and the triage's text cannot disagree.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/objstore.h"
#include "patchver/cli/cve_report.h"
#include "patchver/cli/cve_rows.h"

#define STABLE_TREE_URL "https://git.kernel.org/pub/scm/linux/kernel/git/stable/linux.git"
/* The Linux kernel CNA's organization (its records' assignerOrgId) */
#define KERNEL_CNA_ORG_ID "f4215fc3-5b6b-47ff-a258-f7189bd81038"
/* An id the schema accepts and no CVE has: the record before one is assigned */
#define CVE_ID_PLACEHOLDER "CVE-0000-0000"

/* The URL of origin; NULL if there is none. */
static const char *origin_url(struct history *h, char *buf, size_t len)
{
	git_remote *origin = NULL;
	const char *url = NULL;

	if (git_remote_lookup(&origin, h->repo, "origin") == 0 && git_remote_url(origin)) {
		snprintf(buf, len, "%s", git_remote_url(origin));
		url = buf;
	}
	git_remote_free(origin);
	git_error_clear();
	return url;
}

static void common(struct json *j, const struct cve_rows *r, const struct triage *t,
		   const char *status)
{
	json_kstr(j, "product", "Linux");
	json_kstr(j, "vendor", "Linux");
	json_kstr(j, "defaultStatus", status);
	json_kstr(j, "repo", r->repo);
	json_key(j, "programFiles");
	json_arr_begin(j);
	for (size_t i = 0; i < t->fixp.npaths; i++)
		json_str(j, t->fixp.paths[i]);
	json_arr_end(j);
}

/*
 * A git range to `to` from the first of from[0..n) (PV_NONE: skipped)
 * that is its ancestor; none is: no range, a note.
 */
static void git_range(struct json *j, struct history *h, struct cve_rows *r,
		      const uint32_t *from, size_t n, uint32_t to, const char *what)
{
	bool *below = dag_ancestors(&h->dag, &to, 1);
	char f[13], t[13];
	size_t i = 0;

	while (i < n && (from[i] == PV_NONE || !below || !below[from[i]]))
		i++;
	free(below);
	if (i == n) {
		git_oid_tostr(f, sizeof(f), &h->dag.oids[from[0] != PV_NONE ? from[0] : r->intro]);
		git_oid_tostr(t, sizeof(t), &h->dag.oids[to]);
		cve_rows_note(r, xstrfmt("%s: %s is not an ancestor of %s: no git range", what, f, t));
		return;
	}
	json_obj_begin(j);
	json_kstr(j, "version", git_oid_tostr_s(&h->dag.oids[from[i]]));
	json_kstr(j, "lessThan", git_oid_tostr_s(&h->dag.oids[to]));
	json_kstr(j, "status", "affected");
	json_kstr(j, "versionType", "git");
	json_obj_end(j);
}

/*
 * Git ranges, stable lines first and mainline last, as the CNA lists
 * them: each series fixed by a backport, from the commit that brought the
 * bug to it (its base's introducer, or the introducer's backport on that
 * branch) to the fix's backport; then the introducer to the fix.
 */
static void git_block(struct json *j, struct history *h, struct cve_rows *r,
		      const struct triage *t)
{
	json_obj_begin(j);
	common(j, r, t, "unaffected");
	json_key(j, "versions");
	json_arr_begin(j);
	for (size_t i = 0; i < r->g->nseries; i++) {
		const struct series *s = &r->g->series[i];
		char what[48];
		if (!s->affected || !s->fixed_by_backport || s->backport == PV_NONE)
			continue;
		/* the backport that brought the bug; else the record's introducer,
		 * or the one of the group that reached the series first */
		uint32_t from[3] = { s->intro_backport, s->intro_backport == PV_NONE ?
				     r->intro : PV_NONE, s->intro_upstream };
		snprintf(what, sizeof(what), "%s.y", s->name);
		git_range(j, h, r, from, s->intro_backport != PV_NONE ? 1 : 3, s->backport, what);
	}
	git_range(j, h, r, &r->intro, 1, t->fix, "mainline");
	json_arr_end(j);
	json_obj_end(j);
}

static void semver(struct json *j, const char *version, const char *key, const char *to,
		   const char *status, const char *type)
{
	json_obj_begin(j);
	json_kstr(j, "version", version);
	if (key)
		json_kstr(j, key, to);
	json_kstr(j, "status", status);
	json_kstr(j, "versionType", type);
	json_obj_end(j);
}

/* The fix's mainline release on: unaffected, as the CNA marks the fixing commit's. */
static void fix_entry(struct json *j, const struct history *h, const struct triage *t)
{
	char fixed[32];

	if (t->fix_first == PV_NONE)
		return;
	cve_release_of(h, t->fix_first, fixed, sizeof(fixed));
	semver(j, fixed, "lessThanOrEqual", "*", "unaffected", "original_commit_for_fix");
}

/*
 * Against defaultStatus "affected": the first affected release, "0" up to
 * it unaffected, each series fixed by a stable backport unaffected from it
 * to the end of its series, a series after the first that the bug never
 * reached unaffected whole, and the fix's mainline release on.
 */
static void affected_default(struct json *j, const struct history *h, struct cve_rows *r,
			     const struct triage *t)
{
	const struct triage_group *g = r->g;
	size_t first = 0;
	char wild[40];

	while (!g->series[first].affected)
		first++;
	json_obj_begin(j);
	json_kstr(j, "version", g->series[first].name);
	json_kstr(j, "status", "affected");
	json_obj_end(j);
	semver(j, "0", "lessThan", g->series[first].name, "unaffected", "semver");
	for (size_t i = first; i < g->nseries; i++) {
		const struct series *s = &g->series[i];
		snprintf(wild, sizeof(wild), "%s.*", s->name);
		if (t->fix_first != PV_NONE && tags_cmp_version(&h->tags, s->base, t->fix_first) >= 0)
			break;  /* the fix's release on: the last entry */
		if (!s->affected)
			semver(j, s->name, "lessThanOrEqual", wild, "unaffected", "semver");
		else if (s->fixed_in != PV_NONE && kver_is_stable(&h->tags.v[s->fixed_in].ver)) {
			if (cve_affected_again(g, s))
				cve_rows_note(r, xstrfmt("%s.y: the fix's backport was reverted after %s: "
						"the series stays affected", s->name,
						cve_version_of(h, s->fixed_in)));
			else
				semver(j, cve_version_of(h, s->fixed_in), "lessThanOrEqual", wild,
				       "unaffected", "semver");
		}
	}
	fix_entry(j, h, t);
}

/*
 * Against defaultStatus "unaffected", where a stable branch took the
 * culprit as a backport (its versions below the backport never had the
 * bug, so "unaffected below the first release with the culprit" cannot be
 * said): each run of affected versions of each series, from the version
 * carrying the culprit to the one carrying the fix or its backport (else
 * the whole series).
 */
static void unaffected_default(struct json *j, const struct history *h,
			       const struct triage_group *g)
{
	char wild[40];

	for (size_t i = 0; i < g->nseries; i++) {
		const struct series *s = &g->series[i];

		snprintf(wild, sizeof(wild), "%s.*", s->name);
		for (size_t k = 0; k < s->ntags; k++) {
			size_t end = k;

			if (!cve_is_affected(g, s->tags[k]))
				continue;
			while (end + 1 < s->ntags && cve_is_affected(g, s->tags[end + 1]))
				end++;
			semver(j, cve_version_of(h, s->tags[k]), end + 1 < s->ntags ? "lessThan" :
			       "lessThanOrEqual", end + 1 < s->ntags ? cve_version_of(h, s->tags[end + 1]) :
			       wild, "affected", "semver");
			k = end;
		}
	}
}

static void version_block(struct json *j, const struct history *h, struct cve_rows *r,
			  const struct triage *t)
{
	const struct triage_group *g = r->g;
	bool any = cve_any_affected(g), via_backport = false;

	for (size_t i = 0; i < g->nseries; i++)
		via_backport |= g->series[i].affected && g->series[i].intro_backport != PV_NONE;
	json_obj_begin(j);
	/* no released kernel affected: the default says it all, no entry to list */
	if (any) {
		json_key(j, "versions");
		json_arr_begin(j);
		if (via_backport)
			unaffected_default(j, h, g);
		else
			affected_default(j, h, r, t);
		json_arr_end(j);
	}
	common(j, r, t, any && !via_backport ? "affected" : "unaffected");
	json_obj_end(j);
}

/* What the record cannot know here, and how the bug came where a backport brought it. */
static void series_notes(const struct history *h, struct cve_rows *r)
{
	const char *untagged[2] = { NULL, NULL };   /* the first and last of them */
	size_t nuntagged = 0;

	for (size_t i = 0; i < r->g->nseries; i++) {
		const struct series *s = &r->g->series[i];
		char b[13], u[13];
		if (s->affected && !s->maintained) {
			untagged[!!nuntagged++] = s->name;
			if (nuntagged == 1)
				untagged[1] = s->name;
		}
		if (s->intro_backport == PV_NONE || !s->affected)
			continue;
		git_oid_tostr(b, sizeof(b), &h->dag.oids[s->intro_backport]);
		git_oid_tostr(u, sizeof(u), &h->dag.oids[s->intro_upstream]);
		cve_rows_note(r, xstrfmt("%s.y: the bug came with %s, the backport of %s, in %s", s->name,
				b, u, cve_version_of(h, s->intro_tag)));
	}
	if (nuntagged == 1)
		cve_rows_note(r, xstrfmt("%s.y: no stable tags in this repository: a fix it took is not "
				"listed", untagged[0]));
	else if (nuntagged)
		cve_rows_note(r, xstrfmt("%zu affected series from %s.y to %s.y have no stable tags in this "
				"repository: a fix they took is not listed", nuntagged, untagged[0],
				untagged[1]));
}

/* Did the bug come and go in one release cycle (the same series' rcs)? */
static bool same_cycle(const struct history *h, struct contain *c, const struct cve_rows *r,
		       const struct triage *t)
{
	uint32_t in = contain_first_release(c, r->intro);
	char a[32], b[32];

	if (in == PV_NONE || t->fix_first == PV_NONE)
		return false;
	cve_release_of(h, in, a, sizeof(a));
	cve_release_of(h, t->fix_first, b, sizeof(b));
	return !strcmp(a, b);
}

/*
 * The "affected" entries, and the notes under notes_key, into an open
 * object; the rows they were written from in r (the caller frees them).
 */
static void affected(struct json *j, struct history *h, struct contain *c,
		     const struct triage *t, const struct cve_opts *o, struct cve_rows *r,
		     const char *notes_key, char *url, size_t len)
{
	cve_rows_init(r, h, c, t, o->measured);
	r->repo = o->repo ? o->repo : origin_url(h, url, len);
	if (!r->repo)
		r->repo = STABLE_TREE_URL;
	if (r->unknown)
		cve_rows_note(r, xstrdup("no certain or likely introducer: the ranges start at the "
				 "history's root commit, as the kernel CNA does when the introducer "
				 "is unknown"));
	json_key(j, "affected");
	json_arr_begin(j);
	git_block(j, h, r, t);
	version_block(j, h, r, t);
	json_arr_end(j);
	series_notes(h, r);
	if (!cve_any_affected(r->g))
		cve_rows_note(r, xstrdup(same_cycle(h, c, r, t) ? "no released kernel had the bug: "
				 "introduced and fixed in one release cycle" :
				 "no released kernel had the bug"));
	json_key(j, notes_key);
	json_arr_begin(j);
	for (size_t i = 0; i < r->nnotes; i++)
		json_str(j, r->notes[i]);
	json_arr_end(j);
}

void cve_report_write(struct json *j, struct history *h, struct contain *c,
		      const struct triage *t, const struct cve_opts *o)
{
	struct cve_rows r;
	char url[512];

	affected(j, h, c, t, o, &r, "notes", url, sizeof(url));
	cve_rows_free(&r);
}

/* At most max bytes of s, cut at a UTF-8 character's start. */
static char *cut_utf8(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (n <= max)
		return xstrdup(s);
	n = max;
	while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return xstrndup(s, n);
}

/* "Signed-off-by: ...", "Cc: ...": a trailer line. */
static bool trailer_line(const char *p, size_t len)
{
	const char *colon = memchr(p, ':', len);

	if (!colon || colon == p || colon - p > 40 || (size_t)(colon - p) + 1 >= len ||
	    colon[1] != ' ')
		return false;
	for (const char *q = p; q < colon; q++)
		if (!isalnum((unsigned char)*q) && *q != '-')
			return false;
	return true;
}

/*
 * The kernel CNA's description: its opening sentence, the subject and the
 * body (git's %s and %b), the trailer block at the end dropped
 * (Signed-off-by:, Cc:, ...).
 */
static char *description(const char *msg, const char *subject)
{
	const char *body = objstore_body(msg);
	size_t len = strlen(body);

	/* from the end: trailers and blank lines go, up to the last prose line */
	for (;;) {
		size_t end = len, start;
		while (end > 0 && body[end - 1] == '\n')
			end--;
		for (start = end; start > 0 && body[start - 1] != '\n'; start--)
			;
		if (end == 0 || !trailer_line(body + start, end - start)) {
			len = end;
			break;
		}
		len = start;
	}
	return xstrfmt("In the Linux kernel, the following vulnerability has been resolved:\n\n%s%s%.*s",
		       subject, len ? "\n\n" : "", (int)len, body);
}

/* The record's kind and its cveMetadata. */
static void metadata(struct json *j, const char *cve_id, const char *org)
{
	json_kstr(j, "dataType", "CVE_RECORD");
	json_kstr(j, "dataVersion", "5.0");
	json_key(j, "cveMetadata");
	json_obj_begin(j);
	json_kstr(j, "cveId", cve_id);
	json_kstr(j, "assignerOrgId", org);
	json_kstr(j, "state", "PUBLISHED");
	json_obj_end(j);
}

void cve_report_record(struct json *j, struct history *h, struct contain *c,
		       const struct triage *t, const struct cve_opts *o)
{
	const char *org = o->org_id ? o->org_id : KERNEL_CNA_ORG_ID;
	struct cve_fixed *fixed;
	struct cve_rows r;
	char url[512], *msg = history_message(h, t->fix), *subject, *text, *cut;
	size_t n;

	msg = msg ? msg : xstrdup("");
	subject = objstore_subject(msg);
	json_obj_begin(j);
	metadata(j, o->cve_id ? o->cve_id : CVE_ID_PLACEHOLDER, org);
	json_key(j, "containers");
	json_obj_begin(j);
	json_key(j, "cna");
	json_obj_begin(j);
	json_key(j, "providerMetadata");
	json_obj_begin(j);
	json_kstr(j, "orgId", org);
	json_obj_end(j);
	cut = cut_utf8(subject, 256);
	json_kstr(j, "title", cut);
	free(cut);
	json_key(j, "descriptions");
	json_arr_begin(j);
	json_obj_begin(j);
	json_kstr(j, "lang", "en");
	text = description(msg, subject);
	cut = cut_utf8(text, 4096);
	json_kstr(j, "value", cut);
	free(cut);
	free(text);
	json_obj_end(j);
	json_arr_end(j);
	affected(j, h, c, t, o, &r, "x_patchver_notes", url, sizeof(url));
	/* every fixing commit, as the CNA links them: stable backports, then mainline */
	json_key(j, "references");
	json_arr_begin(j);
	fixed = cve_rows_fixed(&r, h, t, &n);
	for (size_t i = 0; i < n; i++) {
		json_obj_begin(j);
		text = xstrfmt("https://git.kernel.org/stable/c/%s",
			       git_oid_tostr_s(&h->dag.oids[fixed[i].commit]));
		json_kstr(j, "url", text);
		free(text);
		json_obj_end(j);
	}
	free(fixed);
	json_arr_end(j);
	json_obj_end(j);    /* cna */
	json_obj_end(j);    /* containers */
	json_obj_end(j);
	cve_rows_free(&r);
	free(subject);
	free(msg);
}
