/*
 * The query's report (query_report.h): per-rev answers printed, text or
 * JSON, whichever source computed them; and the release index as a
 * source, which answers in the front, before libgit2 is loaded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/engine/oid.h"
#include "patchver/cli/query_report.h"

unsigned report_wants(enum report_mode m)
{
	switch (m) {
	case REPORT_FULL:
		return QUERY_DESCRIBE | QUERY_NAME_REV | QUERY_RELEASES | QUERY_STABLE;
	case REPORT_DESCRIBE:
		return QUERY_DESCRIBE;
	case REPORT_NAME_REV:
		return QUERY_NAME_REV;
	case REPORT_TAGS:
		return QUERY_RELEASES;
	case REPORT_FIRST:
		break;
	}
	return QUERY_FIRST_ONLY;
}

static const char *tag_name(const struct reporter *r, uint32_t t)
{
	return t == PV_NONE ? NULL : r->tags->v[t].shortname;
}

/* tag_name for text: PV_NONE is spelled "none", as JSON's null */
static const char *tag_text(const struct reporter *r, uint32_t t)
{
	return t == PV_NONE ? "none" : tag_name(r, t);
}

/* Calls fn for each run of releases of one series (mainline = stable 0). */
typedef void (*series_fn)(struct reporter *r, const char *series,
			  const uint32_t *tags, size_t n, void *data);

static void for_each_series(struct reporter *r, const struct answer *a,
			    series_fn fn, void *data)
{
	const struct tag_table *t = r->tags;
	uint32_t *run = xmalloc((a->nreleases + 1) * sizeof(uint32_t));
	size_t n = 0;

	/* mainline first, then each stable series in version order */
	for (size_t i = 0; i < a->nreleases; i++)
		if (!kver_is_stable(&t->v[a->releases[i]].ver))
			run[n++] = a->releases[i];
	if (n)
		fn(r, NULL, run, n, data);
	for (size_t i = 0; i < a->nreleases; i++) {
		const struct kver *v = &t->v[a->releases[i]].ver;
		char series[32];

		if (!kver_is_stable(v))
			continue;
		if (n && kver_same_series(v, &t->v[run[0]].ver) &&
		    kver_is_stable(&t->v[run[0]].ver))
			continue;   /* already emitted with its series */
		n = 0;
		for (size_t k = i; k < a->nreleases; k++) {
			const struct kver *w = &t->v[a->releases[k]].ver;
			if (kver_is_stable(w) && kver_same_series(v, w))
				run[n++] = a->releases[k];
		}
		kver_series(v, series, sizeof(series));
		fn(r, series, run, n, data);
	}
	free(run);
}

static void text_series(struct reporter *r, const char *series,
			const uint32_t *tags, size_t n, void *data)
{
	char label[40];

	(void)data;
	if (series)
		snprintf(label, sizeof(label), "%s.y:", series);
	else
		snprintf(label, sizeof(label), "mainline:");
	printf("  %-14s", label);
	for (size_t i = 0; i < n; i++)
		printf(" %s", tag_text(r, tags[i]));
	putchar('\n');
}

static void list_stable(struct reporter *r, const char *series,
			const uint32_t *tags, size_t n, void *data)
{
	struct sbuf *sb = data;

	(void)r; (void)tags; (void)n;
	if (!series)
		return;
	if (sb->len)
		sbuf_adds(sb, ", ");
	sbuf_addf(sb, "%s.y", series);
}

/* The series a backport is on: "2.6.34" of v2.6.34.1. */
static void backport_series(const struct reporter *r, const struct answer_backport *b,
			    char *buf, size_t len)
{
	if (b->tag >= BACKMAP_ON_BRANCH)
		snprintf(buf, len, "?");
	else
		kver_series(&r->tags->v[b->tag].ver, buf, len);
}

/* "2.6.34.y: backport 0640b3e3c65a in v2.6.34.1 (reverted in v2.6.34.3 by ...)" */
static void print_backports(struct reporter *r, const struct answer *a)
{
	char series[32], hex[13];

	printf("  backports:     ");
	if (!a->nbackports)
		printf(" none");
	for (size_t i = 0; i < a->nbackports; i++) {
		const struct answer_backport *b = &a->backports[i];
		backport_series(r, b, series, sizeof(series));
		oid_to_hex(hex, sizeof(hex), b->commit.id);
		printf("%s %s.y: backport %s in %s%s", i ? ";" : "", series, hex, tag_text(r, b->tag),
		       b->by_patchid ? " (same patch-id, names no upstream)" : "");
		if (b->reverted) {
			oid_to_hex(hex, sizeof(hex), b->revert.id);
			printf(" (reverted in %s by %s)", tag_text(r, b->revert_tag), hex);
		}
	}
	putchar('\n');
}

static void print_text(struct reporter *r, const struct answer *a)
{
	char hex[13];
	struct sbuf stable = SBUF_INIT;
	enum report_mode m = r->opts->mode;

	oid_to_hex(hex, sizeof(hex), a->rev.oid.id);
	printf("%s %s\n", hex, a->subject ? a->subject : "");
	if (m == REPORT_TAGS) {
		if (!a->nreleases)
			printf("  (no release contains it)\n");
		for_each_series(r, a, text_series, NULL);
		return;
	}
	if (a->first_release == PV_NONE)
		printf("  first release:  none (not yet released)\n");
	else
		printf("  first release:  %s\n", tag_text(r, a->first_release));
	printf("  first final:    %s\n",
	       tag_text(r, a->first_final));
	printf("  describe:       %s\n", a->has_describe ? sbuf_str((struct sbuf *)&a->describe) :
	       "(none: no tag contains it)");
	printf("  name-rev:       %s\n", a->has_name ? sbuf_str((struct sbuf *)&a->name) : "undefined");
	for_each_series(r, a, list_stable, &stable);
	printf("  in stable:      %s\n", stable.len ? sbuf_str(&stable) : "none");
	sbuf_free(&stable);
	print_backports(r, a);
	if (a->backport) {
		printf("  backport of:    %.12s", a->upstream_hex);
		if (a->upstream == PV_NONE)
			printf(" (not in this repository)\n");
		else
			printf(" (first release %s)\n", tag_text(r, a->upstream_first));
	}
}

static void json_series(struct reporter *r, const char *series,
			const uint32_t *tags, size_t n, void *data)
{
	struct json *j = data;

	json_key(j, series ? series : "mainline");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++)
		json_str(j, tag_name(r, tags[i]));
	json_arr_end(j);
}

static void json_stable(struct reporter *r, const char *series,
			const uint32_t *tags, size_t n, void *data)
{
	struct json *j = data;

	(void)r; (void)n;
	if (!series)
		return;
	json_obj_begin(j);
	json_kstr(j, "series", series);
	json_kstr(j, "first", tag_name(r, tags[0]));
	json_obj_end(j);
}

static void json_backports(struct reporter *r, struct json *j, const struct answer *a)
{
	char series[32], hex[GIT_OID_HEXSZ + 1];

	json_key(j, "backports");
	json_arr_begin(j);
	for (size_t i = 0; i < a->nbackports; i++) {
		const struct answer_backport *b = &a->backports[i];
		json_obj_begin(j);
		backport_series(r, b, series, sizeof(series));
		json_kstr(j, "series", series);
		json_kstr(j, "commit", oid_to_hex(hex, sizeof(hex), b->commit.id));
		json_kstr(j, "release", tag_name(r, b->tag));
		json_kstr(j, "found_by", b->by_patchid ? "patch-id" : "upstream line");
		json_kstr(j, "reverted_by", b->reverted ? oid_to_hex(hex, sizeof(hex), b->revert.id) : NULL);
		json_kstr(j, "reverted_in", b->reverted ? tag_name(r, b->revert_tag) : NULL);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static const char *error_name(int code)
{
	switch (code) {
	case EXIT_UNKNOWN_REV: return "unknown-rev";
	case EXIT_AMBIGUOUS: return "ambiguous";
	case EXIT_NOT_COMMIT: return "not-a-commit";
	case EXIT_CORRUPT: return "corrupt";
	default: return "error";
	}
}

static void print_json(struct reporter *r, struct json *j, const struct answer *a)
{
	enum report_mode m = r->opts->mode;
	char hex[GIT_OID_HEXSZ + 1];

	json_obj_begin(j);
	json_kstr(j, "rev", a->rev.spec);
	if (a->err) {
		json_kstr(j, "error", error_name(a->err));
		json_kint(j, "exit_code", a->err);
		json_obj_end(j);
		return;
	}
	oid_to_hex(hex, sizeof(hex), a->rev.oid.id);
	json_kstr(j, "commit", hex);
	if (a->subject)
		json_kstr(j, "subject", a->subject);
	if (m == REPORT_FULL || m == REPORT_DESCRIBE)
		json_kstr(j, "describe", a->has_describe ? a->describe.buf : NULL);
	if (m == REPORT_FULL || m == REPORT_NAME_REV)
		json_kstr(j, "name_rev", a->has_name ? a->name.buf : NULL);
	if (m == REPORT_FIRST)
		json_kstr(j, "first_release", tag_name(r, a->first_release));
	if (report_wants(m) & QUERY_RELEASES) {
		json_kstr(j, "first_release", tag_name(r, a->first_release));
		json_kstr(j, "first_final", tag_name(r, a->first_final));
		json_key(j, "releases");
		json_obj_begin(j);
		for_each_series(r, a, json_series, j);
		json_obj_end(j);
		json_key(j, "stable");
		json_arr_begin(j);
		for_each_series(r, a, json_stable, j);
		json_arr_end(j);
	}
	if (m == REPORT_FULL) {
		json_backports(r, j, a);
		json_key(j, "backport_of");
		if (!a->backport) {
			json_null(j);
		} else {
			json_obj_begin(j);
			json_kstr(j, "ref", a->upstream_hex);
			if (a->upstream != PV_NONE) {
				oid_to_hex(hex, sizeof(hex), a->upstream_oid.id);
				json_kstr(j, "commit", hex);
				json_kstr(j, "first_release", tag_name(r, a->upstream_first));
			} else {
				json_kstr(j, "commit", NULL);
			}
			json_obj_end(j);
		}
	}
	json_obj_end(j);
}

bool answer_emit(struct reporter *r, struct json *j, const struct answer *a)
{
	enum report_mode m = r->opts->mode;

	if (a->err && !r->ret)
		r->ret = a->err;
	if (r->opts->json) {
		print_json(r, j, a);
		return true;
	}
	if (a->err)
		return true;
	if (m == REPORT_DESCRIBE) {
		if (!a->has_describe) {
			char hex[GIT_OID_HEXSZ + 1];
			oid_to_hex(hex, sizeof(hex), a->rev.oid.id);
			fflush(stdout);
			r->ret = error(EXIT_CANNOT_DESCRIBE, "cannot describe '%s'", hex);
			return false;
		}
		printf("%s\n", a->describe.buf);
	} else if (m == REPORT_NAME_REV) {
		printf("%s\n", a->has_name ? a->name.buf : "undefined");
	} else if (m == REPORT_FIRST) {
		printf("%s\n", tag_text(r, a->first_release));
	} else {
		print_text(r, a);
	}
	return true;
}

/*
 * The release index as a query source (engine/query.h).  Any failure is
 * a decline (PV_EDECLINED): the history answers instead, and says what
 * went wrong.
 */
struct index_source {
	struct quick *q;
	struct sbuf tag_name;       /* the annotated tag the last rev named, if it named one */
};

static int ix_resolve(void *self, const char *spec, struct rev *rev)
{
	struct index_source *s = self;
	int tag_named, ret;

	if ((ret = quick_lookup(s->q, spec, true, &rev->commit)))
		return ret;
	memcpy(rev->oid.id, quick_oid(s->q, rev->commit), GIT_OID_RAWSZ);
	/* asked now: the next lookup (an upstream id) forgets which tag the rev read */
	sbuf_reset(&s->tag_name);
	if ((tag_named = quick_tag_object_name(s->q, &s->tag_name)) < 0)
		return tag_named;
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
	return *msg ? 0 : PV_EDECLINED;
}

static int ix_containing(void *self, uint32_t commit, uint32_t **tags, size_t *n)
{
	*tags = quick_containing(((struct index_source *)self)->q, commit, n);
	return *tags ? 0 : PV_EDECLINED;
}

static int ix_backports(void *self, uint32_t commit, const struct backport **b, size_t *n,
			const git_oid **oids)
{
	struct quick *q = ((struct index_source *)self)->q;

	*b = quick_backports(q, commit, n);
	*oids = (const git_oid *)quick_oid(q, 0);
	return *b ? 0 : PV_EDECLINED;
}

static int ix_by_patchid(void *self, uint32_t stable, uint32_t upstream, bool *yes)
{
	return quick_backport_by_patchid(((struct index_source *)self)->q, stable, upstream, yes);
}

/* an upstream id the index lacks, or a short one: the history looks further */
static int ix_upstream(void *self, const char *hex, uint32_t *commit, git_oid *oid,
		       uint32_t *first)
{
	struct quick *q = ((struct index_source *)self)->q;

	if (quick_lookup(q, hex, false, commit) < 0 || quick_first_release(q, *commit, first) < 0)
		return PV_EDECLINED;
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
		ix_containing, ix_backports, ix_by_patchid, ix_upstream,
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
	/* as report_revs does: a rev git cannot describe ends the run */
	for (size_t i = 0; ok && i < nrevs; i++)
		if (!answer_emit(&r, NULL, &a[i]))
			break;
	for (size_t i = 0; i < n; i++)
		answer_free(&a[i]);
	free(a);
	sbuf_free(&self.tag_name);
	return ok ? r.ret : PV_EDECLINED;
}
