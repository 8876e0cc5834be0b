#ifndef PATCHVER_LAB_WORKTREE_H
#define PATCHVER_LAB_WORKTREE_H

#include <stddef.h>
#include <git2.h>

/*
 * A directory in patchver's cache that holds one tree of a repository at
 * a time.  A manifest beside it (DIR.manifest: mode, blob and path of
 * every file) says what it holds, so that moving to another tree rewrites
 * only the files that differ: make then rebuilds only what depends on
 * them.  Nothing is written through libgit2's checkout, which would touch
 * the repository's index.
 */

/*
 * Make dir hold tree (of repo).  Files that differ are unlinked first and
 * written anew, so a hard-linked copy never changes its source.  An
 * interrupted sync leaves a journal, and the next one rewrites what it
 * had started.  *written (may be NULL): files written.  0 or a PV_E* code
 * (PV_EBUILD, PV_EINTERRUPTED; message recorded).
 */
int worktree_sync(const char *dir, git_repository *repo, const git_oid *tree,
		  size_t *written);

/* dir already holds tree (a hard-linked copy of it): record that. */
int worktree_adopt(const char *dir, git_repository *repo, const git_oid *tree);

#endif
