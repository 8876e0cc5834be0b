/*
 * The per-rev reports answered from a fresh release index alone
 * (quick_report.h), before libgit2 is loaded.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/cli/quick_report.h"
#include "patchver/cli/render.h"

/*
 * The release index as a query source (engine/query.h).  Any failure is
 * a decline: the history answers instead, and says what went wrong.
 */
struct index_source {
	struct quick *q;
	struct sbuf tag_name;       /* the annotated tag the last rev named, if it named one */
};

static int ix_resolve(void *self, const char *spec, struct rev *rev)
{
	struct index_source *s = self;
	int tag_named;

	if (quick_lookup(s->q, spec, true, &rev->commit) < 0)
		return -1;
	memcpy(rev->oid.id, quick_oid(s->q, rev->commit), GIT_OID_RAWSZ);
	/* asked now: the next lookup (an upstream id) forgets which tag the rev read */
	sbuf_reset(&s->tag_name);
	if ((tag_named = quick_tag_object_name(s->q, &s->tag_name)) < 0)
		return -1;
	rev->type = tag_named ? GIT_OBJECT_TAG : GIT_OBJECT_COMMIT;
	return 0;
}

static int ix_first_release(void *self, uint32_t commit, uint32_t *tag)
{
	return quick_first_release(((struct index_source *)self)->q, commit, tag);
}

static int ix_name(void *self, uint32_t commit, struct sbuf *out, bool *named)
{
	int ret = quick_name(((struct index_source *)self)->q, commit, out);

	*named = ret > 0;
	return ret < 0 ? ret : 0;
}

static int ix_tag_name(void *self, const struct rev *rev, struct sbuf *out, bool *named)
{
	struct index_source *s = self;

	sbuf_add(out, sbuf_str(&s->tag_name), s->tag_name.len);
	*named = true;
	return 0;
}

static int ix_message(void *self, uint32_t commit, char **msg)
{
	*msg = quick_message(((struct index_source *)self)->q, commit);
	return *msg ? 0 : -1;
}

static int ix_containing(void *self, uint32_t commit, uint32_t **tags, size_t *n)
{
	*tags = quick_containing(((struct index_source *)self)->q, commit, n);
	return *tags ? 0 : -1;
}

static int ix_backports(void *self, uint32_t commit, const struct backport **b, size_t *n,
			const git_oid **oids)
{
	struct quick *q = ((struct index_source *)self)->q;

	*b = quick_backports(q, commit, n);
	*oids = (const git_oid *)quick_oid(q, 0);
	return *b ? 0 : -1;
}

/* an upstream id the index lacks, or a short one: the history looks further */
static int ix_upstream(void *self, const char *hex, uint32_t *commit, git_oid *oid,
		       uint32_t *first)
{
	struct quick *q = ((struct index_source *)self)->q;

	if (quick_lookup(q, hex, false, commit) < 0 || quick_first_release(q, *commit, first) < 0)
		return -1;
	memcpy(oid->id, quick_oid(q, *commit), GIT_OID_RAWSZ);
	return 0;
}

int report_quick(struct quick *q, const struct report_opts *opts,
		 const char **revs, size_t nrevs)
{
	struct reporter r = { .opts = opts, .tags = quick_tags(q) };
	struct index_source self = { q, SBUF_INIT };
	const struct query_source src = {
		r.tags, &self, ix_resolve, ix_first_release, ix_name, ix_tag_name, ix_message,
		ix_containing, ix_backports, ix_upstream,
	};
	struct answer *a = xcalloc(nrevs + 1, sizeof(*a));
	unsigned want = report_wants(opts->mode);
	size_t n = 0;
	bool ok = true;

	/* every answer first: a decline must leave nothing printed */
	while (ok && n < nrevs) {
		ok = query_answer(&src, want, revs[n], &a[n]) == 0;
		n++;
	}
	/* as report.c: a rev git cannot describe ends the run */
	for (size_t i = 0; ok && i < nrevs; i++)
		if (!answer_emit(&r, NULL, &a[i]))
			break;
	for (size_t i = 0; i < n; i++)
		answer_free(&a[i]);
	free(a);
	sbuf_free(&self.tag_name);
	return ok ? r.ret : -1;
}
