/*
 * The one-line verdict of a triage, with its reasons, and what it means
 * for the fix's Cc: stable tag.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/stable/triage.h"
#include "patchver/base/util.h"

#define NONE UINT32_MAX

static const char *tag_name(const struct history *h, uint32_t t)
{
	return h->tags.v[t].shortname;
}

/* The earliest release that carries an introducer. */
static uint32_t first_bad(const struct triage *t, const struct history *h)
{
	uint32_t best = NONE;

	for (size_t i = 0; i < t->naffected; i++)
		if (best == NONE || tags_cmp_version(&h->tags, t->affected[i], best) < 0)
			best = t->affected[i];
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

static void not_for_stable(struct triage *t, const struct history *h, struct sbuf *sb)
{
	uint32_t bad = first_bad(t, h);

	sbuf_adds(sb, "not for stable: ");
	if (bad == NONE) {
		sbuf_adds(sb, "no release carries the bug without the fix");
		return;
	}
	when_introduced(sb, h, bad);
	if (t->fix_first == NONE) {
		sbuf_adds(sb, ", fix not yet released");
	} else {
		char series[32];
		kver_series(&h->tags.v[bad].ver, series, sizeof(series));
		sbuf_addf(sb, ", fixed before v%s", series);
	}
	sbuf_adds(sb, "; no released kernel affected");
}

static void stable_candidate(struct triage *t, const struct history *h, struct sbuf *sb)
{
	struct sbuf have = SBUF_INIT, missing = SBUF_INIT;
	bool first = true;

	sbuf_adds(sb, "stable candidate: affects ");
	for (size_t i = 0; i < t->nseries; i++) {
		const struct series *s = &t->series[i];
		if (!s->affected || s->first_affected == NONE)
			continue;
		sbuf_addf(sb, "%s%s (%s", first ? "" : ", ", s->name,
			  tag_name(h, s->first_affected));
		if (s->last_affected != s->first_affected)
			sbuf_addf(sb, "\u2013%s", tag_name(h, s->last_affected));
		sbuf_adds(sb, ")");
		first = false;
		if (s->fixed_in != NONE)
			sbuf_addf(&have, "%s%s", have.len ? ", " : "", tag_name(h, s->fixed_in));
		else if (s->ntags > 1)
			sbuf_addf(&missing, "%s%s.y", missing.len ? ", " : "", s->name);
	}
	if (have.len)
		sbuf_addf(sb, "; already in %s", have.buf);
	if (missing.len)
		sbuf_addf(sb, "; missing from %s", missing.buf);
	sbuf_free(&have);
	sbuf_free(&missing);
}

static bool final_affected(const struct triage *t, const struct history *h)
{
	for (size_t i = 0; i < t->naffected; i++)
		if (!kver_is_rc(&h->tags.v[t->affected[i]].ver))
			return true;
	return false;
}

void triage_verdict(struct triage *t, const struct history *h)
{
	struct sbuf sb = SBUF_INIT, cc = SBUF_INIT;
	bool stable = t->have_introducers && final_affected(t, h);

	if (!t->have_introducers)
		sbuf_adds(&sb, "unknown: no introducing commit found");
	else if (stable)
		stable_candidate(t, h, &sb);
	else
		not_for_stable(t, h, &sb);
	t->verdict = sb.buf;

	if (t->cc_stable && t->have_introducers && !stable)
		sbuf_adds(&cc, "Cc: stable was not needed: no released kernel had the bug");
	else if (t->cc_stable && stable)
		sbuf_addf(&cc, "Cc: stable is right%s%s", *t->cc_hint ? " (hint: " : "",
			  *t->cc_hint ? t->cc_hint : "");
	else if (!t->cc_stable && stable)
		sbuf_adds(&cc, "no Cc: stable tag, yet released kernels have the bug");
	if (t->cc_stable && stable && *t->cc_hint)
		sbuf_adds(&cc, ")");
	t->cc_note = cc.buf;
}
