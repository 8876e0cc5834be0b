#ifndef PATCHVER_ENGINE_TAGS_H
#define PATCHVER_ENGINE_TAGS_H

#include <stdbool.h>
#include <stdint.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front never calls libgit2 */

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
	uint32_t commit;        /* peeled commit, PV_NONE for trees, blobs, broken */
	int64_t taggerdate;     /* innermost tag's date (0 if none); commit date if lightweight */
	bool deref;             /* went through at least one tag object */
	bool loose;             /* a file under refs/tags, not in packed-refs */
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
	uint64_t tag_digest;    /* of packed-refs' tag lines as read (reffiles.h); 0: unknown */
	bool borrowed;          /* refname and shortname live elsewhere: not freed */
};

/*
 * Which tags are releases (release_glob, fnmatch on the short name, and a
 * kernel version), and the tables sorted from that.  tagload.h fills the
 * table from a repository.
 */
void tags_classify(struct tag_table *t, const char *release_glob);
void tags_free(struct tag_table *t);

/* Tags whose peeled commit is c: sets *n, returns pointer into by_commit. */
const uint32_t *tags_at_commit(const struct tag_table *t, uint32_t c, size_t *n);

/* Index of the tag whose ref target is oid (exact match), or -1. */
long tags_find_target(const struct tag_table *t, const git_oid *oid);

/*
 * The release tags among tags (sorted tag indices, as contain_tags returns
 * them) into out, in version order; returns how many.
 */
size_t tags_releases_among(const struct tag_table *t, const uint32_t *tags, size_t n,
			   uint32_t *out);

/* Compare two tags by kernel version (both must be releases). */
int tags_cmp_version(const struct tag_table *t, uint32_t a, uint32_t b);

#endif
