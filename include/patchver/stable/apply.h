#ifndef PATCHVER_STABLE_APPLY_H
#define PATCHVER_STABLE_APPLY_H

#include <stddef.h>
#include <git2.h>

/*
 * Applying a git-format diff to a tree, in memory, as `git apply` does:
 * every context line must match, but a hunk may have moved (it is looked
 * for nearest its line number first, up and down).  libgit2 1.5.1's
 * git_apply_to_tree() only looks forward from the hunk's line, so a
 * backport whose file gained or lost lines above the hunk "does not
 * apply" there although git applies it.  New blobs and trees are written
 * through repo's object database: open it shielded (history_open_repo).
 * Modifications, new and deleted files; no renames, no binary patches.
 */

/*
 * *out: tree with the diff applied (out NULL: only check that it
 * applies, without writing anything).  0, or -1 with *why (caller frees)
 * saying which file and hunk did not apply.
 */
int apply_to_tree(git_repository *repo, const git_oid *tree, const char *diff,
		  git_oid *out, char **why);

/* The text of a git_diff, as apply_to_tree() takes it (caller frees). */
char *apply_diff_text(git_diff *diff);

#endif
