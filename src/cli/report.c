/*
 * Per-rev answers: computing them and printing them (text or JSON).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/engine/contain.h"
#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/engine/naming.h"
#include "patchver/engine/quick.h"
#include "patchver/cli/report.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/upstream.h"
#include "patchver/base/util.h"

#define NONE UINT32_MAX
#define SCHEMA_VERSION 1

struct reporter {
	struct history *h;          /* NULL for the quick path's answers */
	const struct tag_table *tags;
	const struct report_opts *opts;
	struct naming naming;
	struct contain contain;
	struct json json;
	int ret;
};

struct answer {
	struct rev rev;
	int err;                    /* EXIT_* from resolving, 0 if resolved */
	char *subject;
	bool has_describe, has_name;
	struct sbuf describe, name;
	uint32_t *releases;         /* containing releases, version order */
	size_t nreleases;
	uint32_t first_release, first_final;
	bool backport;              /* message names an upstream commit */
	char upstream_hex[41];
	uint32_t upstream;          /* that commit, if it is in the repository */
	uint32_t upstream_first;
};

static bool want_contain(enum report_mode m)
{
	return m == REPORT_FULL || m == REPORT_TAGS;
}

/* The releases among tags (containing tags; freed here), first and first final. */
static void set_releases(struct reporter *r, uint32_t *tags, size_t ntags, struct answer *a)
{
	a->releases = xmalloc((ntags + 1) * sizeof(uint32_t));
	a->nreleases = contain_releases(r->tags, tags, ntags, a->releases);
	free(tags);
	a->first_release = a->first_final = NONE;
	for (size_t i = 0; i < a->nreleases; i++) {
		const struct tag *t = &r->tags->v[a->releases[i]];
		if (a->first_release == NONE)
			a->first_release = a->releases[i];
		if (a->first_final == NONE && !kver_is_rc(&t->ver))
			a->first_final = a->releases[i];
	}
}

static void find_backport(struct reporter *r, struct answer *a)
{
	char *msg = history_message(r->h, a->rev.commit);

	a->upstream = a->upstream_first = NONE;
	a->backport = msg && upstream_ref(msg, a->upstream_hex);
	free(msg);
	if (!a->backport)
		return;
	a->upstream = rev_find_hex(&r->h->dag, a->upstream_hex);
	if (a->upstream != NONE)
		a->upstream_first = contain_first_release(&r->contain, a->upstream);
}

static void answer_free(struct answer *a)
{
	free(a->subject);
	sbuf_free(&a->describe);
	sbuf_free(&a->name);
	free(a->releases);
}

static void compute(struct reporter *r, const char *spec, struct answer *a)
{
	enum report_mode m = r->opts->mode;

	memset(a, 0, sizeof(*a));
	a->first_release = a->first_final = NONE;
	a->err = rev_resolve(&a->rev, r->h->repo, &r->h->dag, spec);
	if (a->err)
		return;
	if (m == REPORT_FIRST) {
		/* the bulk assignment: every commit's first release from one walk */
		a->first_release = contain_first_release(&r->contain, a->rev.commit);
		a->err = r->contain.err;
		return;
	}
	if (m == REPORT_FULL || m == REPORT_DESCRIBE)
		a->has_describe = naming_name(&r->naming, a->rev.commit, &a->describe);
	if (m == REPORT_FULL || m == REPORT_NAME_REV) {
		/* name-rev without --peel-tag names a tag object by its ref */
		if (a->rev.type == GIT_OBJECT_COMMIT)
			a->has_name = naming_name(&r->naming, a->rev.commit, &a->name);
		else
			a->has_name = naming_exact(&r->naming, &a->rev.object, &a->name);
	}
	if (r->naming.err)
		a->err = r->naming.err;
	/* an answer in error shows only the error: one broken walk says it once */
	if (a->err || m == REPORT_DESCRIBE || m == REPORT_NAME_REV)
		return;
	a->subject = history_subject(r->h, a->rev.commit);
	if (want_contain(m)) {
		size_t ntags;
		uint32_t *tags = contain_tags(&r->contain, a->rev.commit, &ntags);
		set_releases(r, tags, ntags, a);
		if (r->contain.err)
			a->err = r->contain.err;
	}
	if (m == REPORT_FULL)
		find_backport(r, a);
}

static const char *tag_name(const struct reporter *r, uint32_t t)
{
	return t == NONE ? NULL : r->tags->v[t].shortname;
}

/* tag_name for text: NONE is spelled "none", as JSON's null */
static const char *tag_text(const struct reporter *r, uint32_t t)
{
	return t == NONE ? "none" : tag_name(r, t);
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
		if (n && kver_same_base(v, &t->v[run[0]].ver) &&
		    kver_is_stable(&t->v[run[0]].ver))
			continue;   /* already emitted with its series */
		n = 0;
		for (size_t k = i; k < a->nreleases; k++) {
			const struct kver *w = &t->v[a->releases[k]].ver;
			if (kver_is_stable(w) && kver_same_base(v, w))
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

static void print_text(struct reporter *r, const struct answer *a)
{
	char hex[13];
	struct sbuf stable = SBUF_INIT;
	enum report_mode m = r->opts->mode;

	git_oid_tostr(hex, sizeof(hex), &a->rev.oid);
	printf("%s %s\n", hex, a->subject ? a->subject : "");
	if (m == REPORT_TAGS) {
		if (!a->nreleases)
			printf("  (no release contains it)\n");
		for_each_series(r, a, text_series, NULL);
		return;
	}
	if (a->first_release == NONE)
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
	if (a->backport) {
		printf("  backport of:    %.12s", a->upstream_hex);
		if (a->upstream == NONE)
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
	git_oid_tostr(hex, sizeof(hex), &a->rev.oid);
	json_kstr(j, "commit", hex);
	if (a->subject)
		json_kstr(j, "subject", a->subject);
	if (m == REPORT_FULL || m == REPORT_DESCRIBE)
		json_kstr(j, "describe", a->has_describe ? a->describe.buf : NULL);
	if (m == REPORT_FULL || m == REPORT_NAME_REV)
		json_kstr(j, "name_rev", a->has_name ? a->name.buf : NULL);
	if (m == REPORT_FIRST)
		json_kstr(j, "first_release", tag_name(r, a->first_release));
	if (want_contain(m)) {
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
		json_key(j, "backport_of");
		if (!a->backport) {
			json_null(j);
		} else {
			json_obj_begin(j);
			json_kstr(j, "ref", a->upstream_hex);
			if (a->upstream != NONE) {
				git_oid_tostr(hex, sizeof(hex), &r->h->dag.oids[a->upstream]);
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

/*
 * Print one answer.  Returns false when output must stop, as git
 * describe --contains dies at the first commit it cannot describe.
 */
static bool emit(struct reporter *r, struct json *j, const struct answer *a)
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
			git_oid_tostr(hex, sizeof(hex), &a->rev.oid);
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

static void reporter_init(struct reporter *r, struct history *h,
			  const struct report_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->h = h;
	r->tags = &h->tags;
	r->opts = opts;
	/* describe --match limits the naming tags as git's --refs does */
	naming_init(&r->naming, h, opts->match);
	contain_init(&r->contain, h);
}

static void reporter_free(struct reporter *r)
{
	naming_free(&r->naming);
	contain_free(&r->contain);
}

int report_revs(struct history *h, const struct report_opts *opts,
		const char **revs, size_t nrevs)
{
	struct reporter r;
	struct json j;
	int ret;

	reporter_init(&r, h, opts);
	json_init(&j, stdout);
	if (opts->json) {
		json_obj_begin(&j);
		json_kint(&j, "schema_version", SCHEMA_VERSION);
		json_key(&j, "results");
		json_arr_begin(&j);
	}
	for (size_t i = 0; i < nrevs; i++) {
		struct answer a;
		bool go_on;

		compute(&r, revs[i], &a);
		go_on = emit(&r, &j, &a);
		answer_free(&a);
		if (!go_on)
			break;
	}
	if (opts->json) {
		json_arr_end(&j);
		json_obj_end(&j);
	}
	ret = r.ret;
	reporter_free(&r);
	return ret;
}

/* compute() from the quick path: false when it declines. */
static bool compute_quick(struct reporter *r, struct quick *q, const char *spec,
			  struct answer *a)
{
	enum report_mode m = r->opts->mode;
	char *msg = NULL;
	bool ok = false;
	int named = 0;

	memset(a, 0, sizeof(*a));
	a->first_release = a->first_final = a->upstream = a->upstream_first = NONE;
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
	a->subject = history_subject_of(msg);
	{
		size_t ntags;
		uint32_t *tags = quick_containing(q, a->rev.commit, &ntags);
		set_releases(r, tags, ntags, a);
	}
	ok = true;
	if (m == REPORT_FULL && (a->backport = upstream_ref(msg, a->upstream_hex))) {
		/* an upstream id the index lacks, or a short one: the normal path looks further */
		ok = quick_lookup(q, a->upstream_hex, &a->upstream) == 0 &&
		     quick_first_release(q, a->upstream, &a->upstream_first) == 0;
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
		emit(&r, NULL, &a[i]);
	for (size_t i = 0; i < n; i++)
		answer_free(&a[i]);
	free(a);
	return ok ? r.ret : -1;
}

/* git name-rev --annotate-stdin --name-only on one line (LF-terminated). */
static void annotate_line(struct reporter *r, const char *line, size_t len)
{
	struct sbuf name = SBUF_INIT;
	size_t start = 0, run = 0;

	for (size_t i = 0; i < len; i++) {
		bool hex = (line[i] >= '0' && line[i] <= '9') ||
			   (line[i] >= 'a' && line[i] <= 'f');
		bool next_hex = i + 1 < len &&
			((line[i + 1] >= '0' && line[i + 1] <= '9') ||
			 (line[i + 1] >= 'a' && line[i + 1] <= 'f'));
		git_oid oid;
		uint32_t c;

		run = hex ? run + 1 : 0;
		if (run != GIT_OID_HEXSZ || next_hex)
			continue;
		run = 0;
		git_oid_fromstrn(&oid, line + i + 1 - GIT_OID_HEXSZ, GIT_OID_HEXSZ);
		sbuf_reset(&name);
		c = dag_find(&r->h->dag, &oid);
		if (!(c != DAG_NONE && c < r->h->tag_commits ?
		      naming_uncut_name(&r->naming, c, &name) : naming_exact(&r->naming, &oid, &name)))
			continue;
		fwrite(line + start, 1, i + 1 - GIT_OID_HEXSZ - start, stdout);
		fputs(name.buf, stdout);
		start = i + 1;
	}
	fwrite(line + start, 1, len - start, stdout);
	sbuf_free(&name);
}

static bool skip_line(char *line)
{
	char *p = line;

	while (*p == ' ' || *p == '\t')
		p++;
	return !*p || *p == '#';
}

static char *trim(char *line)
{
	char *end;

	while (*line == ' ' || *line == '\t')
		line++;
	end = line + strlen(line);
	while (end > line && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return line;
}

int report_stdin(struct history *h, const struct report_opts *opts, FILE *in)
{
	struct reporter r;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	int ret;

	reporter_init(&r, h, opts);
	while ((len = getline(&line, &cap, in)) >= 0) {
		struct answer a;
		struct json j;
		bool go_on;

		if (opts->mode == REPORT_NAME_REV && !opts->json) {
			/* as git's strbuf_getline: drop LF or CRLF, then add LF */
			if (len && line[len - 1] == '\n')
				line[--len] = '\0';
			if (len && line[len - 1] == '\r')
				line[--len] = '\0';
			line[len++] = '\n';
			annotate_line(&r, line, (size_t)len);
			continue;
		}
		line[strcspn(line, "\n")] = '\0';
		if (skip_line(line))
			continue;
		compute(&r, trim(line), &a);
		json_init(&j, stdout);     /* one JSON document per line */
		go_on = emit(&r, &j, &a);
		answer_free(&a);
		fflush(stdout);
		if (!go_on)
			break;
	}
	free(line);
	ret = r.ret;
	reporter_free(&r);
	return ret;
}

static const char *const index_states[] = {
	[INDEX_UNUSED] = "not used", [INDEX_FRESH] = "fresh", [INDEX_EXTENDED] = "extended",
	[INDEX_BUILT] = "built", [INDEX_REBUILT] = "rebuilt",
};

int report_index(const struct history *h, bool json)
{
	const struct relindex *ix = history_index(h);
	struct json j;

	if (!ix)
		return error(EXIT_INTERNAL, "no release index for this repository "
			     "(a shallow clone has none)");
	if (json) {
		json_init(&j, stdout);
		json_obj_begin(&j);
		json_kint(&j, "schema_version", SCHEMA_VERSION);
		json_kstr(&j, "path", h->ix_saved || h->ix_state == INDEX_FRESH ? h->ix_path : NULL);
		json_kstr(&j, "state", index_states[h->ix_state]);
		json_kint(&j, "commits", ix->dag.nr);
		json_kint(&j, "tags", ix->ntags);
		json_kint(&j, "releases", (long long)h->tags.nreleases);
		json_kint(&j, "bytes", (long long)ix->size);
		json_kint(&j, "build_msec", ix->build_msec);
		json_obj_end(&j);
		putchar('\n');
		return 0;
	}
	printf("release index: %s%s\n", h->ix_path,
	       h->ix_saved || h->ix_state == INDEX_FRESH ? "" : " (not saved)");
	printf("  state:     %s\n", index_states[h->ix_state]);
	printf("  commits:   %u\n", ix->dag.nr);
	printf("  tags:      %u (%zu releases)\n", ix->ntags, h->tags.nreleases);
	printf("  size:      %.1f %s\n", ix->size < 1000000 ? (double)ix->size / 1e3 :
	       (double)ix->size / 1e6, ix->size < 1000000 ? "kB" : "MB");
	printf("  computed:  %.3f s\n", (double)ix->build_msec / 1000);
	return 0;
}
