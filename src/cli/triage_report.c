/*
 * Printing matches and triages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/base/util.h"
#include "patchver/engine/naming.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/match.h"
#include "patchver/stable/triage.h"
#include "patchver/stable/verdict.h"
#include "patchver/cli/cve_report.h"
#include "patchver/cli/dyad_report.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/query_history.h"
#include "patchver/cli/triage_report.h"

/* What printing a run of triages needs: the history, its walks, the JSON document. */
struct triage_printer {
	struct history *h;
	const struct triage_opts *o;
	struct contain contain;
	struct naming naming;
	struct json json;
	bool *in_range;         /* --range mask, or NULL */
	int ret;
};

static const char *rel(const struct triage_printer *f, uint32_t tag)
{
	return tag == PV_NONE ? NULL : f->h->tags.v[tag].shortname;
}

static const char *hex12(const struct triage_printer *f, uint32_t c)
{
	static char buf[4][13];
	static int k;

	k = (k + 1) % 4;
	git_oid_tostr(buf[k], sizeof(buf[k]), &f->h->dag.oids[c]);
	return buf[k];
}

static const char *hex40(const struct triage_printer *f, uint32_t c)
{
	static char buf[2][GIT_OID_HEXSZ + 1];
	static int k;

	k = (k + 1) % 2;
	return git_oid_tostr(buf[k], sizeof(buf[k]), &f->h->dag.oids[c]);
}

static void commit_line(struct triage_printer *f, uint32_t c, const char *indent)
{
	char *subj = history_subject(f->h, c);
	uint32_t r = contain_first_release(&f->contain, c);

	printf("%s%s  %-12s  %s\n", indent, hex12(f, c), r == PV_NONE ? "(unreleased)" : rel(f, r), subj);
	free(subj);
}

/* "hunks 1, 2 (fs/namei.c)": which part of the fix a group is */
static void hunk_names(const struct triage *t, const struct triage_group *g)
{
	const char *last = NULL;

	printf("hunk%s ", g->nhunks == 1 ? "" : "s");
	for (size_t i = 0; i < g->nhunks; i++)
		printf("%s%u", i ? ", " : "", g->hunks[i] + 1);
	for (size_t i = 0; i < t->blame.nlines; i++) {
		const struct blamed_line *l = &t->blame.line[i];
		bool in = false;
		for (size_t k = 0; k < g->nhunks && !in; k++)
			in = g->hunks[k] == l->hunk;
		if (!in || (last && !strcmp(last, t->blame.paths[l->file])))
			continue;
		printf("%s%s", last ? ", " : " (", t->blame.paths[l->file]);
		last = t->blame.paths[l->file];
	}
	printf("%s", last ? ")" : "");
}

static void text_verdicts(struct triage_printer *f, const struct triage *t)
{
	const struct triage_group *g = &t->groups[0];

	printf("is it a fix:      %s: %s\n", t->fix_kind.cls == FIXCLASS_FIX ? "yes, by its own word" :
	       t->fix_kind.cls == FIXCLASS_POSSIBLE ? "possibly" : "no", t->fix_kind.reason);
	printf("verdict:          %s\n", g->verdict);
	if (g->by_lines)
		printf("                  [%s, from the lines it changes in each release "
		       "(--evidence text)]\n", confidence_name(g->conf));
	else
		printf("                  [%s, from %s evidence%s]\n", confidence_name(g->conf),
		       g->nintro ? evidence_kind_name(g->used) : "no",
		       g->cc_led ? " read with the message's Cc: stable" : "");
	if (t->cc_note)
		printf("                  %s\n", t->cc_note);
	if (t->ngroups < 2)
		return;
	printf("other parts of the fix, traced by blame (weaker evidence):\n");
	for (size_t i = 1; i < t->ngroups; i++) {
		printf("  ");
		hunk_names(t, &t->groups[i]);
		printf(" [%s]:\n    %s\n", confidence_name(t->groups[i].conf), t->groups[i].verdict);
	}
}

static void text_evidence(struct triage_printer *f, const struct triage *t)
{
	bool any = false;
	size_t shown = 0, blamed = 0;

	printf("introduced by:\n");
	for (size_t i = 0; i < t->ev.nr; i++) {
		const struct evidence *e = &t->ev.v[i];
		if (e->kind == EV_BLAME)
			continue;
		any = true;
		printf("  %-15s ", e->kind == EV_NAMED ? e->phrase : evidence_kind_name(e->kind));
		if (e->commit == PV_NONE) {
			printf("%s (not resolved: %s)\n",
			       *e->ref ? e->ref : e->claimed_subject ? e->claimed_subject : "",
			       e->unresolved ? e->unresolved : "not in this repository");
			for (unsigned k = 0; k < e->ambiguity.ncandidates; k++)
				commit_line(f, e->ambiguity.candidates[k], "    could be    ");
			continue;
		}
		commit_line(f, e->commit, "");
		if (e->not_ancestor)
			printf("  %-15s   not below the fix: it cannot have introduced the bug\n", "");
		if (e->subject_mismatch)
			printf("  %-15s   the %s says (\"%s\")\n", "",
			       e->kind == EV_FIXES ? "trailer" : "message", e->claimed_subject);
	}
	if (!any)
		printf("  (the message names no culprit: no Fixes:, \"introduced by\" or commit mention)\n");
	if (f->o->evidence == EVIDENCE_TEXT) {
		printf("last changed by:  (not read: --evidence text is blame-free)\n");
		return;
	}
	printf("last changed by (blame at the fix's parent, %u lines%s):\n", t->blame_lines,
	       t->groups[0].used == EV_GIVEN ? "; not used: the introducers are given" : "");
	for (size_t i = 0; i < t->ev.nr; i++) {
		const struct evidence *e = &t->ev.v[i];
		if (e->kind != EV_BLAME)
			continue;
		if (blamed++ >= 12 && !(e->lines.removed + e->lines.neighbour))
			continue;
		printf("  %2u removed %2u beside %2u context  ", e->lines.removed,
		       e->lines.neighbour, e->lines.context);
		commit_line(f, e->commit, "");
		shown++;
		if (e->merge)
			printf("  %33s(a merge: the lines came in with it, not the bug)\n", "");
	}
	if (blamed > shown)
		printf("  (%zu more, context lines only)\n", blamed - shown);
}

/* affected releases: consecutive ones in version order as a range */
static void text_affected(struct triage_printer *f, const struct triage *t,
			  const struct triage_group *g)
{
	printf("affected:         ");
	/* not a fix: no bug to have; where its lines are is said, not claimed as a bug */
	if (t->fix_kind.cls == FIXCLASS_NOT_FIX) {
		printf("none: not a fix");
		if (g->naffected)
			printf(" (the lines it changes are in %s%s%s, %zu release%s)",
			       rel(f, g->affected[0]), g->naffected > 1 ? " \u2026 " : "",
			       g->naffected > 1 ? rel(f, g->affected[g->naffected - 1]) : "",
			       g->naffected, g->naffected > 1 ? "s" : "");
		printf("\n");
		return;
	}
	if (!g->naffected)
		printf("no release\n");
	else if (g->naffected <= 8) {
		for (size_t i = 0; i < g->naffected; i++)
			printf("%s%s", i ? " " : "", rel(f, g->affected[i]));
		printf("\n");
	} else {
		printf("%s \u2026 %s (%zu releases)\n", rel(f, g->affected[0]),
		       rel(f, g->affected[g->naffected - 1]), g->naffected);
	}
}

/* Add commit to v[*n] unless there. */
static void add_once(uint32_t *v, size_t *n, uint32_t commit)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == commit)
			return;
	v[(*n)++] = commit;
}

/*
 * The stable commits an answer rests on, each once: the fix's backports,
 * the culprits' backports the series rows name, and those the map lacks.
 */
static size_t answer_commits(const struct triage *t, uint32_t **out)
{
	const struct triage_group *g = &t->groups[0];
	size_t n = 0;

	*out = xmalloc((t->nbackports + g->nseries + t->nintro_extra + 1) * sizeof(**out));
	for (size_t i = 0; i < t->nbackports; i++)
		add_once(*out, &n, t->backports[i]);
	for (size_t i = 0; i < g->nseries; i++)
		if (g->series[i].intro_backport != PV_NONE)
			add_once(*out, &n, g->series[i].intro_backport);
	for (size_t i = 0; i < t->nintro_extra; i++)
		add_once(*out, &n, t->intro_extra[i].commit);
	return n;
}

/*
 * What a reader of the answer must know about the stable commits it rests
 * on: a message naming an id that is no commit, an ambiguous one, or
 * several upstream commits; a culprit's backport queued on a stable branch
 * no tag has reached yet.
 */
static void text_stable_notes(struct triage_printer *f, const struct triage *t)
{
	uint32_t *commits;
	size_t n = answer_commits(t, &commits), nn;

	for (size_t i = 0; i < n; i++) {
		const struct backport_note *bn = carriers_notes(&t->carriers, commits[i], &nn);
		for (size_t k = 0; k < nn; k++)
			printf("note:             %s %s%s%s%s\n", hex12(f, commits[i]),
			       backport_problem_str(bn[k].problem),
			       bn[k].problem == BACKPORT_SEVERAL ? "" : " (",
			       bn[k].problem == BACKPORT_SEVERAL ? "" : bn[k].hex,
			       bn[k].problem == BACKPORT_SEVERAL ? "" : ")");
	}
	for (size_t i = 0; i < t->groups[0].nseries; i++) {
		const struct series *s = &t->groups[0].series[i];
		if (s->on_mainline != PV_NONE)
			printf("note:             %s is a commit mainline also reaches (%s contains it): "
			       "%s.y's answer follows mainline there\n", rel(f, s->on_mainline),
			       rel(f, s->mainline_by), s->name);
	}
	for (size_t i = 0; i < t->nintro_extra; i++)
		if (t->intro_extra[i].tag == PV_NONE)
			printf("note:             culprit %s is queued for stable as %s, "
			       "on a stable branch no tag has reached: the fix should follow it\n",
			       hex12(f, t->intro_extra[i].upstream), hex12(f, t->intro_extra[i].commit));
	free(commits);
}

/* The series of a stable commit no tag has yet: that of the newest released commit below it. */
static void queued_series(struct triage_printer *f, uint32_t commit, char *buf, size_t len)
{
	uint32_t rel;
	unsigned np;
	const uint32_t *p;

	*buf = '\0';
	while ((rel = contain_first_release(&f->contain, commit)) == PV_NONE) {
		p = dag_parents(&f->h->dag, commit, &np);
		if (!np)
			return;
		commit = p[0];
	}
	kver_series(&f->h->tags.v[rel].ver, buf, len);
}

static void json_stable_notes(struct triage_printer *f, const struct triage *t)
{
	struct json *j = &f->json;
	uint32_t *commits;
	size_t n = answer_commits(t, &commits), nn;

	json_key(j, "stable_notes");
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++) {
		const struct backport_note *bn = carriers_notes(&t->carriers, commits[i], &nn);
		for (size_t k = 0; k < nn; k++) {
			json_obj_begin(j);
			json_kstr(j, "commit", hex40(f, commits[i]));
			json_kstr(j, "problem", backport_problem_str(bn[k].problem));
			json_kstr(j, "id", bn[k].hex);
			json_obj_end(j);
		}
	}
	json_arr_end(j);
	json_key(j, "queued_culprits");
	json_arr_begin(j);
	for (size_t i = 0; i < t->nintro_extra; i++) {
		char series[32];
		if (t->intro_extra[i].tag != PV_NONE)
			continue;
		queued_series(f, t->intro_extra[i].commit, series, sizeof(series));
		json_obj_begin(j);
		json_kstr(j, "culprit", hex40(f, t->intro_extra[i].upstream));
		json_kstr(j, "backport", hex40(f, t->intro_extra[i].commit));
		json_kstr(j, "series", *series ? series : NULL);
		json_obj_end(j);
	}
	json_arr_end(j);
	free(commits);
}

/* A series the bug reached through a stable backport, or whose fix came early. */
static bool backport_story(const struct series *s)
{
	return s->intro_backport != PV_NONE || s->together || s->fix_before || s->fix_alone;
}

/* "applies to v2.6.34.6: after 2 prerequisites (107c32fe68f0, e96d3127760a)" */
static void ready_line(struct triage_printer *f, const struct series *s)
{
	char *words = ready_summary_words(&s->ready);
	uint32_t tag = s->tags[s->ntags - 1];

	printf("             applies to %s: %s", rel(f, tag), words);
	if (s->ready.answer == READY_ALREADY)
		printf(" (%s, %s)", hex12(f, s->ready.already_by), s->ready.already_how);
	for (size_t k = 0; k < s->ready.nprereqs; k++)
		printf("%s%s", k ? ", " : " (", hex12(f, s->ready.prereqs[k]));
	printf("%s\n", s->ready.nprereqs ? ")" : "");
	free(words);
}

static void series_row(struct triage_printer *f, const struct series *s)
{
	if (s->together) {
		printf("not affected: culprit %s and fix backported together in %s%s\n",
		       hex12(f, s->intro_upstream), rel(f, s->intro_tag), s->fix_before ?
		       " (a backport of the fix had come before it)" : "");
		return;
	}
	if (!s->affected && s->twin != PV_NONE) {
		printf("not affected: %s has the fix as mainline's %s (same patch-id)\n",
		       rel(f, s->fixed_in), hex12(f, s->twin));
		return;
	}
	if (!s->affected) {
		printf("not affected%s%s\n", s->fix_before ?
		       " (the fix was backported before its culprit)" : s->fix_alone ?
		       " (the fix was backported; its culprit never was)" : "",
		       s->maintained ? "" : "; its stable line unknown here (no tags)");
		return;
	}
	printf("affected %s", rel(f, s->first_affected));
	if (s->last_affected != s->first_affected)
		printf("..%s", rel(f, s->last_affected));
	if (s->intro_backport != PV_NONE)
		printf(" (culprit %s as %s%s since %s%s)", hex12(f, s->intro_upstream),
		       hex12(f, s->intro_backport), s->intro_by_patchid ? " (same patch-id)" : "",
		       rel(f, s->intro_tag),
		       s->fix_before ? "; the fix's backport came first" : "");
	if (s->fixed_in != PV_NONE)
		printf(", fixed in %s%s%s%s\n", rel(f, s->fixed_in),
		       s->fixed_by_backport ? " by backport " : s->twin != PV_NONE ?
		       " by mainline's " : "",
		       s->fixed_by_backport && s->backport != PV_NONE ?
		       hex12(f, s->backport) : s->twin != PV_NONE ? hex12(f, s->twin) : "",
		       s->twin != PV_NONE ? " (same patch-id)" : "");
	else if (s->maintained)
		printf(", no fix yet\n");
	else
		printf("; its stable line unknown here (no %s.y tags)\n", s->name);
	if (s->ready.checked)
		ready_line(f, s);
}

/* Not affected and no backport story: a row that may join its neighbours'. */
static bool plain_unaffected(const struct series *s)
{
	return !s->affected && !backport_story(s) && s->twin == PV_NONE;
}

/* Series in a row that are not affected collapse into one line. */
static void text_series(struct triage_printer *f, const struct triage_group *g)
{
	printf("stable series:\n");
	for (size_t i = 0; i < g->nseries;) {
		const struct series *s = &g->series[i];
		size_t j = i;

		/* a run of them, alike in whether this repository has their stable tags */
		if (plain_unaffected(s))
			while (j + 1 < g->nseries && plain_unaffected(&g->series[j + 1]) &&
			       g->series[j + 1].maintained == s->maintained)
				j++;
		if (j > i)
			printf("  %s \u2026 %s  not affected (%zu series%s)\n", s->name,
			       g->series[j].name, j - i + 1,
			       s->maintained ? "" : "; their stable lines unknown here: no tags");
		else {
			printf("  %-10s ", s->name);
			series_row(f, s);
		}
		i = j + 1;
	}
}

static void print_triage_text(struct triage_printer *f, const struct triage *t)
{
	const struct triage_group *g = &t->groups[0];

	printf("fix:              ");
	commit_line(f, t->fix, "");
	text_verdicts(f, t);
	text_evidence(f, t);
	text_affected(f, t, g);
	if (t->fix_kind.cls == FIXCLASS_NOT_FIX)
		printf("stable series:    not judged: not a fix\n");
	else
		text_series(f, g);
	printf("backports:        %s\n", t->nbackports ? "" : "none found");
	for (size_t i = 0; i < t->nbackports; i++) {
		uint32_t revert = carriers_revert_of(&t->carriers, t->backports[i]);
		commit_line(f, t->backports[i], "  ");
		if (revert != PV_NONE)
			printf("    reverted in %s by %s\n", rel(f, contain_first_release(&f->contain, revert)), hex12(f, revert));
	}
	text_stable_notes(f, t);
}

/* key: the commit as an object under key (NULL: an array's element) */
static void json_commit(struct triage_printer *f, const char *key, uint32_t c)
{
	char hex[GIT_OID_HEXSZ + 1];
	char *subj;

	if (key)
		json_key(&f->json, key);
	if (c == PV_NONE) {
		json_null(&f->json);
		return;
	}
	subj = history_subject(f->h, c);
	git_oid_tostr(hex, sizeof(hex), &f->h->dag.oids[c]);
	json_obj_begin(&f->json);
	json_kstr(&f->json, "commit", hex);
	json_kstr(&f->json, "subject", subj);
	json_kstr(&f->json, "first_release", rel(f, contain_first_release(&f->contain, c)));
	json_obj_end(&f->json);
	free(subj);
}

/* Is evidence i an introducer of a group (what the verdicts were made of)? */
static bool evidence_used(const struct triage *t, size_t i)
{
	for (size_t g = 0; g < t->ngroups; g++)
		for (size_t k = 0; k < t->groups[g].nintro; k++)
			if (t->groups[g].intro[k] == i)
				return true;
	return false;
}

static void json_evidence(struct triage_printer *f, const struct triage *t)
{
	struct json *j = &f->json;

	json_key(j, "evidence");
	json_arr_begin(j);
	for (size_t i = 0; i < t->ev.nr; i++) {
		const struct evidence *e = &t->ev.v[i];
		json_obj_begin(j);
		json_kstr(j, "kind", evidence_kind_key(e->kind));
		json_kstr(j, "ref", e->ref);
		json_commit(f, "target", e->commit);
		if (e->phrase)
			json_kstr(j, "phrase", e->phrase);
		if (e->unresolved)
			json_kstr(j, "unresolved", e->unresolved);
		if (e->ambiguity.ncandidates) {
			json_key(j, "candidates");
			json_arr_begin(j);
			for (unsigned k = 0; k < e->ambiguity.ncandidates; k++)
				json_commit(f, NULL, e->ambiguity.candidates[k]);
			json_arr_end(j);
		}
		if (e->claimed_subject)
			json_kstr(j, "claimed_subject", e->claimed_subject);
		json_kbool(j, "subject_mismatch", e->subject_mismatch);
		json_kbool(j, "not_ancestor", e->not_ancestor);
		json_kbool(j, "merge", e->merge);
		json_kbool(j, "used", evidence_used(t, i));
		if (e->kind == EV_BLAME) {
			json_kint(j, "removed_lines", e->lines.removed);
			json_kint(j, "neighbour_lines", e->lines.neighbour);
			json_kint(j, "context_lines", e->lines.context);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
}

/* "readiness": the fix on the row's newest tag, where the series lacks it (null: not asked) */
static void json_ready(struct triage_printer *f, const struct series *s)
{
	struct json *j = &f->json;

	json_key(j, "readiness");
	if (!s->ready.checked) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kstr(j, "onto", rel(f, s->tags[s->ntags - 1]));
	json_kstr(j, "answer", ready_answer_name(s->ready.answer));
	json_kstr(j, "applies", apply_how_name(s->ready.how));
	json_key(j, "prerequisites");
	json_arr_begin(j);
	for (size_t k = 0; k < s->ready.nprereqs; k++)
		json_str(j, hex40(f, s->ready.prereqs[k]));
	json_arr_end(j);
	json_kbool(j, "adapted", s->ready.adapted);
	json_kstr(j, "already_in", s->ready.answer == READY_ALREADY ? hex40(f, s->ready.already_by) : NULL);
	json_kstr(j, "already_how", s->ready.answer == READY_ALREADY ? s->ready.already_how : NULL);
	json_kint(j, "conflicts", (int64_t)s->ready.nconflicts);
	json_obj_end(j);
}

static void json_series(struct triage_printer *f, const struct triage_group *g)
{
	struct json *j = &f->json;

	json_key(j, "series");
	json_arr_begin(j);
	for (size_t i = 0; i < g->nseries; i++) {
		const struct series *s = &g->series[i];
		json_obj_begin(j);
		json_kstr(j, "series", s->name);
		json_kstr(j, "newest_tag", s->ntags ? rel(f, s->tags[s->ntags - 1]) : NULL);
		json_kbool(j, "affected", s->affected);
		json_kbool(j, "maintained", s->maintained);
		json_kstr(j, "first_affected", rel(f, s->first_affected));
		json_kstr(j, "last_affected", rel(f, s->last_affected));
		json_kstr(j, "fixed_in", rel(f, s->fixed_in));
		json_kbool(j, "fixed_by_backport", s->fixed_by_backport);
		/* the same change merged twice: mainline's other copy fixed it */
		json_kstr(j, "fixed_by_twin", s->twin == PV_NONE ? NULL : hex40(f, s->twin));
		/* how the bug came into the series: its base release, or a backport */
		json_kstr(j, "culprit_in", rel(f, s->intro_tag));
		json_kstr(j, "culprit", s->intro_upstream == PV_NONE ? NULL : hex40(f, s->intro_upstream));
		json_kstr(j, "culprit_backport", s->intro_backport == PV_NONE ? NULL :
			  hex40(f, s->intro_backport));
		json_kstr(j, "culprit_backport_by", s->intro_backport == PV_NONE ? NULL :
			  s->intro_by_patchid ? "patch-id" : "upstream line");
		json_kbool(j, "together", s->together);
		json_kbool(j, "fix_before_culprit", s->fix_before);
		json_kbool(j, "fix_without_culprit", s->fix_alone);
		json_kstr(j, "stable_tag_on_mainline", s->on_mainline == PV_NONE ? NULL : rel(f, s->on_mainline));
		json_ready(f, s);
		json_obj_end(j);
	}
	json_arr_end(j);
}


/* One group's verdict: its hunks, evidence, confidence and releases. */
static void json_group(struct triage_printer *f, const struct triage *t,
		       const struct triage_group *g)
{
	struct json *j = &f->json;

	json_key(j, "hunks");
	json_arr_begin(j);
	for (size_t i = 0; i < g->nhunks; i++)
		json_int(j, g->hunks[i] + 1);
	json_arr_end(j);
	json_kstr(j, "evidence_used", g->nintro ? evidence_kind_key(g->used) :
		  g->by_lines ? "lines" : NULL);
	json_kbool(j, "cc_stable_led", g->cc_led);
	json_kstr(j, "confidence", confidence_name(g->conf));
	json_key(j, "introducers");
	json_arr_begin(j);
	for (size_t i = 0; i < g->nintro; i++) {
		json_obj_begin(j);
		json_commit(f, "commit", t->ev.v[g->intro[i]].commit);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_kstr(j, "blame_oldest", rel(f, g->oldest));
	json_kstr(j, "blame_newest", rel(f, g->newest));
	json_key(j, "affected");
	json_arr_begin(j);
	for (size_t i = 0; i < g->naffected; i++)
		json_str(j, rel(f, g->affected[i]));
	json_arr_end(j);
	json_kstr(j, "verdict", g->verdict);
}

static void print_triage_json(struct triage_printer *f, const struct triage *t)
{
	struct json *j = &f->json;

	json_commit(f, "fix", t->fix);
	json_kstr(j, "class", triage_class_key(t->cls));
	/* mainline took it back out: the class says not for stable */
	json_commit(f, "mainline_revert", t->mainline_revert);
	json_key(j, "fix_class");
	json_obj_begin(j);
	triage_report_fix_json(j, &t->fix_kind);
	json_obj_end(j);
	json_evidence(f, t);
	/* the headline group at the top level; every group under "groups" */
	json_group(f, t, &t->groups[0]);
	json_series(f, &t->groups[0]);
	json_key(j, "backports");
	json_arr_begin(j);
	for (size_t i = 0; i < t->nbackports; i++) {
		json_obj_begin(j);
		json_commit(f, "commit", t->backports[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_stable_notes(f, t);
	json_key(j, "cc_stable");
	json_obj_begin(j);
	json_kbool(j, "present", t->ev.cc_stable);
	json_kstr(j, "hint", *t->ev.cc_hint ? t->ev.cc_hint : NULL);
	json_kstr(j, "note", t->cc_note);
	json_obj_end(j);
	json_key(j, "groups");
	json_arr_begin(j);
	for (size_t i = 0; i < t->ngroups; i++) {
		json_obj_begin(j);
		json_group(f, t, &t->groups[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void do_triage(struct triage_printer *f, uint32_t fix, const struct patch *mail,
		      const struct triage_given *given)
{
	struct triage t;
	int ret = diag_exit(triage_run_given(&t, f->h, &f->contain, fix, mail, f->o->evidence,
					     given));

	if (ret) {
		if (!f->ret)
			f->ret = ret;
	} else if (f->o->cve_json) {
		json_commit(f, "fix", t.fix);
		struct cve_opts co = { .repo = f->o->cve_repo, .measured = PV_NONE };
		cve_report_write(&f->json, f->h, &f->contain, &t, &co);
	} else if (f->o->dyad) {
		dyad_report_write(stdout, f->h, &f->contain, &t);
	} else if (f->o->cve_record) {
		struct cve_opts co = { .repo = f->o->cve_repo, .measured = PV_NONE,
				       .cve_id = f->o->cve_id, .org_id = f->o->org_id };
		json_init(&f->json, stdout);    /* JSON lines: each record a document */
		cve_report_record(&f->json, f->h, &f->contain, &t, &co);
	} else if ((ret = diag_exit(triage_readiness(&t, f->h)))) {
		if (!f->ret)
			f->ret = ret;
	} else if (f->o->json) {
		print_triage_json(f, &t);
	} else {
		print_triage_text(f, &t);
	}
	triage_free(&t);
}

static void printer_init(struct triage_printer *f, struct history *h, const struct triage_opts *o)
{
	memset(f, 0, sizeof(*f));
	f->h = h;
	f->o = o;
	history_load_branches(h);
	contain_init(&f->contain, h);
	naming_init(&f->naming, h, NULL);
	json_init(&f->json, stdout);
	if (o->json && !o->patch_id) {
		json_document_begin(&f->json, stdout);
		json_key(&f->json, "results");
		json_arr_begin(&f->json);
	}
}

static int printer_done(struct triage_printer *f)
{
	if (f->o->json && !f->o->patch_id) {
		json_arr_end(&f->json);
		json_obj_end(&f->json);
	}
	contain_free(&f->contain);
	naming_free(&f->naming);
	return f->ret;
}

/*
 * A stable commit is triaged as the upstream commit it carries: its own
 * diff is an adaptation, its place in the history a stable line's.  Said
 * first; returns the commit to triage.
 */
static uint32_t upstream_of_input(struct triage_printer *f, uint32_t c)
{
	uint32_t up, first = contain_first_release(&f->contain, c);
	char hex[41], series[32] = "a stable branch";

	if (!backport_upstream_of(f->h, &f->contain, c, &up, hex))
		return c;
	/* a backport of another line's backport: on to mainline's commit */
	for (int hop = 0; hop < 4 && up != PV_NONE; hop++) {
		uint32_t next;
		char next_hex[41];
		if (!backport_upstream_of(f->h, &f->contain, up, &next, next_hex) || next == PV_NONE)
			break;
		up = next;
		memcpy(hex, next_hex, sizeof(next_hex));
	}
	if (first != PV_NONE) {
		kver_series(&f->h->tags.v[first].ver, series, sizeof(series) - 2);
		strcat(series, ".y");
	}
	if (f->o->json) {
		json_key(&f->json, "stable_input");
		json_obj_begin(&f->json);
		json_kstr(&f->json, "commit", hex40(f, c));
		json_kstr(&f->json, "series", series);
		json_kstr(&f->json, "release", rel(f, first));
		json_kstr(&f->json, "upstream_ref", hex);
		json_kbool(&f->json, "upstream_found", up != PV_NONE);
		json_obj_end(&f->json);
	} else if (up != PV_NONE) {
		printf("stable input:     %s's %s is a backport of %s; triage of the upstream\n",
		       series, hex12(f, c), hex12(f, up));
	} else {
		printf("stable input:     %s's %s names upstream %s, which is not in this "
		       "repository; triaged as itself\n", series, hex12(f, c), hex);
	}
	return up != PV_NONE ? up : c;
}

/* The fix's triage with the given introducers (ids, NULL-terminated), if any. */
static void triage_one(struct triage_printer *f, uint32_t fix, char *const *ids)
{
	struct triage_given given = { NULL, 0 };
	uint32_t *commits = NULL;
	int ret;

	if (ids && (ret = diag_exit(triage_given_resolve(f->h, fix, ids, &commits, &given.n)))) {
		if (!f->ret)
			f->ret = ret;
	} else {
		given.commits = commits;
		do_triage(f, fix, NULL, given.n ? &given : NULL);
	}
	free(commits);
}

/* One revision's triage (its i-th): its upstream's, when it is a stable commit. */
static void triage_rev(struct triage_printer *f, const char *rev, char *const *ids, size_t i)
{
	const struct triage_opts *o = f->o;
	struct rev r;
	int ret = diag_exit(rev_resolve(&r, f->h->repo, &f->h->dag, rev));
	git_oid id;

	if (ret) {
		if (!f->ret)
			f->ret = ret;
		return;
	}
	if (o->patch_id) {
		if (patch_id_of_commit(f->h->repo, &r.oid, &id)) {
			char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
			printf("%s %s\n", git_oid_tostr(a, sizeof(a), &id),
			       git_oid_tostr(b, sizeof(b), &r.oid));
		}
		return;
	}
	if (o->json) {
		json_obj_begin(&f->json);
		json_kstr(&f->json, "rev", rev);
	} else if (i && !o->dyad && !o->cve_record) {   /* their own lines part them */
		putchar('\n');
	}
	triage_one(f, upstream_of_input(f, r.commit), ids);
	if (o->json)
		json_obj_end(&f->json);
	fflush(stdout);
}

int triage_revs(struct history *h, const struct triage_opts *o,
		const char **revs, size_t nrevs)
{
	struct triage_printer f;

	printer_init(&f, h, o);
	for (size_t i = 0; i < nrevs; i++)
		triage_rev(&f, revs[i], o->introducers, i);
	return printer_done(&f);
}

/* The words of line, split at blanks, NULL-terminated; *n of them. */
static char **words(char *line, size_t *n)
{
	char **v = xmalloc(sizeof(*v) * (strlen(line) / 2 + 2));

	*n = 0;
	for (char *w = strtok(line, " \t\r\n"); w; w = strtok(NULL, " \t\r\n"))
		v[(*n)++] = w;
	v[*n] = NULL;
	return v;
}

int triage_stdin(struct history *h, const struct triage_opts *o, FILE *in)
{
	struct triage_printer f;
	char *line = NULL;
	size_t alloc = 0, nfix = 0, lineno = 0;

	printer_init(&f, h, o);
	while (getline(&line, &alloc, in) > 0) {
		size_t n;
		char **w = words(line, &n);

		lineno++;
		if (!n || w[0][0] == '#') {
			free(w);
			continue;
		}
		for (size_t k = 1; k < n; k++)
			if (!strcmp(w[k], "none") && n > 2) {
				diag_exit(pv_error_set(PV_EINVALID, "standard input, line %zu: "
						       "'none' says the bug is as old as the history: "
						       "no other introducer goes with it", lineno));
				if (!f.ret)
					f.ret = EXIT_USAGE;
				n = 0;
			}
		if (n)
			triage_rev(&f, w[0], n > 1 ? w + 1 : NULL, nfix++);
		free(w);
	}
	free(line);
	return printer_done(&f);
}

static void print_match_text(struct triage_printer *f, const struct patch *p, const struct match *m)
{
	bool listed = false;

	printf("patch:            %s\n", p->subject ? p->subject : "(no subject)");
	printf("patch-id:         %s\n", p->has_patchid ? git_oid_tostr_s(&p->patchid) : "(no diff)");
	printf("match:            %s\n", match_kind_name(m->kind));
	if (*m->upstream_ref && (m->upstream == PV_NONE ||
				 strncmp(hex40(f, m->upstream), m->upstream_ref, strlen(m->upstream_ref))))
		printf("names upstream:   %s (not in this repository)\n", m->upstream_ref);
	for (size_t i = 0; i < m->nr; i++) {
		commit_line(f, m->commits[i], m->commits[i] == m->upstream ? "  upstream  " : "  also      ");
		listed |= m->commits[i] == m->upstream;
	}
	if (!listed && m->upstream != PV_NONE)
		commit_line(f, m->upstream, "  upstream  ");   /* named by the mail */
}

static void print_match_json(struct triage_printer *f, const struct patch *p, const struct match *m)
{
	struct json *j = &f->json;

	json_kstr(j, "subject", p->subject);
	json_kstr(j, "author", p->author);
	json_kstr(j, "patch_id", p->has_patchid ? git_oid_tostr_s(&p->patchid) : NULL);
	json_kstr(j, "match", match_kind_name(m->kind));
	json_key(j, "matches");
	json_arr_begin(j);
	for (size_t i = 0; i < m->nr; i++) {
		json_obj_begin(j);
		json_commit(f, "commit", m->commits[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_commit(f, "upstream", m->upstream);
	json_kstr(j, "upstream_ref", *m->upstream_ref ? m->upstream_ref : NULL);
}

static void one_message(struct triage_printer *f, const struct patch *p, size_t i)
{
	struct match m;

	if (f->o->patch_id) {
		if (p->has_patchid)
			printf("%s %040d\n", git_oid_tostr_s(&p->patchid), 0);
		return;
	}
	match_patch(f->h, &f->contain, p, f->in_range, &m);
	if (f->o->json) {
		json_obj_begin(&f->json);
		print_match_json(f, p, &m);
	} else {
		if (i)
			putchar('\n');
		print_match_text(f, p, &m);
	}
	if (m.upstream == PV_NONE && !f->ret)
		f->ret = EXIT_NO_MATCH;
	if (!f->o->triage && !f->o->json && m.upstream != PV_NONE) {
		/* then the same answers as `patchver <rev>` */
		struct report_opts ro = { REPORT_FULL, false, NULL };
		const char *rev = git_oid_tostr_s(&f->h->dag.oids[m.upstream]);
		putchar('\n');
		fflush(stdout);
		report_revs(f->h, &ro, &rev, 1);
	}
	if (f->o->triage && m.upstream != PV_NONE) {
		if (!f->o->json)
			putchar('\n');
		do_triage(f, m.upstream, p, NULL);
	}
	if (f->o->json)
		json_obj_end(&f->json);
	match_free(&m);
}

int triage_patch_file(struct history *h, const struct triage_opts *o, const char *path)
{
	struct patch_set set;
	struct triage_printer f;
	int ret = diag_exit(patch_read_file(&set, path));

	if (ret)
		return ret;
	if (!set.nr) {
		patch_set_free(&set);
		return error(EXIT_INPUT, "no mail or diff found in '%s'", path);
	}
	printer_init(&f, h, o);
	if (o->range && (ret = match_range(h, o->range, &f.in_range))) {
		patch_set_free(&set);
		printer_done(&f);
		return ret;
	}
	for (size_t i = 0; i < set.nr; i++)
		one_message(&f, &set.v[i], i);
	patch_set_free(&set);
	free(f.in_range);
	return printer_done(&f);
}

void triage_report_fix_json(struct json *j, const struct fix_kind *v)
{
	json_kstr(j, "class", fixclass_key(v->cls));
	json_kstr(j, "class_reason", v->reason);
	json_kstr(j, "fix_word", fixword_key(v->word));
	json_key(j, "signals");
	json_arr_begin(j);
	for (unsigned i = 0; i < FIXSIG_COUNT; i++)
		if (v->signals & (1u << i))
			json_str(j, fixsig_key(1u << i));
	json_arr_end(j);
	json_kstr(j, "shape", fixshape_key(v->shape));
	json_key(j, "score");
	if (v->cls != FIXCLASS_FIX && v->features)
		json_int(j, v->score);
	else
		json_null(j);
	json_key(j, "features");
	json_arr_begin(j);
	for (unsigned i = 0; i < FIXFEAT_COUNT; i++)
		if (v->features & (1u << i))
			json_str(j, fixfeat_key((enum fix_feature)i));
	json_arr_end(j);
}
