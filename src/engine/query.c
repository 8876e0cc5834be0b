/*
 * One rev's answer (query.h), from whichever source answers.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/kver.h"
#include "patchver/engine/objstore.h"
#include "patchver/engine/query.h"
#include "patchver/engine/upstream.h"

/* The releases among tags (containing tags; freed here), first and first final. */
static void set_releases(const struct tag_table *t, uint32_t *tags, size_t ntags,
			 struct answer *a)
{
	a->releases = xmalloc((ntags + 1) * sizeof(uint32_t));
	a->nreleases = tags_releases_among(t, tags, ntags, a->releases);
	free(tags);
	a->first_release = a->first_final = PV_NONE;
	for (size_t i = 0; i < a->nreleases; i++) {
		const struct tag *tag = &t->v[a->releases[i]];
		if (a->first_release == PV_NONE)
			a->first_release = a->releases[i];
		if (a->first_final == PV_NONE && !kver_is_rc(&tag->ver))
			a->first_final = a->releases[i];
	}
}

/* a's commit's backports: the n from b (oids: the ids of their dense ids). */
static int set_backports(const struct query_source *src, struct answer *a,
			 const struct backport *b, size_t n, const git_oid *oids)
{
	int ret = 0;

	a->backports = xcalloc(n + 1, sizeof(*a->backports));
	for (size_t i = 0; i < n && !ret; i++) {
		struct answer_backport *e = &a->backports[a->nbackports++];
		e->commit = oids[b[i].commit];
		e->tag = b[i].tag >= BACKMAP_ON_BRANCH ? PV_NONE : b[i].tag;
		e->reverted = b[i].revert != PV_NONE;
		if (e->reverted)
			e->revert = oids[b[i].revert];
		e->revert_tag = b[i].revert_tag >= BACKMAP_ON_BRANCH ? PV_NONE : b[i].revert_tag;
		ret = src->by_patchid(src->self, b[i].commit, b[i].upstream, &e->by_patchid);
	}
	return ret;
}

/* git's names: describe names the commit, name-rev a tag object by its ref. */
static int names(const struct query_source *src, unsigned want, struct answer *a)
{
	int ret = 0;

	if ((want & QUERY_DESCRIBE) || ((want & QUERY_NAME_REV) && a->rev.type == GIT_OBJECT_COMMIT))
		ret = src->name(src->self, a->rev.commit, &a->describe, &a->has_describe);
	if (ret || !(want & QUERY_NAME_REV))
		return ret;
	if (a->rev.type != GIT_OBJECT_COMMIT)
		return src->tag_name(src->self, &a->rev, &a->name, &a->has_name);
	sbuf_add(&a->name, sbuf_str(&a->describe), a->describe.len);
	a->has_name = a->has_describe;
	return 0;
}

/* The upstream commit a's message names, and the stable lines' backports of a's commit. */
static int stable(const struct query_source *src, const char *msg, struct answer *a)
{
	const struct backport *b;
	const git_oid *oids;
	size_t n = 0;
	int ret;

	if ((ret = src->backports(src->self, a->rev.commit, &b, &n, &oids)))
		return ret;
	if (n && (ret = set_backports(src, a, b, n, oids)))
		return ret;
	a->backport = msg && upstream_ref(msg, a->upstream_hex);
	if (!a->backport)
		return 0;
	return src->upstream(src->self, a->upstream_hex, &a->upstream, &a->upstream_oid,
			     &a->upstream_first);
}

static int compute(const struct query_source *src, unsigned want, const char *spec,
		   struct answer *a)
{
	uint32_t *tags;
	size_t ntags;
	char *msg = NULL;
	int ret;

	if ((ret = src->resolve(src->self, spec, &a->rev)))
		return ret;
	if (want & QUERY_FIRST_ONLY)
		return src->first_release(src->self, a->rev.commit, &a->first_release);
	/* an answer in error shows only the error: one broken walk says it once */
	if ((want & (QUERY_DESCRIBE | QUERY_NAME_REV)) && (ret = names(src, want, a)))
		return ret;
	if (!(want & QUERY_RELEASES))
		return 0;
	if ((ret = src->message(src->self, a->rev.commit, &msg)))
		return ret;
	a->subject = msg ? objstore_subject(msg) : xstrdup("");
	if (!(ret = src->containing(src->self, a->rev.commit, &tags, &ntags)))
		set_releases(src->tags, tags, ntags, a);
	if (!ret && (want & QUERY_STABLE))
		ret = stable(src, msg, a);
	free(msg);
	return ret;
}

int query_answer(const struct query_source *src, unsigned want, const char *spec,
		 struct answer *a)
{
	memset(a, 0, sizeof(*a));
	a->first_release = a->first_final = a->upstream = a->upstream_first = PV_NONE;
	return a->err = compute(src, want, spec, a);
}

void answer_free(struct answer *a)
{
	free(a->backports);
	free(a->subject);
	sbuf_free(&a->describe);
	sbuf_free(&a->name);
	free(a->releases);
}
