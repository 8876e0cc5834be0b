/*
 * Unit tests: apply_to_tree (apply.c).  On a fixture history, every
 * non-merge commit's diff applied to its parent's tree must give exactly
 * the commit's tree; and a hunk that moved (lines added above it) must
 * still apply, as `git apply` applies it, where libgit2's own
 * git_apply_to_tree() gives up.
 */
#include <stdlib.h>
#include <git2.h>

#include "check.h"
#include "patchver/engine/history.h"
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

int main(int argc, char **argv)
{
	struct history h;
	struct history_opts o = { argc > 1 ? argv[1] : ".", "v[0-9]*", HISTORY_INDEX_OFF, false, false };

	git_libgit2_init();
	if (history_open(&h, &o) != 0)
		return 1;
	every_commit(&h);
	moved_hunk(h.repo);    /* the shielded repository: nothing is written */
	history_close(&h);
	git_libgit2_shutdown();
	return check_done();
}
