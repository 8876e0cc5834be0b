/*
 * Unit tests: cache work trees (worktree.c) and expectations (lab.c).
 * A scratch repository with three trees; the work tree moves between
 * them rewriting only what differs, and recovers from a sync cut short.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <git2.h>

#include "check.h"
#include "patchver/base/error.h"
#include "patchver/lab/lab.h"
#include "patchver/lab/worktree.h"

static git_repository *repo;

/* A tree of (path, content) pairs; content NULL ends the list. */
static git_oid make_tree(const char *const *files)
{
	git_index *idx = NULL;
	git_oid tree;

	git_index_new(&idx);
	for (size_t i = 0; files[i]; i += 2) {
		git_index_entry e = { 0 };
		e.path = files[i];
		e.mode = !strcmp(files[i], "link") ? GIT_FILEMODE_LINK :
			 !strcmp(files[i], "run.sh") ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB;
		git_blob_create_from_buffer(&e.id, repo, files[i + 1], strlen(files[i + 1]));
		git_index_add(idx, &e);
	}
	git_index_write_tree_to(&tree, idx, repo);
	git_index_free(idx);
	return tree;
}

static char *slurp(const char *dir, const char *path)
{
	static char buf[256];
	char full[512];
	FILE *f;
	size_t n;

	snprintf(full, sizeof(full), "%s/%s", dir, path);
	if (!(f = fopen(full, "r")))
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static ino_t inode(const char *dir, const char *path)
{
	char full[512];
	struct stat st;

	snprintf(full, sizeof(full), "%s/%s", dir, path);
	return lstat(full, &st) == 0 ? st.st_ino : 0;
}

static void expectations(void)
{
	struct expectation e;
	struct bug_spec dflt, *own = NULL;

	CHECK(oracle_parse(&dflt, "exit") == 0);
	CHECK(expectation_parse(&e, "pass", &dflt, &own) == 0 && !e.bug && e.how == &dflt && !own);
	CHECK(expectation_parse(&e, "bug", &dflt, &own) == 0 && e.bug && e.how == &dflt && !own);
	CHECK(expectation_parse(&e, "nofollow_slash_symlink_dir:ELOOP", &dflt, &own) == 0 &&
	      e.bug && own && e.how == own);
	CHECK_STR(own ? own->check : NULL, "nofollow_slash_symlink_dir");
	CHECK_STR(own ? own->err : NULL, "ELOOP");
	CHECK(own && own->kind == BUG_CHECK);
	if (own)
		oracle_free(own);
	free(own);
	CHECK(expectation_parse(&e, "oops", &dflt, &own) == 0 && own && own->kind == BUG_OOPS);
	if (own)
		oracle_free(own);
	free(own);
	CHECK(expectation_parse(&e, "ELOOP", &dflt, &own) == PV_EINVALID && !own);
	CHECK(expectation_parse(&e, ":ELOOP", &dflt, &own) == PV_EINVALID);
	CHECK(expectation_parse(&e, "check:", &dflt, &own) == PV_EINVALID);
	oracle_free(&dflt);
}

int main(void)
{
	char root[] = "/tmp/patchver-wt.XXXXXX", gitdir[600], dir[600], path[700];
	const char *a[] = { "Makefile", "v1\n", "fs/namei.c", "bug\n", "fs/keep.c", "same\n",
			    "run.sh", "#!/bin/sh\n", "link", "fs/keep.c", "old/gone.c", "x\n", NULL };
	const char *b[] = { "Makefile", "v1\n", "fs/namei.c", "fixed\n", "fs/keep.c", "same\n",
			    "run.sh", "#!/bin/sh\n", "link", "fs/keep.c", "new/dir/added.c", "y\n",
			    "old", "now a file\n", NULL };
	git_oid ta, tb;
	size_t written;
	struct stat st;
	ino_t keep;
	char cmd[700];

	expectations();
	git_libgit2_init();
	if (!mkdtemp(root))
		return 1;
	snprintf(gitdir, sizeof(gitdir), "%s/repo.git", root);
	snprintf(dir, sizeof(dir), "%s/work", root);
	git_repository_init(&repo, gitdir, 1);
	ta = make_tree(a);
	tb = make_tree(b);

	/* first sync writes everything */
	CHECK(worktree_sync(dir, repo, &ta, &written) == 0 && written == 6);
	CHECK_STR(slurp(dir, "fs/namei.c"), "bug\n");
	snprintf(path, sizeof(path), "%s/run.sh", dir);
	CHECK(stat(path, &st) == 0 && (st.st_mode & 0100));
	snprintf(path, sizeof(path), "%s/link", dir);
	CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
	keep = inode(dir, "fs/keep.c");

	/* to b: only the differences; a directory becomes a file, a file goes */
	CHECK(worktree_sync(dir, repo, &tb, &written) == 0 && written == 3);
	CHECK_STR(slurp(dir, "fs/namei.c"), "fixed\n");
	CHECK_STR(slurp(dir, "new/dir/added.c"), "y\n");
	CHECK_STR(slurp(dir, "old"), "now a file\n");
	CHECK(inode(dir, "fs/keep.c") == keep);
	CHECK(worktree_sync(dir, repo, &tb, &written) == 0 && written == 0);

	/* a sync cut short: the journal makes the next one redo its files */
	snprintf(path, sizeof(path), "%s.pending", dir);
	{
		FILE *f = fopen(path, "w");
		fputs("fs/namei.c\nstray.o\n", f);
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/fs/namei.c", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/stray.o", dir);
	fclose(fopen(path, "w"));
	CHECK(worktree_sync(dir, repo, &tb, &written) == 0 && written == 1);
	CHECK_STR(slurp(dir, "fs/namei.c"), "fixed\n");
	CHECK(access(path, F_OK) != 0);
	snprintf(path, sizeof(path), "%s.pending", dir);
	CHECK(access(path, F_OK) != 0);

	/* adopt: a copy made by other means is recorded as holding a tree */
	CHECK(worktree_adopt(dir, repo, &tb) == 0);
	CHECK(worktree_sync(dir, repo, &ta, &written) == 0 && written == 2);
	CHECK_STR(slurp(dir, "old/gone.c"), "x\n");

	git_repository_free(repo);
	git_libgit2_shutdown();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return 1;
	return check_done();
}
