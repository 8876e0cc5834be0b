/*
 * CVE JSON 5 "affected" entries from a triage (the kernel CNA's shape).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/cli/cve_report.h"

/* "2.6.34" for v2.6.34-rc1, v2.6.34 and v2.6.34.3 alike */
static void release_of(const struct history *h, uint32_t tag, char *buf, size_t len)
{
	kver_series(&h->tags.v[tag].ver, buf, len);
}

static const char *version_of(const struct history *h, uint32_t tag)
{
	const char *name = h->tags.v[tag].shortname;
	return name[0] == 'v' ? name + 1 : name;
}

/* The earliest introducer of the headline group, when it may bound a range. */
static uint32_t introducer(const struct triage *t, const struct history *h)
{
	return t->groups[0].conf < CONF_LIKELY ? PV_NONE : triage_introducer(t, h, NULL);
}

/* The root commit below the fix (first parents): where the CNA starts ranges. */
static uint32_t root_of(const struct dag *dag, uint32_t c)
{
	unsigned np;
	const uint32_t *p;

	while ((p = dag_parents(dag, c, &np)), np)
		c = p[0];
	return c;
}

static void git_range(struct json *j, const struct history *h, uint32_t from, uint32_t to)
{
	json_obj_begin(j);
	json_kstr(j, "version", git_oid_tostr_s(&h->dag.oids[from]));
	json_kstr(j, "lessThan", git_oid_tostr_s(&h->dag.oids[to]));
	json_kstr(j, "status", "affected");
	json_kstr(j, "versionType", "git");
	json_obj_end(j);
}

static void common(struct json *j, struct history *h, const struct triage *t, const char *status)
{
	git_remote *origin = NULL;

	json_kstr(j, "product", "Linux");
	json_kstr(j, "vendor", "Linux");
	json_kstr(j, "defaultStatus", status);
	if (git_remote_lookup(&origin, h->repo, "origin") == 0 && git_remote_url(origin))
		json_kstr(j, "repo", git_remote_url(origin));
	git_remote_free(origin);
	git_error_clear();
	json_key(j, "programFiles");
	json_arr_begin(j);
	for (size_t i = 0; i < t->fixp.npaths; i++)
		json_str(j, t->fixp.paths[i]);
	json_arr_end(j);
}

/* The fix's mainline release on: unaffected, as the CNA marks the fixing commit's. */
static void fix_entry(struct json *j, const char *fixed)
{
	json_obj_begin(j);
	json_kstr(j, "version", fixed);
	json_kstr(j, "lessThanOrEqual", "*");
	json_kstr(j, "status", "unaffected");
	json_kstr(j, "versionType", "original_commit_for_fix");
	json_obj_end(j);
}

static void release_entries(struct json *j, struct history *h, struct contain *c,
			    const struct triage *t, uint32_t intro, bool *any_affected)
{
	uint32_t intro_rel = contain_first_release(c, intro);
	char first[32] = "", fixed[32] = "";

	if (intro_rel != PV_NONE)
		release_of(h, intro_rel, first, sizeof(first));
	if (t->fix_first != PV_NONE)
		release_of(h, t->fix_first, fixed, sizeof(fixed));
	/* introduced and fixed in one cycle: no release ever had it */
	*any_affected = *first && strcmp(first, fixed) != 0;
	if (*any_affected) {
		json_obj_begin(j);
		json_kstr(j, "version", first);
		json_kstr(j, "status", "affected");
		json_obj_end(j);
	}
	if (*first) {
		json_obj_begin(j);
		json_kstr(j, "version", "0");
		json_kstr(j, "lessThan", first);
		json_kstr(j, "status", "unaffected");
		json_kstr(j, "versionType", "semver");
		json_obj_end(j);
	}
	for (size_t b = 0; b < t->nbackports; b++) {
		uint32_t rel = contain_first_release(c, t->backports[b]);
		char series[32], wild[40];
		if (rel == PV_NONE || !kver_is_stable(&h->tags.v[rel].ver))
			continue;
		release_of(h, rel, series, sizeof(series));
		snprintf(wild, sizeof(wild), "%s.*", series);
		json_obj_begin(j);
		json_kstr(j, "version", version_of(h, rel));
		json_kstr(j, "lessThanOrEqual", wild);
		json_kstr(j, "status", "unaffected");
		json_kstr(j, "versionType", "semver");
		json_obj_end(j);
	}
	if (*fixed)
		fix_entry(j, fixed);
}

/* Did a stable backport of the culprit bring the bug into a series? */
static bool via_stable_backport(const struct triage *t)
{
	for (size_t i = 0; i < t->groups[0].nseries; i++) {
		const struct series *s = &t->groups[0].series[i];
		if (s->intro_backport != PV_NONE && s->affected && s->first_affected != PV_NONE)
			return true;
	}
	return false;
}

/*
 * Release ranges when a stable branch took the culprit as a backport: its
 * versions below the backport never had the bug, so "unaffected below the
 * first release with the culprit" cannot be said.  Each affected series
 * gets its own ranges instead, one per run of affected versions: from the
 * version carrying the culprit (the series' release, or the stable version
 * that took the backport) to the one carrying the fix or its backport
 * (else the whole branch), against defaultStatus "unaffected".
 */
static bool is_affected(const struct triage_group *g, uint32_t tag)
{
	for (size_t i = 0; i < g->naffected; i++)
		if (g->affected[i] == tag)
			return true;
	return false;
}

static void series_entries(struct json *j, const struct history *h, const struct triage *t)
{
	const struct triage_group *g = &t->groups[0];
	char wild[40], fixed[32] = "";

	for (size_t i = 0; i < g->nseries; i++) {
		const struct series *s = &g->series[i];

		snprintf(wild, sizeof(wild), "%s.*", s->name);
		/* each run of affected tags: a revert of the fix's backport opens another */
		for (size_t k = 0; k < s->ntags; k++) {
			size_t end = k;

			if (!is_affected(g, s->tags[k]))
				continue;
			while (end + 1 < s->ntags && is_affected(g, s->tags[end + 1]))
				end++;
			json_obj_begin(j);
			json_kstr(j, "version", version_of(h, s->tags[k]));
			if (end + 1 < s->ntags)
				json_kstr(j, "lessThan", version_of(h, s->tags[end + 1]));
			else
				json_kstr(j, "lessThanOrEqual", wild);
			json_kstr(j, "status", "affected");
			json_kstr(j, "versionType", "semver");
			json_obj_end(j);
			k = end;
		}
	}
	if (t->fix_first == PV_NONE)
		return;
	release_of(h, t->fix_first, fixed, sizeof(fixed));
	fix_entry(j, fixed);
}

void cve_report_write(struct json *j, struct history *h, struct contain *c, const struct triage *t)
{
	cve_report_write_from(j, h, c, t, PV_NONE);
}

void cve_report_write_from(struct json *j, struct history *h, struct contain *c,
			   const struct triage *t, uint32_t measured)
{
	uint32_t intro = measured != PV_NONE ? measured : introducer(t, h);
	bool unknown = intro == PV_NONE, any_affected = false;

	if (unknown)
		intro = root_of(&h->dag, t->fix);
	json_key(j, "affected");
	json_arr_begin(j);
	/* git ranges */
	json_obj_begin(j);
	common(j, h, t, "unaffected");
	json_key(j, "versions");
	json_arr_begin(j);
	git_range(j, h, intro, t->fix);
	for (size_t b = 0; b < t->nbackports; b++)
		git_range(j, h, intro, t->backports[b]);
	/* a branch the bug reached through the culprit's backport: from that backport */
	for (size_t i = 0; i < t->groups[0].nseries; i++) {
		const struct series *s = &t->groups[0].series[i];
		if (s->intro_backport != PV_NONE && s->affected && s->first_affected != PV_NONE)
			git_range(j, h, s->intro_backport,
				  s->fixed_by_backport && s->backport != PV_NONE ? s->backport : t->fix);
	}
	json_arr_end(j);
	json_obj_end(j);
	/* release ranges */
	json_obj_begin(j);
	json_key(j, "versions");
	json_arr_begin(j);
	if (via_stable_backport(t))
		series_entries(j, h, t);
	else
		release_entries(j, h, c, t, intro, &any_affected);
	json_arr_end(j);
	common(j, h, t, any_affected ? "affected" : "unaffected");
	json_obj_end(j);
	json_arr_end(j);
	json_key(j, "notes");
	json_arr_begin(j);
	if (unknown)
		json_str(j, "no certain or likely introducer: the ranges start at the history's "
			 "root commit, as the kernel CNA does when the introducer is unknown");
	for (size_t i = 0; i < t->groups[0].nseries; i++) {
		const struct series *s = &t->groups[0].series[i];
		char note[160], b[13], u[13];
		if (s->intro_backport == PV_NONE || !s->affected || s->first_affected == PV_NONE)
			continue;
		git_oid_tostr(b, sizeof(b), &h->dag.oids[s->intro_backport]);
		git_oid_tostr(u, sizeof(u), &h->dag.oids[s->intro_upstream]);
		snprintf(note, sizeof(note), "%s.y: the bug came with %s, the backport of %s, in %s",
			 s->name, b, u, version_of(h, s->intro_tag));
		json_str(j, note);
	}
	if (!any_affected && !via_stable_backport(t))
		json_str(j, "no released kernel had the bug: introduced and fixed in one "
			 "release cycle");
	json_arr_end(j);
}
