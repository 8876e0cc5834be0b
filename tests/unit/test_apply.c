/*
 * Unit tests: apply_to_tree and apply_tree_diff (apply.c, hunks.c).  On a fixture history, every
 * non-merge commit's diff applied to its parent's tree must give exactly
 * the commit's tree; and a hunk that moved (lines added above it) must
 * still apply, as `git apply` applies it, where libgit2's own
 * git_apply_to_tree() gives up; with fuzz as GNU patch takes it, three-way
 * from the diff's preimage, and adapted (the diff's side of a conflict only
 * where the target's own changes survive).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "check.h"
#include "patchver/engine/history.h"
#include "patchver/base/util.h"
#include "patchver/stable/apply.h"
#include "patchver/stable/patch.h"

static void every_commit(struct history *h)
{
	size_t tried = 0;

	for (uint32_t c = 0; c < h->dag.nr; c++) {
		uint32_t np;
		const uint32_t *p = dag_parents(&h->dag, c, &np);
		struct patch pt;
		git_oid out;
		char *why = NULL;

		if (np != 1 || patch_from_commit(&pt, h->repo, &h->dag.oids[c]) < 0)
			continue;
		if (*pt.diff) {
			int ret = apply_to_tree(h->repo, &h->dag.trees[p[0]], pt.diff, &out, &why);
			CHECK(ret == 0);
			CHECK(ret != 0 || git_oid_equal(&out, &h->dag.trees[c]));
			if (ret)
				fprintf(stderr, "%s: %s\n", git_oid_tostr_s(&h->dag.oids[c]), why);
			CHECK(apply_to_tree(h->repo, &h->dag.trees[p[0]], pt.diff, NULL, &why) == 0);
			tried++;
		}
		free(why);
		patch_free(&pt);
	}
	CHECK(tried > 50);
	printf("%zu commits re-applied\n", tried);
}

/* A tree of one file. */
static git_oid one_file(git_repository *repo, const char *path, const char *text)
{
	git_index *idx = NULL;
	git_index_entry e = { 0 };
	git_oid tree;

	git_index_new(&idx);
	e.path = path;
	e.mode = GIT_FILEMODE_BLOB;
	git_blob_create_from_buffer(&e.id, repo, text, strlen(text));
	git_index_add(idx, &e);
	git_index_write_tree_to(&tree, idx, repo);
	git_index_free(idx);
	return tree;
}

static void moved_hunk(git_repository *repo)
{
	const char *diff =
		"diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
		"@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n";
	git_oid base = one_file(repo, "f.c", "new1\nnew2\na\nb\nc\nd\ne\nf\n"), out, want;
	git_tree *tree = NULL;
	git_index *idx = NULL;
	git_diff *d = NULL;
	char *why = NULL;

	want = one_file(repo, "f.c", "new1\nnew2\na\nb\nc\nD\ne\nf\n");
	CHECK(apply_to_tree(repo, &base, diff, &out, &why) == 0 && git_oid_equal(&out, &want));
	/* lines removed above it: the hunk moved up */
	base = one_file(repo, "f.c", "c\nd\ne\nf\n");
	want = one_file(repo, "f.c", "c\nD\ne\nf\n");
	CHECK(apply_to_tree(repo, &base, diff, &out, &why) == 0 && git_oid_equal(&out, &want));
	/* what libgit2 does with the moved-up hunk */
	git_tree_lookup(&tree, repo, &base);
	git_diff_from_buffer(&d, diff, strlen(diff));
	CHECK(git_apply_to_tree(&idx, repo, tree, d, NULL) < 0);
	git_error_clear();
	/* libgit2 prints parsed diffs without ---/+++: the paths of the diff line do */
	CHECK(apply_to_tree(repo, &base, "diff --git a/f.c b/f.c\n@@ -3,3 +3,3 @@\n c\n-d\n+D\n e\n",
			    &out, &why) == 0 && git_oid_equal(&out, &want));
	/* a context line that differs: no fuzz, as git */
	base = one_file(repo, "f.c", "a\nb\nc\nd\nX\nf\n");
	CHECK(apply_to_tree(repo, &base, diff, &out, &why) == -1);
	CHECK_STR(why, "f.c: hunk 1 does not apply");
	free(why);
	git_index_free(idx);
	git_diff_free(d);
	git_tree_free(tree);
}

/* The text a tree's f.c holds after t's changes. */
static bool text_is(struct apply_tree *t, const char *want)
{
	const struct text_lines *l = apply_tree_file(t, "f.c");
	size_t size;
	char *got = l ? text_lines_join(l, &size) : NULL;
	bool same = got && !strcmp(got, want);

	if (!same)
		fprintf(stderr, "got:\n%s\nwant:\n%s\n", got ? got : "(none)", want);
	free(got);
	return same;
}

static char *numbered(const char *fmt, int k1, const char *v1, int k2, const char *v2)
{
	static char buf[4096];
	size_t n = 0;

	for (int i = 1; i <= 30; i++) {
		if (i == k1)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s\n", v1);
		else if (i == k2)
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s\n", v2);
		else
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, fmt, i);
	}
	return xstrdup(buf);
}

static enum apply_how apply_one_diff(git_repository *repo, const git_oid *tree, const char *diff,
				     const struct apply_opts *o, struct apply_tree *t,
				     struct apply_report *rep)
{
	struct diff_files d;
	int how;

	apply_tree_init(t, repo, tree);
	diff_files_parse(&d, diff);
	how = apply_tree_diff(t, &d, o, rep);
	diff_files_free(&d);
	return (enum apply_how)how;
}

static void fuzz_merge_adapt(git_repository *repo)
{
	/* the diff: line 12 of "line N" changed, three lines of context */
	const char *diff = "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
			   "@@ -9,7 +9,7 @@\n line 9\n line 10\n line 11\n-line 12\n+line 12 fixed\n"
			   " line 13\n line 14\n line 15\n";
	struct apply_opts exact = { 0 }, fuzz = { .max_fuzz = 2 };
	struct apply_report rep;
	struct apply_tree t;
	char *text, *want;
	git_oid tree, base;

	/* the outermost context line differs, and lines moved: fuzz 1, offset 2 */
	text = numbered("line %d\n", 9, "line 9 changed", 0, NULL);
	want = numbered("line %d\n", 9, "line 9 changed", 12, "line 12 fixed");
	{
		char *moved = xstrfmt("new 1\nnew 2\n%s", text), *moved_want = xstrfmt("new 1\nnew 2\n%s", want);
		tree = one_file(repo, "f.c", moved);
		CHECK(apply_one_diff(repo, &tree, diff, &exact, &t, &rep) == APPLY_CONFLICT);
		CHECK_STR(apply_report_why(&rep), "f.c: hunk 1 does not apply");
		apply_report_free(&rep);
		apply_tree_free(&t);
		CHECK(apply_one_diff(repo, &tree, diff, &fuzz, &t, &rep) == APPLY_FUZZ);
		CHECK(rep.files[0].places[0].fuzz == 1 && rep.files[0].places[0].offset == 2);
		CHECK(text_is(&t, moved_want));
		apply_report_free(&rep);
		apply_tree_free(&t);
		free(moved);
		free(moved_want);
	}
	free(text);
	free(want);

	/* a line between two changes differs: no fuzz takes it, a three-way merge does */
	diff = "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
	       "@@ -9,11 +9,11 @@\n line 9\n line 10\n line 11\n-line 12\n+line 12 fixed\n"
	       " line 13\n line 14\n line 15\n-line 16\n+line 16 fixed\n line 17\n line 18\n line 19\n";
	base = one_file(repo, "f.c", (text = numbered("line %d\n", 0, NULL, 0, NULL)));
	free(text);
	tree = one_file(repo, "f.c", (text = numbered("line %d\n", 14, "line 14 stable", 0, NULL)));
	free(text);
	CHECK(apply_one_diff(repo, &tree, diff, &fuzz, &t, &rep) == APPLY_CONFLICT);
	apply_report_free(&rep);
	apply_tree_free(&t);
	{
		struct apply_opts merge = { .max_fuzz = 2, .three_way = true, .preimage = &base };
		CHECK(apply_one_diff(repo, &tree, diff, &merge, &t, &rep) == APPLY_3WAY);
		char *two = numbered("line %d\n", 12, "line 12 fixed", 14, "line 14 stable");
		want = xstrfmt("%.*sline 16 fixed\n%s", (int)(strstr(two, "line 16\n") - two), two,
			       strstr(two, "line 16\n") + 8);
		free(two);
		CHECK(text_is(&t, want));
		free(want);
		apply_report_free(&rep);
		apply_tree_free(&t);
	}

	/*
	 * Adapted.  The diff's preimage has line 11 as a commit the target
	 * lacks left it: next to line 12, a conflict.  Taken to the diff's side
	 * when the target never changed line 11 itself; when it did (its own
	 * fix, since own_since), only the hunks that go in, here none.
	 */
	{
		const char *d2 = "diff --git a/f.c b/f.c\n--- a/f.c\n+++ b/f.c\n"
				 "@@ -9,7 +9,7 @@\n line 9\n line 10\n line 11 mainline\n-line 12\n"
				 "+line 12 fixed\n line 13\n line 14\n line 15\n";
		git_oid pre, own = base;
		struct apply_opts adapt = { .max_fuzz = 2, .three_way = true, .adapt = true,
					    .preimage = &pre, .own_since = &own };
		pre = one_file(repo, "f.c", (text = numbered("line %d\n", 11, "line 11 mainline", 0, NULL)));
		free(text);
		/* the target is the merge base itself: nothing of its own to lose */
		CHECK(apply_one_diff(repo, &base, d2, &adapt, &t, &rep) == APPLY_ADAPTED);
		want = numbered("line %d\n", 11, "line 11 mainline", 12, "line 12 fixed");
		CHECK(text_is(&t, want));
		free(want);
		apply_report_free(&rep);
		apply_tree_free(&t);
		/* the target fixed line 11 its own way: that stays, the hunk is left out */
		text = numbered("line %d\n", 11, "line 11 stable", 0, NULL);
		tree = one_file(repo, "f.c", text);
		CHECK(apply_one_diff(repo, &tree, d2, &adapt, &t, &rep) == APPLY_ADAPTED);
		CHECK(text_is(&t, text));
		free(text);
		apply_report_free(&rep);
		apply_tree_free(&t);
		/* not asked to adapt: a conflict */
		adapt.adapt = false;
		CHECK(apply_one_diff(repo, &base, d2, &adapt, &t, &rep) == APPLY_CONFLICT);
		apply_report_free(&rep);
		apply_tree_free(&t);
	}
}

int main(int argc, char **argv)
{
	struct history h;
	struct history_opts o = { argc > 1 ? argv[1] : ".", "v[0-9]*", HISTORY_INDEX_OFF, false, false, NULL };

	git_libgit2_init();
	if (history_open(&h, &o) != 0)
		return 1;
	every_commit(&h);
	moved_hunk(h.repo);    /* the shielded repository: nothing is written */
	fuzz_merge_adapt(h.repo);
	history_close(&h);
	git_libgit2_shutdown();
	return check_done();
}
