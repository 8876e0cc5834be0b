/*
 * The per-rev reports answered from a fresh release index alone
 * (quick_report.h), before libgit2 is loaded.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/cli/quick_report.h"
#include "patchver/cli/render.h"
#include "patchver/engine/upstream.h"

/* One rev's answer from the index, as report.c computes it: false when declined. */
static bool compute_quick(struct reporter *r, struct quick *q, const char *spec,
			  struct answer *a)
{
	enum report_mode m = r->opts->mode;
	char *msg = NULL;
	bool ok = false;
	int named = 0;

	memset(a, 0, sizeof(*a));
	a->first_release = a->first_final = a->upstream = a->upstream_first = PV_NONE;
	if (quick_lookup(q, spec, &a->rev.commit) < 0)
		return false;
	memcpy(a->rev.oid.id, quick_oid(q, a->rev.commit), GIT_OID_RAWSZ);
	a->rev.type = GIT_OBJECT_COMMIT;
	if (m == REPORT_FIRST)
		return quick_first_release(q, a->rev.commit, &a->first_release) == 0;
	if (m != REPORT_TAGS) {
		if ((named = quick_name(q, a->rev.commit, &a->name)) < 0)
			return false;
		/* describe's error for a commit without a name is the normal path's to say */
		if (!named && m == REPORT_DESCRIBE)
			return false;
		a->has_name = a->has_describe = named;
		sbuf_add(&a->describe, sbuf_str(&a->name), a->name.len);
	}
	if (m == REPORT_DESCRIBE || m == REPORT_NAME_REV)
		return true;
	if (!(msg = quick_message(q, a->rev.commit)))
		return false;
	a->subject = subject_of(msg);
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
		ok = quick_lookup(q, a->upstream_hex, &a->upstream) == 0 &&
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
	for (size_t i = 0; ok && i < nrevs; i++)
		answer_emit(&r, NULL, &a[i]);
	for (size_t i = 0; i < n; i++)
		answer_free(&a[i]);
	free(a);
	return ok ? r.ret : -1;
}
