/*
 * Unit tests: what a fix's message says about its culprit (evidence.h),
 * on the demo history's seed story: the fix is "vfs: Fix O_NOFOLLOW
 * behavior ...", and the messages are written here, one form each --
 * Fixes:, "introduced by", a plain mention, a quoted subject, an id no
 * object has, Cc: stable with its hint.
 *
 *   test_evidence DEMO_REPO
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "check.h"
#include "fixture.h"
#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/stable/evidence.h"
#include "patchver/stable/patch.h"

static struct history h;
static struct patch fixp;
static uint32_t fix;

/* The demo commit whose subject starts with subject (first parents of master). */
static uint32_t by_subject(const char *subject, char hex[GIT_OID_HEXSZ + 1])
{
	git_revwalk *w = NULL;
	git_oid oid;
	uint32_t found = PV_NONE;

	if (git_revwalk_new(&w, h.repo) < 0 || git_revwalk_push_ref(w, "refs/heads/master") < 0)
		return PV_NONE;
	while (found == PV_NONE && git_revwalk_next(&oid, w) == 0) {
		git_commit *c = NULL;
		if (git_commit_lookup(&c, h.repo, &oid) == 0 &&
		    !strncmp(git_commit_summary(c), subject, strlen(subject))) {
			found = dag_intern(&h.dag, &oid);
			git_oid_tostr(hex, GIT_OID_HEXSZ + 1, &oid);
		}
		git_commit_free(c);
	}
	git_revwalk_free(w);
	return found;
}

/* Read msg as the fix's message: the list (caller frees). */
static struct evidence_list read_msg(const char *msg)
{
	struct evidence_list list = { 0 };

	evidence_read(&list, &h, fix, msg, &fixp);
	return list;
}

static const struct evidence *only(const struct evidence_list *l, enum evidence_kind kind)
{
	CHECK(l->nr == 1);
	CHECK(l->nr >= 1 && l->v[0].kind == kind);
	return l->nr ? &l->v[0] : NULL;
}

int main(int argc, char **argv)
{
	char fix_hex[GIT_OID_HEXSZ + 1], sw_hex[GIT_OID_HEXSZ + 1], re_hex[GIT_OID_HEXSZ + 1];
	char msg[1024];
	struct evidence_list l;
	const struct evidence *e;
	uint32_t sw, re;

	if (argc != 2) {
		fprintf(stderr, "usage: test_evidence DEMO_REPO\n");
		return 2;
	}
	gitstart_init();
	if (fixture_open(&h, argv[1], false) < 0)
		return 2;
	fix = by_subject("vfs: Fix O_NOFOLLOW behavior", fix_hex);
	sw = by_subject("Switch !O_CREAT case to use of do_last()", sw_hex);
	re = by_subject("Restore LOOKUP_DIRECTORY hint handling", re_hex);
	if (fix == PV_NONE || sw == PV_NONE || re == PV_NONE || dag_parse(&h.dag, fix) < 0 ||
	    patch_from_commit(&fixp, h.repo, &h.dag.oids[fix]) != 0) {
		fprintf(stderr, "the demo's seed commits are missing\n");
		return 2;
	}

	/* Fixes: with the culprit's own subject */
	snprintf(msg, sizeof(msg), "vfs: x\n\nFixes: %.12s (\"Switch !O_CREAT case to use of "
		 "do_last()\")\n", sw_hex);
	l = read_msg(msg);
	e = only(&l, EV_FIXES);
	CHECK(e && e->commit == sw && !e->subject_mismatch && !e->not_ancestor);
	CHECK(e && !strncmp(e->ref, sw_hex, 12) && strlen(e->ref) == 12);
	evidence_list_free(&l);

	/* Fixes: with another subject: the id wins, the mismatch is said */
	snprintf(msg, sizeof(msg), "vfs: x\n\nFixes: %.12s (\"something else\")\n", sw_hex);
	l = read_msg(msg);
	e = only(&l, EV_FIXES);
	CHECK(e && e->commit == sw && e->subject_mismatch);
	evidence_list_free(&l);

	/* a culprit named in prose */
	snprintf(msg, sizeof(msg), "vfs: x\n\nThis regression was introduced by commit %.12s.\n",
		 re_hex);
	l = read_msg(msg);
	e = only(&l, EV_NAMED);
	CHECK(e && e->commit == re);
	evidence_list_free(&l);

	/* a commit mentioned with no such phrase */
	snprintf(msg, sizeof(msg), "vfs: x\n\nSee commit %.12s for the background.\n", re_hex);
	l = read_msg(msg);
	e = only(&l, EV_MENTION);
	CHECK(e && e->commit == re);
	evidence_list_free(&l);

	/* a culprit named by its quoted subject, no id */
	l = read_msg("vfs: x\n\nThe regression was created by \"Switch !O_CREAT case to use "
		     "of do_last()\" commit.\n");
	e = only(&l, EV_NAMED);
	CHECK(e && e->commit == sw);
	evidence_list_free(&l);

	/* an id no object has: kept, with the reason */
	l = read_msg("vfs: x\n\nFixes: 0123456789ab (\"gone\")\n");
	e = only(&l, EV_FIXES);
	CHECK(e && e->commit == PV_NONE);
	CHECK_STR(e ? e->unresolved : NULL, "unknown");
	evidence_list_free(&l);

	/* the fix itself is no culprit; a descendant is not below it */
	snprintf(msg, sizeof(msg), "vfs: x\n\nFixes: %.12s (\"vfs: Fix O_NOFOLLOW\")\n", fix_hex);
	l = read_msg(msg);
	CHECK(l.nr == 0 || l.v[0].commit != fix || l.v[0].not_ancestor);
	evidence_list_free(&l);

	/* Cc: stable and its hint */
	l = read_msg("vfs: x\n\nCc: stable@vger.kernel.org # 2.6.32+\nSigned-off-by: A <a@b>\n");
	CHECK(l.cc_stable && l.nr == 0);
	CHECK_STR(l.cc_hint, "2.6.32+");
	evidence_list_free(&l);
	l = read_msg("vfs: x\n\nNo stable here.\n");
	CHECK(!l.cc_stable && l.nr == 0);
	evidence_list_free(&l);

	patch_free(&fixp);
	history_close(&h);
	gitstart_shutdown();
	return check_done();
}
