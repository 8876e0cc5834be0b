/*
 * --backport: does the fix go into the release, what must go first, and
 * the cherry-picks that do it (stable/readiness.c computes; this says it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/match.h"
#include "patchver/stable/readiness.h"
#include "patchver/cli/backport_report.h"
#include "patchver/cli/diag.h"

struct backport_printer {
	struct history *h;
	struct contain contain;
	struct json json;
	const struct readiness *r;
	const struct patch *p;      /* the mail, when one was given */
};

static const char *hex(const struct backport_printer *f, uint32_t c, char buf[41])
{
	return git_oid_tostr(buf, 41, &f->h->dag.oids[c]);
}

static const char *release_of(struct backport_printer *f, uint32_t c)
{
	uint32_t r = contain_first_release(&f->contain, c);

	return r == PV_NONE ? NULL : f->h->tags.v[r].shortname;
}

static void commit_line(struct backport_printer *f, uint32_t c, const char *indent,
			const char *what)
{
	char *subj = history_subject(f->h, c), id[41];
	const char *rel = release_of(f, c);

	printf("%s%.12s  %-12s  %s%s\n", indent, hex(f, c, id), rel ? rel : "(unreleased)",
	       what ? what : "", subj ? subj : "");
	free(subj);
}

/* "drivers/x.c: hunk 2 fuzz 1, offset +3": where the hunks went, when not exactly. */
static void print_places(const struct apply_report *rep, const char *indent)
{
	for (size_t i = 0; i < rep->nfiles; i++) {
		const struct apply_file_report *fr = &rep->files[i];
		bool any = false;
		if (fr->how == APPLY_CONFLICT) {
			printf("%s%s\n", indent, fr->why);
			continue;
		}
		for (size_t k = 0; k < fr->nhunks; k++) {
			if (fr->how > APPLY_FUZZ || (!fr->places[k].fuzz && !fr->places[k].offset))
				continue;
			if (any)
				printf(", hunk %zu", k + 1);
			else
				printf("%s%s: hunk %zu", indent, fr->path, k + 1);
			if (fr->places[k].fuzz)
				printf(" fuzz %u", fr->places[k].fuzz);
			if (fr->places[k].offset)
				printf(" offset %+ld", fr->places[k].offset);
			any = true;
		}
		if (fr->how >= APPLY_3WAY)
			printf("%s%s: %s\n", indent, fr->path, fr->how == APPLY_3WAY ?
			       "merged three-way from the fix's preimage" : "merged, its conflicts taken from the fix");
		else if (any)
			putchar('\n');
	}
}

static const char *how_words(enum apply_how how)
{
	switch (how) {
	case APPLY_CLEAN:
		return "cleanly";
	case APPLY_FUZZ:
		return "with fuzz (reduced context)";
	case APPLY_3WAY:
		return "by a three-way merge";
	case APPLY_ADAPTED:
		return "only adapted";
	case APPLY_CONFLICT:
		break;
	}
	return "in no form";
}

static void print_steps(struct backport_printer *f)
{
	const struct readiness *r = f->r;

	printf("prerequisites:    %zu, in order (of %zu candidate%s: commits since the base "
	       "that change its files)\n", r->nsteps, r->ncandidates, r->ncandidates == 1 ? "" : "s");
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct ready_step *s = &r->steps[i];
		char what[64];
		snprintf(what, sizeof(what), "%-9s", apply_how_name(s->how));
		commit_line(f, s->commit, s->depth > 1 ? "    " : "  ", what);
		if (s->depth > 1 || s->how >= APPLY_ADAPTED)
			printf("  %*s%s%s%s\n", s->depth > 1 ? 2 : 0, "", s->why,
			       s->how >= APPLY_ADAPTED ? "; does not apply as it is, adapt it: " : "",
			       s->how >= APPLY_ADAPTED ? s->conflict : "");
	}
	printf("then the fix:     applies %s\n", how_words(r->after.how));
}

static void print_lines(const struct text_lines *l, const char *mark)
{
	for (size_t i = 0; i < l->nr; i++)
		printf("      %s%.*s%s", mark, (int)l->len[i], l->v[i],
		       l->len[i] && l->v[i][l->len[i] - 1] == '\n' ? "" : "\n");
}

static void print_conflicts(struct backport_printer *f)
{
	const struct readiness *r = f->r;
	const char *base = r->base != PV_NONE ? release_of(f, r->base) : NULL;

	if (!r->nconflicts)
		return;
	printf("conflicts:        %zu hunk%s go%s in in no form; what to adapt:\n", r->nconflicts,
	       r->nconflicts == 1 ? "" : "s", r->nconflicts == 1 ? "es" : "");
	for (size_t i = 0; i < r->nconflicts; i++) {
		const struct ready_conflict *c = &r->conflicts[i];
		printf("  %s hunk %d%s%s%s:\n", c->path, c->hunk, *c->section ? " (" : "",
		       c->section, *c->section ? ")" : "");
		printf("    the fix wants:\n");
		print_lines(&c->wants, "");
		printf("    the release has, from line %ld:\n", c->line);
		print_lines(&c->has, "");
		if (c->nchanged)
			printf("    changed since %s by (not in the release):\n", base ? base : "the base");
		for (size_t k = 0; k < c->nchanged; k++)
			commit_line(f, c->changed_by[k], "      ", NULL);
		if (c->nhere)
			printf("    changed on the release's own line by:\n");
		for (size_t k = 0; k < c->nhere; k++)
			commit_line(f, c->changed_here[k], "      ", NULL);
	}
}

/* A missing name as the code writes it: "f()", "MACRO", "->member", "struct tag". */
static const char *name_prefix(enum definer_kind k)
{
	return k == DEFINER_MEMBER ? "->" : k == DEFINER_TYPE ? "struct " : "";
}

static const char *name_suffix(enum definer_kind k)
{
	return k == DEFINER_FUNCTION ? "()" : "";
}

static const char *name_kind(enum definer_kind k)
{
	switch (k) {
	case DEFINER_FUNCTION:
		return "function";
	case DEFINER_MEMBER:
		return "member";
	case DEFINER_TYPE:
		return "struct";
	default:
		return "macro";
	}
}

static void print_names(struct backport_printer *f)
{
	const struct readiness *r = f->r;

	if (r->fix == PV_NONE || r->answer == READY_CONFLICT)
		return;
	if (!r->nnames) {
		printf("names:            none missing (the functions, macros, members and structs it "
		       "adds, looked up in its files and their headers)\n");
		return;
	}
	printf("names:            %zu the release does not define: a likely build prerequisite\n",
	       r->nnames);
	for (size_t i = 0; i < r->nnames; i++) {
		const struct ready_name *n = &r->names[i];
		printf("  %s%s%s, defined in %s", name_prefix(n->kind), n->name, name_suffix(n->kind),
		       n->file);
		if (n->commit == PV_NONE) {
			printf("\n");
			continue;
		}
		printf(" since\n");
		commit_line(f, n->commit, "    ", NULL);
	}
}

static void print_ready(struct backport_printer *f)
{
	const struct readiness *r = f->r;
	char id[41];

	if (r->answer == READY_CONFLICT || r->fix == PV_NONE)
		return;
	printf("ready:\n");
	for (size_t i = 0; i < r->nsteps; i++)
		printf("  git cherry-pick -x %s%s\n", hex(f, r->steps[i].commit, id),
		       r->steps[i].how >= APPLY_ADAPTED ? "   # conflicts: adapt it" : "");
	for (size_t i = 0; i < r->nnames; i++) {
		bool said = r->names[i].commit == PV_NONE;
		for (size_t k = 0; k < i && !said; k++)
			said = r->names[k].commit == r->names[i].commit;
		if (!said)
			printf("  git cherry-pick -x %s   # likely needed to build: %s%s%s\n",
			       hex(f, r->names[i].commit, id), name_prefix(r->names[i].kind),
			       r->names[i].name, name_suffix(r->names[i].kind));
	}
	printf("  git cherry-pick -x %s%s\n", hex(f, r->fix, id),
	       r->answer == READY_APPLIES && r->as_is.how > APPLY_CLEAN ?
	       (r->as_is.how == APPLY_FUZZ ? "   # git refuses the fuzz: apply it with patch -p1" :
		"   # git cherry-pick merges it three-way") : "");
}

static void print_text(struct backport_printer *f, const char *onto_spec)
{
	const struct readiness *r = f->r;
	const char *base = r->base != PV_NONE ? release_of(f, r->base) : NULL;
	char id[41];

	if (r->fix != PV_NONE)
		commit_line(f, r->fix, "fix:              ", NULL);
	if (f->p)
		printf("patch:            %s\n", f->p->subject ? f->p->subject : "(no subject)");
	printf("onto:             %s (%.12s)", onto_spec, hex(f, r->onto, id));
	if (r->base != PV_NONE)
		printf(", merge base with the fix %.12s%s%s%s", hex(f, r->base, id),
		       base ? " (" : "", base ? base : "", base ? ")" : "");
	putchar('\n');
	if (r->answer == READY_ALREADY) {
		printf("applies:          already there: ");
		if (!strcmp(r->already_how, "contains it"))
			printf("%s contains the fix\n", onto_spec);
		else
			commit_line(f, r->already_by, "", !strcmp(r->already_how, "patch-id") ?
				    "(same patch-id)  " : "(names it upstream)  ");
		return;
	}
	printf("applies:          %s\n", r->as_is.how == APPLY_CONFLICT ? "no" :
	       apply_how_name(r->as_is.how));
	print_places(&r->as_is, "                  ");
	if (r->fix == PV_NONE)
		printf("prerequisites:    not searched: the patch matches no commit of this history\n");
	else if (r->too_many)
		printf("prerequisites:    not searched: %zu commits since the base change its files "
		       "(the bound is %d)\n", r->ncandidates, READINESS_MAX_CANDIDATES);
	else if (r->answer == READY_AFTER)
		print_steps(f);
	else if (r->as_is.how != APPLY_CLEAN)
		printf("prerequisites:    none found: no list of the %zu commit%s since the base that "
		       "change%s its files makes it apply cleanly\n", r->ncandidates,
		       r->ncandidates == 1 ? "" : "s", r->ncandidates == 1 ? "s" : "");
	print_conflicts(f);
	print_names(f);
	print_ready(f);
}

static void json_commit(struct backport_printer *f, const char *key, uint32_t c)
{
	char id[41];

	json_kstr(&f->json, key, c == PV_NONE ? NULL : hex(f, c, id));
}

static void json_report(struct backport_printer *f, const char *key, const struct apply_report *rep)
{
	struct json *j = &f->json;

	json_key(j, key);
	json_arr_begin(j);
	for (size_t i = 0; i < rep->nfiles; i++) {
		const struct apply_file_report *fr = &rep->files[i];
		for (size_t k = 0; k < fr->nhunks; k++) {
			bool failed = fr->how == APPLY_CONFLICT && (int)k + 1 == fr->failed_hunk;
			json_obj_begin(j);
			json_kstr(j, "path", fr->path);
			json_kint(j, "hunk", (int64_t)k + 1);
			json_kstr(j, "applies", failed ? "conflict" : fr->how <= APPLY_FUZZ ?
				  (fr->places[k].fuzz ? "fuzz" : "clean") : apply_how_name(fr->how));
			if (fr->how <= APPLY_FUZZ) {
				json_kint(j, "offset", fr->places[k].offset);
				json_kint(j, "fuzz", fr->places[k].fuzz);
			}
			json_obj_end(j);
		}
	}
	json_arr_end(j);
}

static void json_lines(struct json *j, const char *key, const struct text_lines *l)
{
	json_key(j, key);
	json_arr_begin(j);
	for (size_t i = 0; i < l->nr; i++) {
		char *s = xstrndup(l->v[i], l->len[i] && l->v[i][l->len[i] - 1] == '\n' ?
				   l->len[i] - 1 : l->len[i]);
		json_str(j, s);
		free(s);
	}
	json_arr_end(j);
}

static void json_commits(struct backport_printer *f, const char *key, const uint32_t *v, size_t n)
{
	char id[41];

	json_key(&f->json, key);
	json_arr_begin(&f->json);
	for (size_t i = 0; i < n; i++)
		json_str(&f->json, hex(f, v[i], id));
	json_arr_end(&f->json);
}

static void json_steps(struct backport_printer *f)
{
	struct json *j = &f->json;
	const struct readiness *r = f->r;

	json_key(j, "prerequisites");
	json_arr_begin(j);
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct ready_step *s = &r->steps[i];
		char *subj = history_subject(f->h, s->commit);
		json_obj_begin(j);
		json_commit(f, "commit", s->commit);
		json_kstr(j, "subject", subj);
		json_kstr(j, "first_release", release_of(f, s->commit));
		json_kstr(j, "applies", apply_how_name(s->how));
		json_kstr(j, "why", s->why);
		json_kint(j, "depth", s->depth);
		json_commit(f, "needed_by", s->needed_by);
		json_kstr(j, "conflict", s->conflict);
		json_obj_end(j);
		free(subj);
	}
	json_arr_end(j);
}

static void json_conflicts(struct backport_printer *f)
{
	struct json *j = &f->json;
	const struct readiness *r = f->r;

	json_key(j, "conflicts");
	json_arr_begin(j);
	for (size_t i = 0; i < r->nconflicts; i++) {
		const struct ready_conflict *c = &r->conflicts[i];
		json_obj_begin(j);
		json_kstr(j, "path", c->path);
		json_kint(j, "hunk", c->hunk);
		json_kstr(j, "section", c->section);
		json_kint(j, "line", c->line);
		json_lines(j, "wants", &c->wants);
		json_lines(j, "has", &c->has);
		json_commits(f, "changed_since_base", c->changed_by, c->nchanged);
		json_commits(f, "changed_on_release_line", c->changed_here, c->nhere);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void print_json(struct backport_printer *f, const char *onto_spec)
{
	struct json *j = &f->json;
	const struct readiness *r = f->r;

	json_document_begin(j, stdout);
	json_commit(f, "fix", r->fix);
	json_kstr(j, "onto", onto_spec);
	json_commit(f, "onto_commit", r->onto);
	json_commit(f, "base", r->base);
	json_kstr(j, "answer", ready_answer_name(r->answer));
	json_kstr(j, "applies", r->answer == READY_ALREADY ? "already" : apply_how_name(r->as_is.how));
	json_commit(f, "already_in", r->answer == READY_ALREADY ? r->already_by : PV_NONE);
	json_kstr(j, "already_how", r->answer == READY_ALREADY ? r->already_how : NULL);
	json_report(f, "hunks", &r->as_is);
	json_kint(j, "candidates", (int64_t)r->ncandidates);
	json_kbool(j, "searched", r->fix != PV_NONE && !r->too_many &&
		   r->answer != READY_ALREADY && r->as_is.how != APPLY_CLEAN);
	json_steps(f);
	json_kstr(j, "after_prerequisites", r->answer == READY_AFTER ?
		  apply_how_name(r->after.how) : NULL);
	json_key(j, "missing_names");
	json_arr_begin(j);
	for (size_t i = 0; i < r->nnames; i++) {
		json_obj_begin(j);
		json_kstr(j, "name", r->names[i].name);
		json_kstr(j, "kind", name_kind(r->names[i].kind));
		json_kstr(j, "file", r->names[i].file);
		json_commit(f, "commit", r->names[i].commit);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_conflicts(f);
	json_obj_end(j);
	putchar('\n');
}

/* The fix of --patch: the mail, and the commit it matches (PV_NONE: none). */
static int read_mail(struct backport_printer *f, const char *path, struct patch_set *set,
		     uint32_t *fix)
{
	struct match m;
	int ret = diag_exit(patch_read_file(set, path));

	if (ret)
		return ret;
	if (set->nr != 1)
		return error(EXIT_INPUT, "'%s' holds %zu messages: --backport takes one fix", path,
			     set->nr);
	if (!*set->v[0].diff)
		return error(EXIT_INPUT, "'%s' has no diff", path);
	f->p = &set->v[0];
	match_patch(f->h, &f->contain, f->p, NULL, &m);
	*fix = m.upstream;
	match_free(&m);
	return 0;
}

int backport_report(struct history *h, const struct backport_report_opts *o)
{
	struct backport_printer f = { .h = h };
	struct patch_set set = { 0 };
	struct readiness r;
	struct rev fix, onto;
	uint32_t fix_commit = PV_NONE;
	int ret;

	contain_init(&f.contain, h);
	if (o->fix && (ret = diag_exit(rev_resolve(&fix, h->repo, &h->dag, o->fix))))
		goto out;
	if (o->fix)
		fix_commit = fix.commit;
	if ((ret = diag_exit(rev_resolve(&onto, h->repo, &h->dag, o->onto))))
		goto out;
	if (o->patch && (ret = read_mail(&f, o->patch, &set, &fix_commit)))
		goto out;
	if ((ret = diag_exit(readiness_check(&r, h, fix_commit, f.p, onto.commit))))
		goto out;
	f.r = &r;
	if (o->json)
		print_json(&f, o->onto);
	else
		print_text(&f, o->onto);
	readiness_free(&r);
out:
	patch_set_free(&set);
	contain_free(&f.contain);
	return ret;
}
