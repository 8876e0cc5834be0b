/*
 * --audit shown: the table stable/audit.c computes, as text or JSON.
 */
#include <stdio.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/stable/audit.h"
#include "patchver/cli/audit_report.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/triage_report.h"

/* The row's flags, as the text's legend says them. */
static char mark_flag(enum audit_mark m)
{
	static const char flags[] = {
		[AUDIT_MARK_NONE] = '-', [AUDIT_MARK_CC_STABLE] = 'C', [AUDIT_MARK_FIXES] = 'F',
		[AUDIT_MARK_NAMED] = 'I', [AUDIT_MARK_POSSIBLE] = 'p',
	};
	return flags[m];
}

static char need_flag(enum audit_need n)
{
	static const char flags[] = {
		[AUDIT_UNJUDGED] = ' ', [AUDIT_NEEDED] = 'N', [AUDIT_NOT_NEEDED] = 'n',
		[AUDIT_NEED_UNKNOWN] = '?', [AUDIT_NOT_A_FIX] = 'x',
	};
	return flags[n];
}

/* text; JSON's have hyphens for spaces */
static const char *need_name(enum audit_need n)
{
	static const char *const names[] = {
		[AUDIT_UNJUDGED] = "unknown", [AUDIT_NEEDED] = "yes", [AUDIT_NOT_NEEDED] = "no",
		[AUDIT_NEED_UNKNOWN] = "unknown", [AUDIT_NOT_A_FIX] = "not a fix",
	};
	return names[n];
}

static const char *mark_name(enum audit_mark m)
{
	static const char *const names[] = {
		[AUDIT_MARK_NONE] = NULL, [AUDIT_MARK_CC_STABLE] = "cc-stable",
		[AUDIT_MARK_FIXES] = "fixes", [AUDIT_MARK_NAMED] = "named-culprit",
		[AUDIT_MARK_POSSIBLE] = "possible",
	};
	return names[m];
}

/* The row of the window that is commit c, or NULL. */
static const struct audit_row *row_of(const struct audit_result *a, uint32_t c)
{
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].commit == c)
			return &a->rows[i];
	return NULL;
}

/*
 * A missing fix's prerequisites, under it: each is work that comes with
 * the fix, not a candidate of its own (unless it is one).
 */
static void print_prereqs(const struct history *h, const struct audit_result *a,
			  const struct audit_cell *c, int indent)
{
	for (size_t i = 0; i < c->ready.nprereqs; i++) {
		uint32_t p = c->ready.prereqs[i];
		const struct audit_row *pr = row_of(a, p);
		char *subj = history_subject(h, p);
		printf("%*sneeds %.12s first (%s) %s\n", indent, "", git_oid_tostr_s(&h->dag.oids[p]),
		       !pr ? "not in the window" : pr->fix.cls == FIXCLASS_FIX ? "a fix itself" :
		       "not a fix itself", subj ? subj : "");
		free(subj);
	}
}

static void print_row(const struct history *h, const struct audit_result *a,
		      const struct audit_row *r)
{
	printf("[%c", mark_flag(r->mark));
	for (size_t k = 0; k < a->nseries; k++) {
		const struct audit_cell *c = &r->cells[k];
		printf(" %c%c%c", need_flag(c->needed), c->present != PV_NONE ? 'P' : '-',
		       c->applies < 0 ? ' ' : c->applies ? '+' : 'x');
	}
	printf("] %.12s %s\n", git_oid_tostr_s(&h->dag.oids[r->commit]), r->subject);
	if (r->reverted_by != PV_NONE)
		printf("%*sreverted in mainline by %.12s (%s): not to be backported\n", 16, "",
		       git_oid_tostr_s(&h->dag.oids[r->reverted_by]),
		       r->reverted_release == PV_NONE ? "not yet released" :
		       h->tags.v[r->reverted_release].shortname);
	for (size_t k = 0; k < a->nseries; k++) {
		const struct audit_cell *c = &r->cells[k];
		printf("%*s%s%sneeded: %s", 16, "", a->nseries > 1 ? a->series[k].name : "",
		       a->nseries > 1 ? " " : "", need_name(c->needed));
		printf(" (%s)", c->needed_why ? c->needed_why : "");
		if (c->present != PV_NONE)
			printf("; present since %s as %.12s (%s)", c->present_since,
			       git_oid_tostr_s(&h->dag.oids[c->present]), c->present_how);
		if (c->ready.checked) {
			char *words = ready_summary_words(&c->ready);
			printf("; applies to %s: %s", a->series[k].tip, words);
			free(words);
		} else if (c->applies >= 0) {
			printf("; %s to %s", c->applies ? "applies" : "does not apply",
			       a->series[k].tip);
		}
		printf("\n");
		print_prereqs(h, a, c, 18);
	}
}

static void print_summary(const struct history *h, const struct audit_result *a, size_t k)
{
	const struct audit_series *s = &a->series[k];
	struct audit_counts n;

	audit_count(a, k, &n);
	printf("\nsummary for %s: %zu commits: %zu fixes by their own word (%zu Cc: stable), "
	       "%zu possible fixes, %zu not fixes\n", s->name, a->nrows, n.by_word, n.marked,
	       n.possible, n.not_fix);
	printf("  stable candidates (a fix by its own word, needed): %zu; missing: %zu "
	       "(%zu fix a culprit %s.y took as a backport)\n", n.candidates, n.missing,
	       n.missing_backported_culprit, s->name);
	for (size_t i = 0; i < a->nrows; i++) {
		const struct audit_row *r = &a->rows[i];
		const struct audit_cell *c = &r->cells[k];
		if (!audit_missing(r, c) || r->fix.cls != FIXCLASS_FIX)
			continue;
		char *words = ready_summary_words(&c->ready);
		printf("    [%c] %.12s %s [%s", mark_flag(r->mark),
		       git_oid_tostr_s(&h->dag.oids[r->commit]), r->subject, words);
		/* the ids only: --only missing says what each one is */
		for (size_t p = 0; p < c->ready.nprereqs; p++)
			printf("%s%.12s", p ? " " : ": ",
			       git_oid_tostr_s(&h->dag.oids[c->ready.prereqs[p]]));
		printf("]\n");
		free(words);
	}
	if (n.missing)
		printf("  the missing fixes on %s: %zu apply cleanly, %zu with fuzz or a merge, %zu "
		       "after prerequisites, %zu conflict\n", s->tip, n.ready_clean, n.ready_merged,
		       n.ready_after, n.ready_conflict);
	printf("  possible candidates (looks like a fix, needed): %zu; missing: %zu "
	       "(--only possible lists them)\n", n.possible_needed, n.possible_missing);
	if (n.reverted)
		printf("  reverted in mainline, in the range or after it (needed, not missing): %zu\n",
		       n.reverted);
	printf("  not needed (the code came after %s): %zu fixes, %zu possible; unknown: %zu\n",
	       s->base, n.unneeded_fix, n.unneeded_possible, n.unknown);
	printf("  present: %zu (%zu by upstream line, %zu by patch-id only; %zu of them not a fix)\n",
	       n.present, n.by_line, n.present - n.by_line, n.present_not_fix);
}

static void print_text(const struct history *h, const struct audit_result *a,
		       const struct audit_report_opts *o)
{
	printf("audit %s: %zu non-merge commits\n", o->range, a->nrows);
	for (size_t k = 0; k < a->nseries; k++)
		printf("series %s: %s .. %s\n", a->series[k].name, a->series[k].base,
		       a->series[k].tip);
	printf("evidence: the culprits the message names, else whether the release has the lines "
	       "the fix changes; no blame (what --triage --evidence text reads)\n");
	/* the window's thousands of rows only when asked: the summary lists what is missing */
	if (o->only) {
		printf("flags: a fix by its own word: C Cc: stable, F Fixes:, I names released code;"
		       " p possibly a fix; - not a fix; per series: N needed, n not needed, ? unknown,"
		       " x not a fix; P present, - missing; + applies to the tip, x does not\n\n");
		for (size_t i = 0; i < a->nrows; i++)
			if (audit_listed(a, &a->rows[i], o->only))
				print_row(h, a, &a->rows[i]);
	} else {
		printf("(a summary: --only missing, possible, present, unneeded or all lists the "
		       "commits, one row each)\n");
	}
	for (size_t k = 0; k < a->nseries; k++)
		print_summary(h, a, k);
}

static void json_cell(struct json *j, const struct history *h, const struct audit_cell *c)
{
	char hex[GIT_OID_HEXSZ + 1];

	json_obj_begin(j);
	json_kstr(j, "needed", c->needed == AUDIT_NOT_A_FIX ? "not-a-fix" : need_name(c->needed));
	json_kstr(j, "needed_evidence", c->needed_why);
	json_kstr(j, "present", c->present == PV_NONE ? NULL :
		  git_oid_tostr(hex, sizeof(hex), &h->dag.oids[c->present]));
	json_kstr(j, "present_by", c->present == PV_NONE ? NULL : c->present_how);
	json_kstr(j, "present_since", c->present == PV_NONE ? NULL : c->present_since);
	json_key(j, "applies");
	if (c->applies < 0)
		json_null(j);
	else
		json_bool(j, c->applies);
	json_key(j, "readiness");
	if (!c->ready.checked) {
		json_null(j);
	} else {
		json_obj_begin(j);
		json_kstr(j, "answer", ready_answer_name(c->ready.answer));
		json_kstr(j, "applies", apply_how_name(c->ready.how));
		json_key(j, "prerequisites");
		json_arr_begin(j);
		for (size_t p = 0; p < c->ready.nprereqs; p++)
			json_str(j, git_oid_tostr(hex, sizeof(hex), &h->dag.oids[c->ready.prereqs[p]]));
		json_arr_end(j);
		json_kbool(j, "adapted", c->ready.adapted);
		json_kint(j, "conflicts", (int64_t)c->ready.nconflicts);
		json_kstr(j, "already_in", c->ready.answer == READY_ALREADY ?
			  git_oid_tostr(hex, sizeof(hex), &h->dag.oids[c->ready.already_by]) : NULL);
		json_obj_end(j);
	}
	json_obj_end(j);
}

static void json_row(struct json *j, const struct history *h, const struct audit_result *a,
		     const struct audit_row *r)
{
	char hex[GIT_OID_HEXSZ + 1];

	json_obj_begin(j);
	json_kstr(j, "commit", git_oid_tostr(hex, sizeof(hex), &h->dag.oids[r->commit]));
	json_kstr(j, "subject", r->subject);
	json_kstr(j, "marked", mark_name(r->mark));
	json_kstr(j, "stable_hint", *r->hint ? r->hint : NULL);
	json_kstr(j, "reverted_by", r->reverted_by == PV_NONE ? NULL :
		  git_oid_tostr(hex, sizeof(hex), &h->dag.oids[r->reverted_by]));
	json_kstr(j, "reverted_in", r->reverted_release == PV_NONE ? NULL :
		  h->tags.v[r->reverted_release].shortname);
	triage_report_fix_json(j, &r->fix);
	json_key(j, "series");
	json_obj_begin(j);
	for (size_t k = 0; k < a->nseries; k++) {
		json_key(j, a->series[k].name);
		json_cell(j, h, &r->cells[k]);
	}
	json_obj_end(j);
	json_obj_end(j);
}

static void json_counts(struct json *j, const struct audit_result *a, size_t k)
{
	struct audit_counts n;

	audit_count(a, k, &n);
	json_obj_begin(j);
	json_kint(j, "commits", (int64_t)a->nrows);
	json_kint(j, "marked_cc_stable", (int64_t)n.marked);
	json_kint(j, "fixes", (int64_t)n.by_word);
	json_kint(j, "possible_fixes", (int64_t)n.possible);
	json_kint(j, "not_a_fix", (int64_t)n.not_fix);
	json_kint(j, "candidates", (int64_t)n.candidates);
	json_kint(j, "needed_missing", (int64_t)n.missing);
	json_kint(j, "needed_missing_backported_culprit", (int64_t)n.missing_backported_culprit);
	json_kint(j, "possible_candidates", (int64_t)n.possible_needed);
	json_kint(j, "possible_missing", (int64_t)n.possible_missing);
	json_kint(j, "needed_reverted", (int64_t)n.reverted);
	json_kint(j, "not_needed", (int64_t)(n.unneeded_fix + n.unneeded_possible));
	json_kint(j, "not_needed_possible", (int64_t)n.unneeded_possible);
	json_kint(j, "unknown", (int64_t)n.unknown);
	json_kint(j, "present", (int64_t)n.present);
	json_kint(j, "present_by_upstream_line", (int64_t)n.by_line);
	json_kint(j, "present_not_a_fix", (int64_t)n.present_not_fix);
	json_obj_end(j);
}

static void print_json(const struct history *h, const struct audit_result *a,
		       const struct audit_report_opts *o)
{
	struct json j;

	json_document_begin(&j, stdout);
	json_key(&j, "audit");
	json_obj_begin(&j);
	json_kstr(&j, "range", o->range);
	/* the same reading as --triage --evidence text: blame-free, for speed */
	json_kstr(&j, "evidence", "text");
	json_key(&j, "series");
	json_arr_begin(&j);
	for (size_t k = 0; k < a->nseries; k++) {
		json_obj_begin(&j);
		json_kstr(&j, "series", a->series[k].name);
		json_kstr(&j, "base", a->series[k].base);
		json_kstr(&j, "tip", a->series[k].tip);
		json_kbool(&j, "stable_tags", a->series[k].stable_tags);
		json_obj_end(&j);
	}
	json_arr_end(&j);
	json_key(&j, "commits");
	json_arr_begin(&j);
	for (size_t i = 0; i < a->nrows; i++)
		if (audit_listed(a, &a->rows[i], o->only))
			json_row(&j, h, a, &a->rows[i]);
	json_arr_end(&j);
	json_key(&j, "summary");
	json_obj_begin(&j);
	for (size_t k = 0; k < a->nseries; k++) {
		json_key(&j, a->series[k].name);
		json_counts(&j, a, k);
	}
	json_obj_end(&j);
	json_obj_end(&j);
	json_obj_end(&j);
}

/* A series without stable tags here: what the audit says of it is partial. */
static void warn_untagged(const struct audit_series *s)
{
	if (s->stable_tags)
		return;
	if (strcmp(s->tip, s->base))
		fprintf(stderr, "patchver: warning: --series %s: no stable tag in this repository; "
			"its stable line is read from %s only\n", s->name, s->tip);
	else
		fprintf(stderr, "patchver: warning: --series %s: no stable tag or branch in this "
			"repository; only %s is judged, its stable line is unknown here\n",
			s->name, s->base);
}

int audit_report(struct history *h, const struct audit_report_opts *o)
{
	struct audit_opts ao = { o->range, o->series, o->needed_all };
	struct audit_result res;
	int ret;

	diag_show_counts(!o->json);
	ret = audit_run(&res, h, &ao);
	if (ret == PV_EINVALID)
		ret = pv_error_wrap(ret, "--series ");
	if (ret)
		return diag_exit(ret);
	for (size_t k = 0; k < res.nseries; k++)
		warn_untagged(&res.series[k]);
	if (o->json)
		print_json(h, &res, o);
	else
		print_text(h, &res, o);
	audit_result_free(&res);
	return 0;
}
