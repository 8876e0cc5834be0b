#ifndef PATCHVER_TAGREAD_H
#define PATCHVER_TAGREAD_H

#include <git2.h>

#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * Filling a tag table (tags.h) from a repository, in two steps, then
 * tags_classify (tags.h).  tags_read: every ref under refs/tags, refname
 * order, with its short name, not peeled.  tags_peel: each peeled to its
 * commit, and the history below it loaded into dag (a lazy DAG: the
 * commit alone).
 * Read and peel return 0, or PV_ENOREPO / PV_ECORRUPT (message recorded).
 */
int tags_read(struct tag_table *t, git_repository *repo);
int tags_peel(struct tag_table *t, struct dag *dag);

#endif
