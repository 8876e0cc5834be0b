/*
 * The one-line verdict of a triage (verdict.h), with its reasons, and
 * what it means for the fix's Cc: stable tag.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/gitstart.h"
#include "patchver/stable/triage.h"
#include "patchver/stable/verdict.h"

static const char *tag_name(const struct history *h, uint32_t t)
{
	return h->tags.v[t].shortname;
}

/* The earliest release that carries an introducer. */
static uint32_t first_bad(const struct triage_group *g, const struct history *h)
{
	uint32_t best = PV_NONE;

	for (size_t i = 0; i < g->naffected; i++)
		if (best == PV_NONE || tags_cmp_version(&h->tags, g->affected[i], best) < 0)
			best = g->affected[i];
	return best;
}

/* "the v2.6.34 merge window (v2.6.34-rc1)" or "v2.6.34-rc3" */
static void when_introduced(struct sbuf *sb, const struct history *h, uint32_t tag)
{
	const struct kver *v = &h->tags.v[tag].ver;
	char series[32];

	kver_series(v, series, sizeof(series));
	if (v->rc == 1)
		sbuf_addf(sb, "introduced in the v%s merge window (%s)", series,
			  tag_name(h, tag));
	else if (v->rc)
		sbuf_addf(sb, "introduced during the v%s release candidates (%s)", series,
			  tag_name(h, tag));
	else
		sbuf_addf(sb, "introduced in %s", tag_name(h, tag));
}

static void not_for_stable(const struct triage *t, const struct triage_group *g,
			   const struct history *h, struct sbuf *sb)
{
	uint32_t bad = first_bad(g, h);

	sbuf_adds(sb, "not for stable: ");
	if (bad == PV_NONE) {
		sbuf_adds(sb, g->by_lines ? "no release without the fix has the lines it changes" :
			  "no release carries the bug without the fix");
		return;
	}
	when_introduced(sb, h, bad);
	if (t->fix_first == PV_NONE) {
		sbuf_adds(sb, ", fix not yet released");
	} else {
		char series[32];
		kver_series(&h->tags.v[bad].ver, series, sizeof(series));
		sbuf_addf(sb, ", fixed before v%s", series);
	}
	sbuf_adds(sb, "; no released kernel affected");
}

/* Series lists: every one when few, else the first and last and a count. */
static void series_list(struct sbuf *sb, const struct history *h,
			const struct series *const *v, size_t n, bool with_tags)
{
	for (size_t i = 0; i < n; i++) {
		const struct series *s = v[i];
		if (n > 4 && i == 1) {
			sbuf_addf(sb, " \u2026 ");
			i = n - 1;
			s = v[i];
		} else if (i) {
			sbuf_adds(sb, ", ");
		}
		sbuf_adds(sb, s->name);
		if (!with_tags)
			continue;
		sbuf_addf(sb, " (%s", tag_name(h, s->first_affected));
		if (s->last_affected != s->first_affected)
			sbuf_addf(sb, "\u2013%s", tag_name(h, s->last_affected));
		sbuf_adds(sb, ")");
	}
	if (n > 4)
		sbuf_addf(sb, " (%zu series)", n);
}

static void stable_candidate(const struct triage *t, const struct triage_group *g,
			     const struct history *h, struct sbuf *sb)
{
	const struct series **aff = xcalloc(g->nseries + 1, sizeof(*aff));
	const struct series **missing = xcalloc(g->nseries + 1, sizeof(*missing));
	struct sbuf have = SBUF_INIT;
	size_t naff = 0, nmissing = 0;

	for (size_t i = 0; i < g->nseries; i++) {
		const struct series *s = &g->series[i];
		if (!s->affected)
			continue;
		aff[naff++] = s;
		if (s->fixed_in != PV_NONE)
			sbuf_addf(&have, "%s%s", have.len ? ", " : "", tag_name(h, s->fixed_in));
		else if (s->maintained)
			missing[nmissing++] = s;
	}
	sbuf_adds(sb, t->fix_kind.cls == FIXCLASS_FIX ? "stable candidate: affects " :
		  "possible stable candidate: affects ");
	series_list(sb, h, aff, naff, true);
	/* the backport that brought the bug where the series' base did not have it */
	for (size_t i = 0; i < naff; i++) {
		char b[13], u[13];
		if (aff[i]->intro_backport == PV_NONE)
			continue;
		git_oid_tostr(b, sizeof(b), &h->dag.oids[aff[i]->intro_backport]);
		git_oid_tostr(u, sizeof(u), &h->dag.oids[aff[i]->intro_upstream]);
		sbuf_addf(sb, "; the bug came to %s.y with %s (backport of %s%s) in %s",
			  aff[i]->name, b, u, aff[i]->intro_by_patchid ? ", same patch-id" : "",
			  tag_name(h, aff[i]->intro_tag));
	}
	if (have.len)
		sbuf_addf(sb, "; already in %s", have.buf);
	if (nmissing) {
		sbuf_adds(sb, "; missing from ");
		for (size_t i = 0; i < nmissing; i++)
			sbuf_addf(sb, "%s%s.y", i ? ", " : "", missing[i]->name);
	}
	sbuf_free(&have);
	free(aff);
	free(missing);
}

static bool final_affected(const struct triage_group *g, const struct history *h)
{
	for (size_t i = 0; i < g->naffected; i++)
		if (!kver_is_rc(&h->tags.v[g->affected[i]].ver))
			return true;
	return false;
}

/*
 * Not a fix: why, and where the code it changes is, for the record (the
 * releases are reported all the same).
 */
static void not_a_fix(const struct triage *t, const struct triage_group *g,
		      const struct history *h, struct sbuf *sb)
{
	uint32_t bad = first_bad(g, h);

	sbuf_addf(sb, "not a fix: %s", t->fix_kind.reason);
	if (bad != PV_NONE)
		sbuf_addf(sb, "; the lines it changes came in %s", tag_name(h, bad));
}

/* The group's verdict; true if released kernels are affected. */
static bool group_verdict(const struct triage *t, struct triage_group *g,
			  const struct history *h)
{
	struct sbuf sb = SBUF_INIT;
	bool stable = (g->nintro || g->by_lines) && final_affected(g, h);

	if (t->fix_kind.cls == FIXCLASS_NOT_FIX) {
		not_a_fix(t, g, h, &sb);
		g->verdict = sb.buf;
		return stable;
	}
	if (g->conf == CONF_UNCERTAIN && g->oldest != PV_NONE)
		sbuf_addf(&sb, "uncertain: the lines it changes were last changed in "
			  "commits from %s to %s; on the likeliest introducers: ",
			  tag_name(h, g->oldest), tag_name(h, g->newest));
	if (!g->nintro && !g->by_lines)
		sbuf_adds(&sb, "unknown: no introducing commit found");
	else if (stable)
		stable_candidate(t, g, h, &sb);
	else
		not_for_stable(t, g, h, &sb);
	if (g->by_lines)
		sbuf_adds(&sb, " (by the lines it changes: the message names no culprit)");
	g->verdict = sb.buf;
	return stable;
}

const char *triage_class_key(enum triage_class cls)
{
	static const char *const keys[] = {
		"stable-candidate", "possible-stable-candidate", "not-for-stable", "not-a-fix",
		"unknown",
	};
	return keys[cls];
}

/* The headline part decides the class of a fix with several. */
static enum triage_class class_of(const struct triage *t, bool stable, bool known)
{
	if (t->fix_kind.cls == FIXCLASS_NOT_FIX)
		return TRIAGE_NOT_A_FIX;
	if (!known)
		return TRIAGE_UNKNOWN;
	if (!stable)
		return TRIAGE_NOT_FOR_STABLE;
	return t->fix_kind.cls == FIXCLASS_FIX ? TRIAGE_CANDIDATE : TRIAGE_POSSIBLE;
}

const char *confidence_name(enum confidence conf)
{
	static const char *const names[] = { "none", "uncertain", "likely", "certain", "given" };
	return names[conf];
}

/*
 * Mainline took the fix back out: whatever the bug, this patch is not the
 * one to backport (a stable line that has it should revert it too).  The
 * headline keeps what it would have said, after the reason it does not hold.
 */
static void mainline_reverted(struct triage *t, const struct history *h)
{
	struct triage_group *g = &t->groups[0];
	char *was = g->verdict;

	g->verdict = xstrfmt("not for stable: mainline reverted it in %.12s (%s); before the "
			     "revert: %s", git_oid_tostr_s(&h->dag.oids[t->mainline_revert]),
			     t->mainline_revert_first == PV_NONE ? "not yet released" :
			     tag_name(h, t->mainline_revert_first), was);
	free(was);
	t->cls = TRIAGE_NOT_FOR_STABLE;
	free(t->cc_note);
	if (t->backport_first != PV_NONE)
		t->cc_note = xstrfmt("stable has it since %s: revert it there too",
				     tag_name(h, t->backport_first));
	else
		t->cc_note = xstrdup(t->ev.cc_stable ? "its Cc: stable no longer holds: "
				     "mainline took it back out" : "mainline took it back out");
}

void triage_verdict(struct triage *t, const struct history *h)
{
	struct sbuf cc = SBUF_INIT;
	const struct evidence_list *ev = &t->ev;
	bool stable = false, known = t->groups[0].nintro > 0 || t->groups[0].by_lines;

	for (size_t i = 0; i < t->ngroups; i++) {
		bool s = group_verdict(t, &t->groups[i], h);
		if (!i)
			stable = s;
	}
	t->cls = class_of(t, stable, known);
	if (ev->cc_stable && known && !stable && t->groups[0].conf == CONF_UNCERTAIN &&
	    t->groups[0].oldest != PV_NONE)
		/* too weak to tell the developer's Cc: stable it was wrong */
		sbuf_addf(&cc, "Cc: stable may be right: blame is uncertain, older "
			  "code (from %s) is among what the fix changes",
			  tag_name(h, t->groups[0].oldest));
	else if (ev->cc_stable && known && !stable && t->groups[0].conf >= CONF_CERTAIN)
		sbuf_adds(&cc, "Cc: stable was not needed: no released kernel had the bug");
	else if (ev->cc_stable && known && !stable && t->groups[0].by_lines)
		sbuf_adds(&cc, "Cc: stable was likely not needed: no release without the fix has "
			  "the lines it changes");
	else if (ev->cc_stable && known && !stable)
		/* a likely verdict does not say flatly that the developer was wrong */
		sbuf_adds(&cc, "Cc: stable was likely not needed: by the likeliest introducers, "
			  "no released kernel had the bug");
	else if (ev->cc_stable && stable)
		sbuf_addf(&cc, "Cc: stable is right%s%s", *ev->cc_hint ? " (hint: " : "",
			  *ev->cc_hint ? ev->cc_hint : "");
	else if (t->cls == TRIAGE_POSSIBLE)
		sbuf_adds(&cc, "no Cc: stable tag, yet released kernels have the bug");
	else if (!ev->cc_stable && t->cls == TRIAGE_CANDIDATE)
		sbuf_addf(&cc, "no Cc: stable tag; its own word: %s", t->fix_kind.reason);
	if (ev->cc_stable && stable && *ev->cc_hint)
		sbuf_adds(&cc, ")");
	/*
	 * The stable team's own judgement, when it went the other way: unless
	 * it took the culprit and the fix together (no stable release had the
	 * bug, and so the backport is right).
	 */
	if (known && !stable && t->backport_first != PV_NONE) {
		const struct series *together = NULL;
		for (size_t i = 0; i < t->groups[0].nseries && !together; i++)
			if (t->groups[0].series[i].together)
				together = &t->groups[0].series[i];
		if (together)
			sbuf_addf(&cc, "%sculprit and fix backported together in %s",
				  cc.len ? "; " : "", tag_name(h, together->intro_tag));
		else
			sbuf_addf(&cc, "%sbackported to stable all the same (%s): check",
				  cc.len ? "; " : "", tag_name(h, t->backport_first));
	}
	t->cc_note = cc.buf;
	if (t->mainline_revert != PV_NONE && t->cls != TRIAGE_NOT_A_FIX)
		mainline_reverted(t, h);
}
