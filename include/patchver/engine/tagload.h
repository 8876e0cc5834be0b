#ifndef PATCHVER_ENGINE_TAGLOAD_H
#define PATCHVER_ENGINE_TAGLOAD_H

#include <git2.h>

#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * Filling a tag table (tags.h) from a repository, in two steps, then
 * tags_classify (tags.h).  tagload_refs: every ref under refs/tags, refname
 * order, with its short name, not peeled.  tagload_peel: each peeled to its
 * commit, and the history below it loaded into dag (a lazy DAG: the
 * commit alone).
 * Read and peel return 0, or PV_ENOREPO / PV_ECORRUPT (message recorded).
 */
int tagload_refs(struct tag_table *t, git_repository *repo);
int tagload_peel(struct tag_table *t, struct dag *dag);

#endif
