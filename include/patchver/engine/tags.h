#ifndef PATCHVER_TAGS_H
#define PATCHVER_TAGS_H

#include <stdbool.h>
#include <stdint.h>
#include <git2.h>

#include "patchver/engine/dag.h"
#include "patchver/engine/kver.h"

/*
 * Every ref under refs/tags/, peeled the way git name-rev peels them, and
 * classified as release tags (kernel versions matching the release glob)
 * or not.  Non-release tags still name commits, exactly as in git.
 */
struct tag {
	char *refname;          /* "refs/tags/v2.6.34" */
	char *shortname;        /* as name-rev prints it: "v2.6.34" (or "tags/...") */
	git_oid target;         /* what the ref points at */
	uint32_t commit;        /* peeled commit, DAG_NONE for trees, blobs, broken */
	int64_t taggerdate;     /* innermost tag's date (0 if none); commit date if lightweight */
	bool deref;             /* went through at least one tag object */
	bool release;           /* a kernel version matching the release glob */
	struct kver ver;
};

struct tag_table {
	struct tag *v;          /* in refname order, as git iterates refs */
	size_t nr;
	uint32_t *releases;     /* indices of release tags, kernel version order */
	size_t nreleases;
	uint32_t *by_commit;    /* tag indices sorted by peeled commit */
	size_t nby_commit;
};

/*
 * The three steps of tags_load.  tags_read: every ref under refs/tags,
 * refname order, with its short name, not peeled.  tags_peel: each peeled
 * to its commit, and the history below it loaded into dag (a lazy DAG:
 * the commit alone).  tags_classify:
 * which are releases (release_glob), and the tables sorted from that.
 * Read and peel return 0 or an EXIT_* code (message printed).
 */
int tags_read(struct tag_table *t, git_repository *repo);
int tags_peel(struct tag_table *t, struct dag *dag);
void tags_classify(struct tag_table *t, const char *release_glob);

/*
 * Read all tags; load the history below each peeled commit into dag.
 * release_glob selects release tags by short name (fnmatch).
 * Returns 0 or an EXIT_* code (message printed).
 */
int tags_load(struct tag_table *t, git_repository *repo, struct dag *dag,
	      const char *release_glob);
void tags_free(struct tag_table *t);

/* Tags whose peeled commit is c: sets *n, returns pointer into by_commit. */
const uint32_t *tags_at_commit(const struct tag_table *t, uint32_t c, size_t *n);

/* Index of the tag whose ref target is oid (exact match), or -1. */
long tags_find_target(const struct tag_table *t, const git_oid *oid);

/* Compare two tags by kernel version (both must be releases). */
int tags_cmp_version(const struct tag_table *t, uint32_t a, uint32_t b);

#endif
