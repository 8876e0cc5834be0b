/*
 * The query answered from the history (query_history.h): the history as
 * a query source, for revs given as arguments or on standard input.
 * query_report.c prints the answers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/base/util.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/naming.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/backports.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/query_history.h"
#include "patchver/cli/query_report.h"

/* The printing's state, and what computing answers from the history needs. */
struct full_reporter {
	struct reporter out;
	struct history *h;
	struct naming naming;
	struct contain contain;
	struct backport_map map;    /* what the stable lines carry, once needed */
	bool have_map;
};

/* The history as a query source (engine/query.h). */
static int h_resolve(void *self, const char *spec, struct rev *rev)
{
	struct full_reporter *r = self;

	return rev_resolve(rev, r->h->repo, &r->h->dag, spec);
}

static int h_first_release(void *self, uint32_t commit, uint32_t *tag)
{
	struct full_reporter *r = self;

	/* the bulk assignment: every commit's first release from one walk */
	return contain_first_release_of(&r->contain, commit, tag);
}

static int h_name(void *self, uint32_t commit, struct sbuf *out, bool *named)
{
	struct full_reporter *r = self;

	return naming_name(&r->naming, commit, out, named);
}

static int h_tag_name(void *self, const struct rev *rev, struct sbuf *out, bool *named)
{
	struct full_reporter *r = self;

	*named = naming_exact(&r->naming, &rev->object, out);
	return 0;
}

static int h_message(void *self, uint32_t commit, char **msg)
{
	*msg = history_message(((struct full_reporter *)self)->h, commit);
	return 0;
}

static int h_containing(void *self, uint32_t commit, uint32_t **tags, size_t *n)
{
	struct full_reporter *r = self;

	return contain_tags_of(&r->contain, commit, tags, n);
}

/*
 * The stable lines' backports of a commit: the index's map, or without
 * one every stable-line commit read, so that both sources give one answer
 * (a backport need not change its upstream's files).  Read once a run.
 */
static int h_backports(void *self, uint32_t commit, const struct backport **b, size_t *n,
		       const git_oid **oids)
{
	struct full_reporter *r = self;

	if (!r->have_map)
		r->have_map = backport_map_build(&r->map, r->h, &r->contain, NULL, 0) == 0;
	*n = 0;
	*b = r->have_map ? backport_map_of(&r->map, commit, n) : NULL;
	*oids = r->h->dag.oids;
	return 0;
}

static int h_by_patchid(void *self, uint32_t stable, uint32_t upstream, bool *yes)
{
	struct full_reporter *r = self;

	*yes = backport_map_by_patchid(&r->map, stable, &r->h->dag.oids[upstream]);
	return 0;
}

static int h_upstream(void *self, const char *hex, uint32_t *commit, git_oid *oid,
		      uint32_t *first)
{
	struct full_reporter *r = self;

	*commit = rev_find_hex(&r->h->dag, hex);
	if (*commit != PV_NONE) {
		git_oid_cpy(oid, &r->h->dag.oids[*commit]);
		*first = contain_first_release(&r->contain, *commit);
	}
	return 0;
}

/* The answer for spec; a failure is said as it happens, its exit code kept. */
static void compute(struct full_reporter *r, const char *spec, struct answer *a)
{
	const struct query_source src = {
		&r->h->tags, r, h_resolve, h_first_release, h_name, h_tag_name, h_message,
		h_containing, h_backports, h_by_patchid, h_upstream,
	};

	query_answer(&src, report_wants(r->out.opts->mode), spec, a);
	a->err = diag_exit(a->err);
}

static void reporter_init(struct full_reporter *r, struct history *h,
			  const struct report_opts *opts)
{
	memset(r, 0, sizeof(*r));
	r->h = h;
	r->out.tags = &h->tags;
	r->out.opts = opts;
	/* describe --match limits the naming tags as git's --refs does */
	naming_init(&r->naming, h, opts->match);
	contain_init(&r->contain, h);
}

static void reporter_free(struct full_reporter *r)
{
	naming_free(&r->naming);
	contain_free(&r->contain);
	backport_map_free(&r->map);
}

int report_revs(struct history *h, const struct report_opts *opts,
		const char **revs, size_t nrevs)
{
	struct full_reporter r;
	struct json j;
	int ret;

	reporter_init(&r, h, opts);
	json_init(&j, stdout);
	if (opts->json) {
		json_document_begin(&j, stdout);
		json_key(&j, "results");
		json_arr_begin(&j);
	}
	for (size_t i = 0; i < nrevs; i++) {
		struct answer a;
		bool go_on;

		compute(&r, revs[i], &a);
		go_on = answer_emit(&r.out, &j, &a);
		answer_free(&a);
		if (!go_on)
			break;
	}
	if (opts->json) {
		json_arr_end(&j);
		json_obj_end(&j);
	}
	ret = r.out.ret;
	reporter_free(&r);
	return ret;
}

/* git name-rev --annotate-stdin --name-only on one line (LF-terminated). */
static void annotate_line(struct full_reporter *r, const char *line, size_t len)
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
		if (!(c != PV_NONE && c < r->h->tag_commits ?
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
	struct full_reporter r;
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
		go_on = answer_emit(&r.out, &j, &a);
		answer_free(&a);
		fflush(stdout);
		if (!go_on)
			break;
	}
	free(line);
	ret = r.out.ret;
	reporter_free(&r);
	return ret;
}
