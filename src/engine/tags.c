/*
 * The tag table: which tags are releases, in kernel version order, and
 * which tags sit on a commit.  No libgit2 here: the quick path builds its
 * table from the ref files (tagload.c reads one through libgit2).
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/tags.h"

static int cmp_release(const void *a, const void *b, void *table)
{
	return tags_cmp_version(table, *(const uint32_t *)a, *(const uint32_t *)b);
}

static int cmp_by_commit(const void *a, const void *b, void *table)
{
	const struct tag_table *t = table;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint32_t cx = t->v[x].commit, cy = t->v[y].commit;

	if (cx != cy)
		return cx < cy ? -1 : 1;
	return x < y ? -1 : x > y;
}

void tags_classify(struct tag_table *t, const char *release_glob)
{
	free(t->releases);
	free(t->by_commit);
	t->nreleases = t->nby_commit = 0;
	t->releases = xmalloc(t->nr * sizeof(uint32_t) + 1);
	t->by_commit = xmalloc(t->nr * sizeof(uint32_t) + 1);
	for (size_t i = 0; i < t->nr; i++) {
		struct tag *tag = &t->v[i];

		tag->release = tag->commit != PV_NONE &&
			       fnmatch(release_glob, tag->shortname, 0) == 0 &&
			       kver_parse(tag->shortname, &tag->ver);
		if (tag->release)
			t->releases[t->nreleases++] = (uint32_t)i;
		if (tag->commit != PV_NONE)
			t->by_commit[t->nby_commit++] = (uint32_t)i;
	}
	qsort_r(t->releases, t->nreleases, sizeof(uint32_t), cmp_release, t);
	qsort_r(t->by_commit, t->nby_commit, sizeof(uint32_t), cmp_by_commit, t);
}

void tags_free(struct tag_table *t)
{
	for (size_t i = 0; i < t->nr && !t->borrowed; i++) {
		free(t->v[i].refname);
		free(t->v[i].shortname);
	}
	free(t->v);
	free(t->releases);
	free(t->by_commit);
	memset(t, 0, sizeof(*t));
}

const uint32_t *tags_at_commit(const struct tag_table *t, uint32_t c, size_t *n)
{
	size_t lo = 0, hi = t->nby_commit, start;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (t->v[t->by_commit[mid]].commit < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	start = lo;
	while (lo < t->nby_commit && t->v[t->by_commit[lo]].commit == c)
		lo++;
	*n = lo - start;
	return t->by_commit + start;
}

long tags_find_target(const struct tag_table *t, const git_oid *oid)
{
	for (size_t i = 0; i < t->nr; i++)
		if (!memcmp(t->v[i].target.id, oid->id, GIT_OID_RAWSZ))
			return (long)i;
	return -1;
}

int tags_cmp_version(const struct tag_table *t, uint32_t a, uint32_t b)
{
	int c = kver_cmp(&t->v[a].ver, &t->v[b].ver);
	if (c)
		return c;
	return strcmp(t->v[a].refname, t->v[b].refname);
}

size_t tags_releases_among(const struct tag_table *t, const uint32_t *tags, size_t n,
			   uint32_t *out)
{
	size_t k = 0;

	if (!n)
		return 0;
	/* t->releases is already in version order: filter it */
	for (size_t r = 0; r < t->nreleases; r++) {
		uint32_t tag = t->releases[r];
		if (bsearch(&tag, tags, n, sizeof(*tags), cmp_u32))
			out[k++] = tag;
	}
	return k;
}
