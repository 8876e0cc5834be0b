/*
 * Unit tests: a patch found in history (match.h) on the demo history --
 * the seed's mail by patch-id, the same subject with another change by
 * subject only, a stranger not at all -- and A..B as a commit mask,
 * against libgit2's revwalk; bad ranges as PV_E* codes.
 *
 *   test_match DEMO_REPO SEED_PATCH
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "check.h"
#include "fixture.h"
#include "patchver/base/error.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/stable/match.h"
#include "patchver/stable/patch.h"

static const char other_change[] =
	"From: A <a@example.org>\n"
	"Subject: [PATCH] vfs: Fix O_NOFOLLOW behavior for paths with trailing slashes\n"
	"\n"
	"Another take.\n"
	"---\n"
	"diff --git a/fs/namei.c b/fs/namei.c\n"
	"--- a/fs/namei.c\n"
	"+++ b/fs/namei.c\n"
	"@@ -1,1 +1,1 @@\n"
	"-a line no commit has\n"
	"+another line no commit has\n";

static const char stranger[] =
	"From: A <a@example.org>\n"
	"Subject: [PATCH] nothing: a change no history holds\n"
	"\n"
	"---\n"
	"diff --git a/nowhere.c b/nowhere.c\n"
	"--- a/nowhere.c\n"
	"+++ b/nowhere.c\n"
	"@@ -1,1 +1,1 @@\n"
	"-x\n"
	"+y\n";

static void match_text(struct history *h, struct contain *c, const char *text,
		       struct match *m)
{
	struct patch_set set = { 0 };

	memset(m, 0, sizeof(*m));
	if (patch_parse(&set, text, strlen(text)) != 0 || set.nr != 1) {
		CHECK(!"the test's patch parses");
		return;
	}
	match_patch(h, c, &set.v[0], NULL, m);
	patch_set_free(&set);
}

/* A..B's mask against libgit2: B's ancestors that are not A's. */
static void check_range(struct history *h, const char *a, const char *b)
{
	char range[128];
	git_revwalk *w = NULL;
	git_oid oid;
	bool *mask = NULL;
	size_t want = 0, got = 0;

	snprintf(range, sizeof(range), "%s..%s", a, b);
	CHECK(match_range(h, range, &mask) == 0);
	if (!mask || git_revwalk_new(&w, h->repo) < 0 || git_revwalk_push_ref(w, b) < 0 ||
	    git_revwalk_hide_ref(w, a) < 0) {
		CHECK(!"the range and its walk");
		goto out;
	}
	while (git_revwalk_next(&oid, w) == 0) {
		uint32_t c = dag_find(&h->dag, &oid);
		want++;
		CHECK(c != PV_NONE && mask[c]);
	}
	for (uint32_t c = 0; c < h->dag.nr; c++)
		got += mask[c];
	CHECK(got == want && want > 0);
out:
	git_revwalk_free(w);
	free(mask);
}

int main(int argc, char **argv)
{
	struct patch_set seed = { 0 };
	struct history h;
	struct contain c;
	struct match m;
	bool *mask = NULL;

	if (argc != 3) {
		fprintf(stderr, "usage: test_match DEMO_REPO SEED_PATCH\n");
		return 2;
	}
	gitstart_init();
	if (fixture_open(&h, argv[1], false) < 0)
		return 2;
	if (patch_read_file(&seed, argv[2]) != 0 || seed.nr != 1) {
		fprintf(stderr, "cannot read %s: %s\n", argv[2], pv_error_last()->message);
		return 2;
	}
	history_load_branches(&h);
	contain_init(&c, &h);

	/* the seed's mail: its commit by patch-id, released first in v2.6.34 */
	match_patch(&h, &c, &seed.v[0], NULL, &m);
	CHECK(m.kind == MATCH_PATCHID && m.nr >= 1 && m.upstream != PV_NONE);
	if (m.upstream != PV_NONE) {
		char *subject = history_subject(&h, m.upstream);
		uint32_t first = contain_first_release(&c, m.upstream);
		CHECK_STR(subject, "vfs: Fix O_NOFOLLOW behavior for paths with trailing slashes");
		CHECK_STR(first == PV_NONE ? NULL : h.tags.v[first].shortname, "v2.6.34");
		free(subject);
	}
	match_free(&m);
	/* the same subject, another change: a subject match only */
	match_text(&h, &c, other_change, &m);
	CHECK(m.kind == MATCH_SUBJECT && m.nr >= 1);
	match_free(&m);
	/* a stranger: nothing */
	match_text(&h, &c, stranger, &m);
	CHECK(m.kind == MATCH_NONE && m.nr == 0 && m.upstream == PV_NONE);
	match_free(&m);
	/* limited to a range without the fix: no patch-id match there */
	CHECK(match_range(&h, "v2.6.32..v2.6.33", &mask) == 0);
	if (mask) {
		match_patch(&h, &c, &seed.v[0], mask, &m);
		CHECK(m.kind != MATCH_PATCHID);
		match_free(&m);
		free(mask);
		mask = NULL;
	}

	check_range(&h, "refs/tags/v2.6.33", "refs/tags/v2.6.34");
	check_range(&h, "refs/tags/v2.6.34-rc1", "refs/tags/v2.6.34-rc3");
	/* bad ranges: a code and a message, nothing printed */
	CHECK(match_range(&h, "v2.6.34", &mask) == PV_EINVALID && !mask);
	CHECK(strstr(pv_error_last()->message, "'v2.6.34' is not a range A..B") != NULL);
	CHECK(match_range(&h, "nope..v2.6.34", &mask) == PV_ENOTFOUND && !mask);
	CHECK(strstr(pv_error_last()->message, "unknown revision 'nope'") != NULL);

	contain_free(&c);
	patch_set_free(&seed);
	history_close(&h);
	gitstart_shutdown();
	return check_done();
}
