/*
 * Printing matches and triages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/stable/match.h"
#include "patchver/engine/naming.h"
#include "patchver/cli/report.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/triage.h"
#include "patchver/cli/triage_report.h"
#include "patchver/base/util.h"

#define NONE UINT32_MAX
#define SCHEMA_VERSION 1

struct front {
	struct history *h;
	const struct triage_opts *o;
	struct contain contain;
	struct naming naming;
	struct json json;
	bool *in_range;         /* --range mask, or NULL */
	int ret;
};

static const char *rel(const struct front *f, uint32_t tag)
{
	return tag == NONE ? NULL : f->h->tags.v[tag].shortname;
}

static const char *hex12(const struct front *f, uint32_t c)
{
	static char buf[4][13];
	static int k;

	k = (k + 1) % 4;
	git_oid_tostr(buf[k], sizeof(buf[k]), &f->h->dag.oids[c]);
	return buf[k];
}

static void commit_line(struct front *f, uint32_t c, const char *indent)
{
	char *subj = history_subject(f->h, c);
	uint32_t r = contain_first_release(&f->contain, c);

	printf("%s%s  %-12s  %s\n", indent, hex12(f, c), r == NONE ? "(unreleased)" : rel(f, r), subj);
	free(subj);
}

static const char *kind_name(enum evidence_kind k)
{
	return k == EV_FIXES ? "Fixes:" : k == EV_MENTION ? "commit mention" : "blame";
}

static void text_evidence(struct front *f, const struct triage *t)
{
	bool any = false;

	printf("introduced by:\n");
	for (size_t i = 0; i < t->nev; i++) {
		const struct evidence *e = &t->ev[i];
		if (e->kind == EV_BLAME)
			continue;
		any = true;
		printf("  %-15s ", kind_name(e->kind));
		if (e->commit == DAG_NONE) {
			printf("%s (not in this repository)\n", e->ref);
			continue;
		}
		commit_line(f, e->commit, "");
		if (e->subject_mismatch)
			printf("  %-15s   the trailer says (\"%s\")\n", "", e->claimed_subject);
	}
	if (!any)
		printf("  (no Fixes: trailer or commit mention)\n");
	printf("last changed by (blame at the fix's parent, %u lines):\n", t->blame_lines);
	for (size_t i = 0; i < t->nev; i++) {
		const struct evidence *e = &t->ev[i];
		if (e->kind != EV_BLAME)
			continue;
		printf("  %2u removed %2u beside %2u context  ", e->lines.removed,
		       e->lines.neighbour, e->lines.context);
		commit_line(f, e->commit, "");
		if (e->merge)
			printf("  %33s(a merge: the lines came in with it, not the bug)\n", "");
	}
	printf("evidence used:    %s\n", t->have_introducers ? kind_name(t->used) : "none");
}

static void text_series(struct front *f, const struct triage *t)
{
	printf("stable series:\n");
	for (size_t i = 0; i < t->nseries; i++) {
		const struct series *s = &t->series[i];
		printf("  %-10s ", s->name);
		if (!s->affected)
			printf("not affected\n");
		else if (s->first_affected == NONE)
			printf("fixed in %s before release\n", rel(f, s->fixed_in));
		else {
			printf("affected %s", rel(f, s->first_affected));
			if (s->last_affected != s->first_affected)
				printf("..%s", rel(f, s->last_affected));
			if (s->fixed_in != NONE)
				printf(", fixed in %s%s%s\n", rel(f, s->fixed_in),
				       s->fixed_by_backport ? " by backport " : "",
				       s->fixed_by_backport && s->backport != DAG_NONE ?
				       hex12(f, s->backport) : "");
			else
				printf(", no fix yet\n");
		}
	}
}

static void text_fits(struct front *f, const struct triage *t)
{
	if (!t->fits)
		return;
	printf("applies to:\n");
	for (size_t i = 0; i < t->naffected; i++) {
		const struct release_fit *fit = &t->fits[i];
		printf("  %-14s %s\n", rel(f, fit->tag), fit->applies ? "yes" :
		       fit->nprereqs ? "no; first needs:" : "no");
		for (size_t k = 0; k < fit->nprereqs; k++)
			commit_line(f, fit->prereqs[k], "    ");
	}
}

static void print_triage_text(struct front *f, const struct triage *t)
{
	printf("fix:              ");
	commit_line(f, t->fix, "");
	text_evidence(f, t);
	printf("affected:         ");
	for (size_t i = 0; i < t->naffected; i++)
		printf("%s%s", i ? " " : "", rel(f, t->affected[i]));
	printf("%s\n", t->naffected ? "" : "no release");
	text_series(f, t);
	printf("backports:        %s\n", t->nbackports ? "" : "none found");
	for (size_t i = 0; i < t->nbackports; i++)
		commit_line(f, t->backports[i], "  ");
	text_fits(f, t);
	printf("verdict:          %s\n", t->verdict);
	if (t->cc_note)
		printf("                  %s\n", t->cc_note);
}

static void json_commit(struct front *f, const char *key, uint32_t c)
{
	char hex[GIT_OID_HEXSZ + 1];
	char *subj;

	json_key(&f->json, key);
	if (c == DAG_NONE) {
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

static void json_evidence(struct front *f, const struct triage *t)
{
	struct json *j = &f->json;

	json_key(j, "evidence");
	json_arr_begin(j);
	for (size_t i = 0; i < t->nev; i++) {
		const struct evidence *e = &t->ev[i];
		json_obj_begin(j);
		json_kstr(j, "kind", e->kind == EV_FIXES ? "fixes" :
			  e->kind == EV_MENTION ? "mention" : "blame");
		json_kstr(j, "ref", e->ref);
		json_commit(f, "target", e->commit);
		if (e->claimed_subject)
			json_kstr(j, "claimed_subject", e->claimed_subject);
		json_kbool(j, "subject_mismatch", e->subject_mismatch);
		json_kbool(j, "merge", e->merge);
		if (e->kind == EV_BLAME) {
			json_kint(j, "removed_lines", e->lines.removed);
			json_kint(j, "neighbour_lines", e->lines.neighbour);
			json_kint(j, "context_lines", e->lines.context);
		}
		json_obj_end(j);
	}
	json_arr_end(j);
	json_kstr(j, "evidence_used", t->have_introducers ?
		  (t->used == EV_FIXES ? "fixes" : t->used == EV_MENTION ? "mention" : "blame") : NULL);
}

static void json_series(struct front *f, const struct triage *t)
{
	struct json *j = &f->json;

	json_key(j, "series");
	json_arr_begin(j);
	for (size_t i = 0; i < t->nseries; i++) {
		const struct series *s = &t->series[i];
		json_obj_begin(j);
		json_kstr(j, "series", s->name);
		json_kbool(j, "affected", s->affected);
		json_kstr(j, "first_affected", rel(f, s->first_affected));
		json_kstr(j, "last_affected", rel(f, s->last_affected));
		json_kstr(j, "fixed_in", rel(f, s->fixed_in));
		json_kbool(j, "fixed_by_backport", s->fixed_by_backport);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void json_fits(struct front *f, const struct triage *t)
{
	struct json *j = &f->json;

	json_key(j, "applies");
	json_arr_begin(j);
	for (size_t i = 0; t->fits && i < t->naffected; i++) {
		json_obj_begin(j);
		json_kstr(j, "release", rel(f, t->fits[i].tag));
		json_kbool(j, "applies", t->fits[i].applies);
		json_key(j, "prerequisites");
		json_arr_begin(j);
		for (size_t k = 0; k < t->fits[i].nprereqs; k++) {
			json_obj_begin(j);
			json_commit(f, "commit", t->fits[i].prereqs[k]);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void print_triage_json(struct front *f, const struct triage *t)
{
	struct json *j = &f->json;

	json_commit(f, "fix", t->fix);
	json_evidence(f, t);
	json_key(j, "affected");
	json_arr_begin(j);
	for (size_t i = 0; i < t->naffected; i++)
		json_str(j, rel(f, t->affected[i]));
	json_arr_end(j);
	json_series(f, t);
	json_key(j, "backports");
	json_arr_begin(j);
	for (size_t i = 0; i < t->nbackports; i++) {
		json_obj_begin(j);
		json_commit(f, "commit", t->backports[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_fits(f, t);
	json_key(j, "cc_stable");
	json_obj_begin(j);
	json_kbool(j, "present", t->cc_stable);
	json_kstr(j, "hint", *t->cc_hint ? t->cc_hint : NULL);
	json_kstr(j, "note", t->cc_note);
	json_obj_end(j);
	json_kstr(j, "verdict", t->verdict);
}

static void do_triage(struct front *f, uint32_t fix, const struct patch *mail)
{
	struct triage t;
	int ret = triage_run(&t, f->h, &f->contain, fix, mail);

	if (ret) {
		if (!f->ret)
			f->ret = ret;
	} else if (f->o->json) {
		print_triage_json(f, &t);
	} else {
		print_triage_text(f, &t);
	}
	triage_free(&t);
}

static void front_init(struct front *f, struct history *h, const struct triage_opts *o)
{
	memset(f, 0, sizeof(*f));
	f->h = h;
	f->o = o;
	history_load_branches(h);
	contain_init(&f->contain, h);
	naming_init(&f->naming, h, NULL);
	json_init(&f->json, stdout);
	if (o->json && !o->patch_id) {
		json_obj_begin(&f->json);
		json_kint(&f->json, "schema_version", SCHEMA_VERSION);
		json_key(&f->json, "results");
		json_arr_begin(&f->json);
	}
}

static int front_done(struct front *f)
{
	if (f->o->json && !f->o->patch_id) {
		json_arr_end(&f->json);
		json_obj_end(&f->json);
	}
	contain_free(&f->contain);
	naming_free(&f->naming);
	return f->ret;
}

int triage_revs(struct history *h, const struct triage_opts *o,
		const char **revs, size_t nrevs)
{
	struct front f;

	front_init(&f, h, o);
	for (size_t i = 0; i < nrevs; i++) {
		struct rev r;
		int ret = rev_resolve(&r, h->repo, &h->dag, revs[i]);
		git_oid id;

		if (ret) {
			if (!f.ret)
				f.ret = ret;
			continue;
		}
		if (o->patch_id) {
			if (patch_id_of_commit(h->repo, &r.oid, &id)) {
				char a[GIT_OID_HEXSZ + 1], b[GIT_OID_HEXSZ + 1];
				printf("%s %s\n", git_oid_tostr(a, sizeof(a), &id),
				       git_oid_tostr(b, sizeof(b), &r.oid));
			}
			continue;
		}
		if (o->json) {
			json_obj_begin(&f.json);
			json_kstr(&f.json, "rev", revs[i]);
		} else if (i) {
			putchar('\n');
		}
		do_triage(&f, r.commit, NULL);
		if (o->json)
			json_obj_end(&f.json);
	}
	return front_done(&f);
}

static void print_match_text(struct front *f, const struct patch *p, const struct match *m)
{
	printf("patch:            %s\n", p->subject ? p->subject : "(no subject)");
	printf("patch-id:         %s\n", p->has_patchid ? git_oid_tostr_s(&p->patchid) : "(no diff)");
	printf("match:            %s\n", match_kind_name(m->kind));
	for (size_t i = 0; i < m->nr; i++)
		commit_line(f, m->commits[i], m->commits[i] == m->upstream ? "  upstream  " : "  also      ");
}

static void print_match_json(struct front *f, const struct patch *p, const struct match *m)
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
}

static void one_message(struct front *f, const struct patch *p, size_t i)
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
	if (m.upstream == DAG_NONE && !f->ret)
		f->ret = EXIT_NO_MATCH;
	if (!f->o->triage && !f->o->json && m.upstream != DAG_NONE) {
		/* then the same answers as `patchver <rev>` */
		struct report_opts ro = { REPORT_FULL, false, NULL };
		const char *rev = git_oid_tostr_s(&f->h->dag.oids[m.upstream]);
		putchar('\n');
		fflush(stdout);
		report_revs(f->h, &ro, &rev, 1);
	}
	if (f->o->triage && m.upstream != DAG_NONE) {
		if (!f->o->json)
			putchar('\n');
		do_triage(f, m.upstream, p);
	}
	if (f->o->json)
		json_obj_end(&f->json);
	match_free(&m);
}

int triage_patch_file(struct history *h, const struct triage_opts *o, const char *path)
{
	struct patch_set set;
	struct front f;
	int ret = patch_read_file(&set, path);

	if (ret)
		return ret;
	if (!set.nr) {
		patch_set_free(&set);
		return error(EXIT_INPUT, "no mail or diff found in '%s'", path);
	}
	front_init(&f, h, o);
	if (o->range && (ret = match_range(h, o->range, &f.in_range))) {
		patch_set_free(&set);
		front_done(&f);
		return ret;
	}
	for (size_t i = 0; i < set.nr; i++)
		one_message(&f, &set.v[i], i);
	patch_set_free(&set);
	free(f.in_range);
	return front_done(&f);
}
