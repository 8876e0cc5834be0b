/*
 * Unit tests: the triage's verdict (verdict.c) on groups set by hand over
 * a fixture's release tags: which class a fix gets from its headline
 * part, each sentence's words, and the note on its Cc: stable tag.
 *
 *   test_verdict REPO   (tests/make-fixtures.sh's demo.git: v2.6.32 ... v2.6.35-rc1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "patchver/stable/triage.h"
#include "patchver/stable/verdict.h"

static struct history h;

static uint32_t tag(const char *name)
{
	return fixture_tag(&h, name);
}

/* A triage of one group: introducers (1 or 0), the affected releases given. */
static void one_group(struct triage *t, enum fix_class cls, enum confidence conf,
		      size_t nintro, const char *const *affected)
{
	struct triage_group *g;

	memset(t, 0, sizeof(*t));
	t->fix_first = tag("v2.6.34-rc4");
	t->backport_first = PV_NONE;
	t->mainline_revert = t->mainline_revert_first = PV_NONE;
	t->fix_kind.cls = cls;
	t->fix_kind.reason = strdup(cls == FIXCLASS_NOT_FIX ? "changes only MAINTAINERS" :
				"its message says it fixes a bug");
	t->groups = calloc(1, sizeof(*t->groups));
	t->ngroups = 1;
	g = &t->groups[0];
	g->conf = conf;
	g->oldest = g->newest = PV_NONE;
	g->nintro = nintro;
	g->intro = calloc(nintro + 1, sizeof(*g->intro));
	for (; affected && affected[g->naffected]; g->naffected++)
		;
	g->affected = calloc(g->naffected + 1, sizeof(*g->affected));
	for (size_t i = 0; i < g->naffected; i++)
		g->affected[i] = tag(affected[i]);
}

/* A stable series of the group, affected from first to last, fixed in fixed (or NULL). */
static struct series *add_series(struct triage *t, const char *name, const char *first,
				 const char *last, const char *fixed)
{
	struct triage_group *g = &t->groups[0];
	struct series *s;

	g->series = realloc(g->series, (g->nseries + 1) * sizeof(*g->series));
	s = &g->series[g->nseries++];
	memset(s, 0, sizeof(*s));
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->affected = s->maintained = true;
	s->first_affected = tag(first);
	s->last_affected = tag(last);
	s->fixed_in = fixed ? tag(fixed) : PV_NONE;
	s->backport = s->intro_tag = s->intro_backport = s->intro_upstream = PV_NONE;
	s->on_mainline = s->mainline_by = PV_NONE;
	return s;
}

static void unreleased_regression(void)
{
	static const char *const rcs[] = { "v2.6.34-rc1", "v2.6.34-rc2", "v2.6.34-rc3", NULL };
	struct triage t;

	/* the seed's story: the bug came in the merge window, fixed before v2.6.34 */
	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rcs);
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_NOT_FOR_STABLE);
	CHECK_STR(t.groups[0].verdict, "not for stable: introduced in the v2.6.34 merge window "
		  "(v2.6.34-rc1), fixed before v2.6.34; no released kernel affected");
	CHECK_STR(t.cc_note ? t.cc_note : "", "");
	triage_free(&t);

	/* the developer said Cc: stable: the note says it was not needed */
	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rcs);
	t.ev.cc_stable = true;
	triage_verdict(&t, &h);
	CHECK_STR(t.cc_note, "Cc: stable was not needed: no released kernel had the bug");
	triage_free(&t);

	/* ... and only "likely" when the verdict is */
	one_group(&t, FIXCLASS_FIX, CONF_LIKELY, 1, rcs);
	t.ev.cc_stable = true;
	triage_verdict(&t, &h);
	CHECK_STR(t.cc_note, "Cc: stable was likely not needed: by the likeliest introducers, "
		  "no released kernel had the bug");
	triage_free(&t);

	/* a later rc, and the fix never released */
	one_group(&t, FIXCLASS_FIX, CONF_LIKELY, 1, (const char *const[]){ "v2.6.34-rc3", NULL });
	t.fix_first = PV_NONE;
	triage_verdict(&t, &h);
	CHECK_STR(t.groups[0].verdict, "not for stable: introduced during the v2.6.34 release "
		  "candidates (v2.6.34-rc3), fix not yet released; no released kernel affected");
	triage_free(&t);

	/* the stable team took it anyway: say so, and ask to check */
	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rcs);
	t.backport_first = tag("v2.6.33.4");
	triage_verdict(&t, &h);
	CHECK_STR(t.cc_note, "backported to stable all the same (v2.6.33.4): check");
	triage_free(&t);
}

static void released_bug(void)
{
	static const char *const rel[] = { "v2.6.33", "v2.6.33.1", "v2.6.33.2", "v2.6.34-rc1",
					   NULL };
	struct triage t;

	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rel);
	add_series(&t, "2.6.33", "v2.6.33", "v2.6.33.2", NULL);
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_CANDIDATE);
	CHECK_STR(t.groups[0].verdict, "stable candidate: affects 2.6.33 (v2.6.33\u2013v2.6.33.2); "
		  "missing from 2.6.33.y");
	CHECK_STR(t.cc_note, "no Cc: stable tag; its own word: its message says it fixes a bug");
	triage_free(&t);

	/* mainline took it back out: not for stable, whatever it fixed */
	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rel);
	add_series(&t, "2.6.33", "v2.6.33", "v2.6.33.2", NULL);
	t.mainline_revert = h.tags.v[tag("v2.6.34")].commit;
	t.mainline_revert_first = tag("v2.6.34");
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_NOT_FOR_STABLE);
	CHECK(!strncmp(t.groups[0].verdict, "not for stable: mainline reverted it in ", 40));
	CHECK(strstr(t.groups[0].verdict, " (v2.6.34); before the revert: stable candidate: "
		     "affects 2.6.33") != NULL);
	CHECK_STR(t.cc_note, "mainline took it back out");
	triage_free(&t);

	/* a backport already there: named, and not missing */
	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rel);
	add_series(&t, "2.6.33", "v2.6.33", "v2.6.33.2", "v2.6.33.3");
	t.ev.cc_stable = true;
	snprintf(t.ev.cc_hint, sizeof(t.ev.cc_hint), "2.6.33+");
	triage_verdict(&t, &h);
	CHECK_STR(t.groups[0].verdict, "stable candidate: affects 2.6.33 (v2.6.33\u2013v2.6.33.2); "
		  "already in v2.6.33.3");
	CHECK_STR(t.cc_note, "Cc: stable is right (hint: 2.6.33+)");
	triage_free(&t);

	/* only looks like a fix: possible, and no tag said so */
	one_group(&t, FIXCLASS_POSSIBLE, CONF_LIKELY, 1, rel);
	add_series(&t, "2.6.33", "v2.6.33", "v2.6.33.1", NULL);
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_POSSIBLE);
	CHECK(!strncmp(t.groups[0].verdict, "possible stable candidate: affects 2.6.33 "
		       "(v2.6.33\u2013v2.6.33.1)", 60));
	CHECK_STR(t.cc_note, "no Cc: stable tag, yet released kernels have the bug");
	triage_free(&t);

	/* five series: the first and the last, and how many */
	one_group(&t, FIXCLASS_FIX, CONF_CERTAIN, 1, rel);
	for (int i = 0; i < 5; i++)
		add_series(&t, (const char *[]){ "2.6.30", "2.6.31", "2.6.32", "2.6.33", "2.6.34" }[i],
			   "v2.6.33", "v2.6.33", NULL)->maintained = false;
	triage_verdict(&t, &h);
	CHECK_STR(t.groups[0].verdict, "stable candidate: affects 2.6.30 (v2.6.33) \u2026 "
		  "2.6.34 (v2.6.33) (5 series)");
	triage_free(&t);
}

static void other_classes(void)
{
	struct triage t;

	/* not a fix wins over the releases, which are kept for the record */
	one_group(&t, FIXCLASS_NOT_FIX, CONF_LIKELY, 1, (const char *const[]){ "v2.6.33", NULL });
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_NOT_A_FIX);
	CHECK_STR(t.groups[0].verdict, "not a fix: changes only MAINTAINERS; the lines it "
		  "changes came in v2.6.33");
	triage_free(&t);

	/* no introducer: unknown, whatever the releases */
	one_group(&t, FIXCLASS_FIX, CONF_NONE, 0, NULL);
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_UNKNOWN);
	CHECK_STR(t.groups[0].verdict, "unknown: no introducing commit found");
	triage_free(&t);

	/* uncertain blame: the range first; with Cc: stable, too weak to overrule it */
	one_group(&t, FIXCLASS_FIX, CONF_UNCERTAIN, 1, (const char *const[]){ "v2.6.34-rc2", NULL });
	t.groups[0].oldest = tag("v2.6.32");
	t.groups[0].newest = tag("v2.6.34-rc2");
	t.ev.cc_stable = true;
	triage_verdict(&t, &h);
	CHECK(t.cls == TRIAGE_NOT_FOR_STABLE);
	CHECK(!strncmp(t.groups[0].verdict, "uncertain: the lines it changes were last changed "
		       "in commits from v2.6.32 to v2.6.34-rc2; on the likeliest introducers: "
		       "not for stable:", 120));
	CHECK_STR(t.cc_note, "Cc: stable may be right: blame is uncertain, older code (from "
		  "v2.6.32) is among what the fix changes");
	triage_free(&t);

	CHECK_STR(triage_class_key(TRIAGE_CANDIDATE), "stable-candidate");
	CHECK_STR(triage_class_key(TRIAGE_UNKNOWN), "unknown");
	CHECK_STR(confidence_name(CONF_UNCERTAIN), "uncertain");
}

static void run(void)
{
	unreleased_regression();
	released_bug();
	other_classes();
}

int main(int argc, char **argv)
{
	return fixture_main_whole(argc, argv, "test_verdict REPO", &h, run);
}
