/*
 * The per-rev reports answered from a fresh release index alone
 * (quick_report.h), before libgit2 is loaded.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/cli/quick_report.h"
#include "patchver/cli/render.h"
#include "patchver/engine/upstream.h"
#include "patchver/engine/objstore.h"

/* One rev's answer from the index, as report.c computes it: false when declined. */
static bool compute_quick(struct reporter *r, struct quick *q, const char *spec,
			  struct answer *a)
{
	enum report_mode m = r->opts->mode;
	char *msg = NULL;
	bool ok = false;
	int named = 0, tag_named;

	memset(a, 0, sizeof(*a));
	a->first_release = a->first_final = a->upstream = a->upstream_first = PV_NONE;
	if (quick_lookup(q, spec, true, &a->rev.commit) < 0)
		return false;
	memcpy(a->rev.oid.id, quick_oid(q, a->rev.commit), GIT_OID_RAWSZ);
	a->rev.type = GIT_OBJECT_COMMIT;
	if (m == REPORT_FIRST)
		return quick_first_release(q, a->rev.commit, &a->first_release) == 0;
	if (m != REPORT_TAGS) {
		if ((tag_named = quick_tag_object_name(q, &a->name)) < 0)
			return false;
		/* a tag object's name-rev is its ref: the commit's name is not asked */
		if (!(tag_named && m == REPORT_NAME_REV) &&
		    (named = quick_name(q, a->rev.commit, &a->describe)) < 0)
			return false;
		a->has_describe = named;
		/* name-rev without --peel-tag names a tag object by its ref (report.c) */
		if (tag_named)
			a->rev.type = GIT_OBJECT_TAG;
		else
			sbuf_add(&a->name, sbuf_str(&a->describe), a->describe.len);
		a->has_name = tag_named || named;
	}
	if (m == REPORT_DESCRIBE || m == REPORT_NAME_REV)
		return true;
	if (!(msg = quick_message(q, a->rev.commit)))
		return false;
	a->subject = objstore_subject(msg);
	{
		size_t ntags;
		uint32_t *tags = quick_containing(q, a->rev.commit, &ntags);
		if (!tags) {
			free(msg);
			return false;
		}
		answer_set_releases(r->tags, tags, ntags, a);
	}
	ok = true;
	if (m == REPORT_FULL) {
		size_t nb;
		const struct backport *b = quick_backports(q, a->rev.commit, &nb);
		if (!b)
			ok = false;
		else
			answer_set_backports(a, b, nb, (const git_oid *)quick_oid(q, 0));
	}
	if (ok && m == REPORT_FULL && (a->backport = upstream_ref(msg, a->upstream_hex))) {
		/* an upstream id the index lacks, or a short one: the normal path looks further */
		ok = quick_lookup(q, a->upstream_hex, false, &a->upstream) == 0 &&
		     quick_first_release(q, a->upstream, &a->upstream_first) == 0;
		if (ok)
			memcpy(a->upstream_oid.id, quick_oid(q, a->upstream), GIT_OID_RAWSZ);
	}
	free(msg);
	return ok;
}

int report_quick(struct quick *q, const struct report_opts *opts,
		 const char **revs, size_t nrevs)
{
	struct reporter r = { .opts = opts, .tags = quick_tags(q) };
	struct answer *a = xcalloc(nrevs + 1, sizeof(*a));
	size_t n = 0;
	bool ok = true;

	/* every answer first: a decline must leave nothing printed */
	while (ok && n < nrevs) {
		ok = compute_quick(&r, q, revs[n], &a[n]);
		n++;
	}
	/* as report.c: a rev git cannot describe ends the run */
	for (size_t i = 0; ok && i < nrevs; i++)
		if (!answer_emit(&r, NULL, &a[i]))
			break;
	for (size_t i = 0; i < n; i++)
		answer_free(&a[i]);
	free(a);
	return ok ? r.ret : -1;
}
