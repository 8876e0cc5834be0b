#ifndef PATCHVER_TAGREAD_H
#define PATCHVER_TAGREAD_H

#include <git2.h>

#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * Filling a tag table (tags.h) from a repository through libgit2, in the
 * steps of tags_load.  tags_read: every ref under refs/tags, refname
 * order, with its short name, not peeled.  tags_peel: each peeled to its
 * commit, and the history below it loaded into dag (a lazy DAG: the
 * commit alone).  Then tags_classify (tags.h).
 * Read and peel return 0 or an EXIT_* code (message printed).
 */
int tags_read(struct tag_table *t, git_repository *repo);
int tags_peel(struct tag_table *t, struct dag *dag);

/*
 * Read all tags; load the history below each peeled commit into dag.
 * release_glob selects release tags by short name (fnmatch).
 * Returns 0 or an EXIT_* code (message printed).
 */
int tags_load(struct tag_table *t, git_repository *repo, struct dag *dag,
	      const char *release_glob);

#endif
