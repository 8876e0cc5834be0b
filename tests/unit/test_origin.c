/*
 * Unit tests: origin.c's grouping of a fix's hunks by the origin of the
 * code they change, on evidence and blame set by hand over the demo
 * history's commits: who decides (a culprit the message names, else
 * blame), which hunks go together, how sure each group is, and which
 * group heads the triage.
 *
 *   test_origin REPO   (tests/make-fixtures.sh's demo.git)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture.h"
#include "patchver/stable/origin.h"

static struct history h;
static uint32_t fix_tag, old_tag, new_tag;  /* v2.6.34-rc4, v2.6.33, v2.6.34-rc1 */

static uint32_t tag(const char *name)
{
	return fixture_tag(&h, name);
}

/* The inputs: evidence and the blame of the fix's lines, hunk by hunk. */
struct scene {
	struct evidence_list ev;
	struct fixblame blame;
};

/* Evidence of kind for the commit of release tag t (its first release). */
static size_t add_ev(struct scene *s, enum evidence_kind kind, uint32_t t, unsigned removed)
{
	struct evidence *e = evidence_add(&s->ev, kind);

	e->commit = h.tags.v[t].commit;
	e->first_release = t;
	e->lines.removed = removed;
	return (size_t)(e - s->ev.v);
}

/* n lines of hunk k, of kind, owned by the commit of tag t (PV_NONE: beyond the file). */
static void add_lines(struct scene *s, unsigned k, enum blame_kind kind, uint32_t t, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		struct blamed_line *l;
		s->blame.line = realloc(s->blame.line, (s->blame.nlines + 1) * sizeof(*l));
		l = &s->blame.line[s->blame.nlines++];
		memset(l, 0, sizeof(*l));
		l->hunk = k;
		l->kind = kind;
		l->commit = t == PV_NONE ? PV_NONE : h.tags.v[t].commit;
	}
	if (k + 1 > s->blame.nhunks)
		s->blame.nhunks = k + 1;
}

static size_t group(struct scene *s, enum evidence_mode mode, struct triage_group **g)
{
	struct origin_input in = { h.tags.v[fix_tag].commit, fix_tag, &s->ev, &s->blame };
	size_t n = 0;

	origin_group(&in, &h, mode, g, &n);
	return n;
}

static void scene_free(struct scene *s, struct triage_group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].hunks);
		free(g[i].intro);
	}
	free(g);
	evidence_list_free(&s->ev);
	free(s->blame.line);
	memset(s, 0, sizeof(*s));
}

static bool has_hunks(const struct triage_group *g, const unsigned *want, size_t n)
{
	if (g->nhunks != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (g->hunks[i] != want[i])
			return false;
	return true;
}

static void nothing_known(void)
{
	struct scene s = { 0 };
	struct triage_group *g;
	size_t n;

	/* lines beyond any file's history: one group, no introducer, all hunks */
	add_lines(&s, 0, LINE_REMOVED, PV_NONE, 2);
	add_lines(&s, 1, LINE_REMOVED, PV_NONE, 1);
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 1 && g[0].conf == CONF_NONE && g[0].nintro == 0);
	CHECK(n == 1 && has_hunks(&g[0], (unsigned[]){ 0, 1 }, 2));
	scene_free(&s, g, n);
}

static void blame_alone(void)
{
	struct scene s = { 0 };
	struct triage_group *g;
	size_t n, b_new, b_old;

	/* one owner of the removed lines: likely, it alone */
	b_new = add_ev(&s, EV_BLAME, new_tag, 3);
	add_lines(&s, 0, LINE_REMOVED, new_tag, 3);
	add_lines(&s, 0, LINE_CONTEXT, old_tag, 4);
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 1 && g[0].conf == CONF_LIKELY && g[0].used == EV_BLAME);
	CHECK(n == 1 && g[0].nintro == 1 && g[0].intro[0] == b_new);
	scene_free(&s, g, n);

	/* two hunks of two release cycles: two parts, the recent owner first */
	b_new = add_ev(&s, EV_BLAME, new_tag, 2);
	b_old = add_ev(&s, EV_BLAME, old_tag, 2);
	add_lines(&s, 0, LINE_REMOVED, old_tag, 2);
	add_lines(&s, 1, LINE_REMOVED, new_tag, 2);
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 2);
	CHECK(n == 2 && g[0].intro[0] == b_new && has_hunks(&g[0], (unsigned[]){ 1 }, 1));
	CHECK(n == 2 && g[1].intro[0] == b_old && has_hunks(&g[1], (unsigned[]){ 0 }, 1));
	CHECK(n == 2 && g[0].likelihood > g[1].likelihood);
	scene_free(&s, g, n);

	/* one hunk whose removed lines span two cycles: uncertain, the range kept */
	b_new = add_ev(&s, EV_BLAME, new_tag, 3);
	b_old = add_ev(&s, EV_BLAME, old_tag, 1);
	add_lines(&s, 0, LINE_REMOVED, new_tag, 3);
	add_lines(&s, 0, LINE_REMOVED, old_tag, 1);
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 1 && g[0].conf == CONF_UNCERTAIN);
	CHECK(n == 1 && g[0].oldest == old_tag && g[0].newest == new_tag);
	CHECK(n == 1 && g[0].nintro == 1 && g[0].intro[0] == b_new);
	scene_free(&s, g, n);
	(void)b_old;
}

static void message_decides(void)
{
	struct scene s = { 0 };
	struct triage_group *g;
	size_t n, fixes, b_old;

	/*
	 * Fixes: names the 2.6.34-rc1 commit, which owns hunk 0; hunk 1
	 * rewrites 2.6.33 code: a repair of something else, by blame
	 */
	fixes = add_ev(&s, EV_FIXES, new_tag, 0);
	add_ev(&s, EV_BLAME, new_tag, 2);
	b_old = add_ev(&s, EV_BLAME, old_tag, 2);
	add_lines(&s, 0, LINE_REMOVED, new_tag, 2);
	add_lines(&s, 1, LINE_REMOVED, old_tag, 2);
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 2);
	CHECK(n == 2 && g[0].used == EV_FIXES && g[0].conf == CONF_CERTAIN);
	CHECK(n == 2 && g[0].nintro == 1 && g[0].intro[0] == fixes);
	CHECK(n == 2 && has_hunks(&g[0], (unsigned[]){ 0 }, 1));
	CHECK(n == 2 && g[1].conf == CONF_LIKELY && g[1].intro[0] == b_old);
	CHECK(n == 2 && has_hunks(&g[1], (unsigned[]){ 1 }, 1));
	scene_free(&s, g, n);

	/* a culprit that owns no line names the bug, not the lines: every hunk is its */
	fixes = add_ev(&s, EV_FIXES, new_tag, 0);
	add_ev(&s, EV_BLAME, old_tag, 2);
	add_lines(&s, 0, LINE_REMOVED, old_tag, 2);
	add_lines(&s, 1, LINE_REMOVED, old_tag, 1);
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 1 && g[0].used == EV_FIXES && has_hunks(&g[0], (unsigned[]){ 0, 1 }, 2));
	scene_free(&s, g, n);

	/* --evidence message without a culprit in the message: nothing decides */
	add_ev(&s, EV_BLAME, old_tag, 2);
	add_lines(&s, 0, LINE_REMOVED, old_tag, 2);
	n = group(&s, EVIDENCE_MESSAGE, &g);
	CHECK(n == 1 && g[0].conf == CONF_NONE && g[0].nintro == 0);
	scene_free(&s, g, n);

	/* --evidence blame: the Fixes: tag is not read */
	add_ev(&s, EV_FIXES, new_tag, 0);
	b_old = add_ev(&s, EV_BLAME, old_tag, 2);
	add_lines(&s, 0, LINE_REMOVED, old_tag, 2);
	n = group(&s, EVIDENCE_BLAME, &g);
	CHECK(n == 1 && g[0].used == EV_BLAME && g[0].intro[0] == b_old);
	scene_free(&s, g, n);
}

static void cc_stable(void)
{
	struct scene s = { 0 };
	struct triage_group *g;
	size_t n, b_new, b_old;

	/*
	 * The recent owner (the fix's own cycle) is likelier; with Cc: stable
	 * the part whose code was released leads instead
	 */
	b_new = add_ev(&s, EV_BLAME, new_tag, 2);
	b_old = add_ev(&s, EV_BLAME, old_tag, 2);
	add_lines(&s, 0, LINE_REMOVED, new_tag, 2);
	add_lines(&s, 1, LINE_REMOVED, old_tag, 2);
	s.ev.cc_stable = true;
	n = group(&s, EVIDENCE_ALL, &g);
	CHECK(n == 2 && g[0].intro[0] == b_old && g[0].cc_led);
	CHECK(n == 2 && g[1].intro[0] == b_new);
	scene_free(&s, g, n);
}

static void run(void)
{
	fix_tag = tag("v2.6.34-rc4");
	old_tag = tag("v2.6.33");
	new_tag = tag("v2.6.34-rc1");
	nothing_known();
	blame_alone();
	message_decides();
	cc_stable();
}

int main(int argc, char **argv)
{
	return fixture_main_whole(argc, argv, "test_origin REPO", &h, run);
}
