/*
 * --bisect-boot shown: each step as lab/bisect_boot.c finishes it, then
 * the findings, as text or JSON, and the exit code of what they show.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/lab/bisect.h"
#include "patchver/lab/bisect_boot.h"
#include "patchver/cli/bisect_report.h"

static void print_started(void *data, const char *kernel_tree, const char *reproducer,
			  int repeat, int confirm_boots)
{
	if (!reproducer)
		printf("boot test only: the bug a step looks for is a kernel that does not boot or "
		       "crashes; give --reproducer\n");
	printf("kernel tree: %s; each step boots %d time(s), the answer %d\n", kernel_tree, repeat,
	       confirm_boots);
}

static void print_releases(void *data, size_t n, const char *old, const char *new,
			   bool fix_phase)
{
	printf("bisect: %zu release(s) after %s up to %s, %s\n", n, old, new,
	       fix_phase ? "looking for the first that passes" : "looking for the first that fails");
}

static void print_commits(void *data, size_t n, bool merged)
{
	printf("bisect: %zu commit(s)%s, first parent first\n", n,
	       merged ? " merged by the blamed merge" : "");
}

/* "1h20m", "8m", "45s" */
static void duration(char *buf, size_t len, double seconds)
{
	long s = (long)(seconds + 0.5);

	if (s >= 3600)
		snprintf(buf, len, "%ldh%02ldm", s / 3600, s / 60 % 60);
	else if (s >= 60)
		snprintf(buf, len, "%ldm", (s + 30) / 60);
	else
		snprintf(buf, len, "%lds", s);
}

static void print_phase(const char *what, const struct bisect_plan_phase *p)
{
	if (!p->present)
		return;
	/* the fix's search starts where the regression's ends: its releases are a bound */
	if (p->nreleases)
		printf("plan:     %s %s..%s: %s%zu release(s), at most %d release step(s)", what,
		       p->old ? p->old : "(the first bad state)", p->new, p->old ? "" : "at most ",
		       p->nreleases, p->release_steps);
	else
		printf("plan:     %s %s..%s: not both release tags, commits only", what,
		       p->old ? p->old : "(the first bad state)", p->new);
	if (p->commit_steps)
		printf(", then at most %d commit step(s) (the largest gap: %zu first-parent "
		       "commits)", p->commit_steps, p->max_commits);
	printf("; %zu of its %zu release state(s) cached\n", p->ncached, p->nstates);
}

static void print_planned(void *data, const struct bisect_plan *p)
{
	char b[32], t[32], e[32];

	print_phase("regression", &p->reg);
	print_phase("fix", &p->fix);
	printf("          each end and step boots %d time(s), the answer %d\n", p->repeat,
	       p->confirm_boots);
	duration(b, sizeof(b), p->build_median);
	duration(t, sizeof(t), p->boot_median);
	duration(e, sizeof(e), p->estimate);
	if (p->nbuild_records || !p->max_builds)
		printf("estimate: at most %d build(s) and %d boot(s): %s (median build %s, boot "
		       "%s, of %d recorded)\n", p->max_builds, p->max_boots, e, b, t,
		       p->nbuild_records);
	else
		printf("estimate: at most %d build(s) and %d boot(s); no build recorded in this "
		       "cache to time them by\n", p->max_builds, p->max_boots);
	if (p->journal_answers)
		printf("resume:   the journal answers %zu step(s) without booting\n",
		       p->journal_answers);
	fflush(stdout);
}

static void json_phase(struct json *j, const char *key, const struct bisect_plan_phase *p)
{
	json_key(j, key);
	if (!p->present) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kstr(j, "old", p->old);
	json_kstr(j, "new", p->new);
	json_kint(j, "releases", (int64_t)p->nreleases);
	json_kint(j, "release_steps", p->release_steps);
	json_kint(j, "largest_commit_gap", (int64_t)p->max_commits);
	json_kint(j, "commit_steps", p->commit_steps);
	json_kint(j, "states", (int64_t)p->nstates);
	json_kint(j, "cached", (int64_t)p->ncached);
	json_obj_end(j);
}

static void json_plan(struct json *j, const struct bisect_plan *p)
{
	json_key(j, "plan");
	json_obj_begin(j);
	json_phase(j, "regression", &p->reg);
	json_phase(j, "fix", &p->fix);
	json_kint(j, "repeat", p->repeat);
	json_kint(j, "confirm_boots", p->confirm_boots);
	json_kint(j, "max_builds", p->max_builds);
	json_kint(j, "max_boots", p->max_boots);
	json_kint(j, "build_records", p->nbuild_records);
	json_kint(j, "estimate_seconds", (int64_t)(p->estimate + 0.5));
	json_kint(j, "journal_answers", (int64_t)p->journal_answers);
	json_obj_end(j);
}

static void print_step(void *data, const struct bisect_step *s, size_t number)
{
	char build[24] = "-", boot[24] = "-";

	if (s->from_log)
		snprintf(build, sizeof(build), "from log");
	else if (s->cached)
		snprintf(build, sizeof(build), "cached");
	else if (s->build_failed)
		snprintf(build, sizeof(build), "FAILED %.0fs", s->build_seconds);
	else if (s->built)
		snprintf(build, sizeof(build), "built %.0fs", s->build_seconds);
	if (s->boots)
		snprintf(boot, sizeof(boot), "%dx %.1fs", s->boots, s->boot_seconds);
	printf("step %-3zu %-8s %-34.34s %-10s %-10s %-16s %s\n", number, s->kind, s->label,
	       build, boot, bisect_answer_name(s->answer, s->fix_phase), s->why ? s->why : "");
	/* a step takes minutes: show it now, not when the buffer fills */
	fflush(stdout);
}

/*
 * The journal a bisection keeps for --resume: a JSON object a line, one
 * per step, its key and answer (as "verdict") first so that a resumed run
 * reads them back with one pattern.
 */
struct journal_file {
	FILE *f;
	char **known;               /* resumed: "key answer" */
	size_t nknown;
};

static void journal_open(void *data, const char *path, bool resume)
{
	struct journal_file *jf = data;
	char line[512];
	FILE *f;

	if (resume && (f = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), f)) {
			char key[80];
			int v;
			if (sscanf(line, "{\"key\":\"%79[^\"]\",\"verdict\":%d", key, &v) == 2) {
				jf->known = xrealloc(jf->known, (jf->nknown + 1) * sizeof(*jf->known));
				jf->known[jf->nknown++] = xstrfmt("%s %d", key, v);
			}
		}
		fclose(f);
	}
	jf->f = fopen(path, resume ? "a" : "w");
}

static int journal_recall(void *data, const char *key)
{
	const struct journal_file *jf = data;
	size_t len = strlen(key);

	for (size_t i = 0; i < jf->nknown; i++)
		if (!strncmp(jf->known[i], key, len) && jf->known[i][len] == ' ')
			return atoi(jf->known[i] + len + 1);
	return -2;
}

static void journal_keep(void *data, const struct bisect_step *s)
{
	struct journal_file *jf = data;
	struct json j;

	if (!jf->f)
		return;
	json_init(&j, jf->f);
	json_obj_begin(&j);
	json_kstr(&j, "key", s->key);
	json_kint(&j, "verdict", s->answer);
	json_kstr(&j, "label", s->label);
	json_kstr(&j, "kind", s->kind);
	json_kint(&j, "boots", s->boots);
	json_kint(&j, "failing_boots", s->bad_boots);
	json_kstr(&j, "why", s->why);
	json_obj_end(&j);
	fputc('\n', jf->f);
	/* kept at once: an interrupted run resumes from here */
	fflush(jf->f);
}

static void journal_close(struct journal_file *jf)
{
	for (size_t i = 0; i < jf->nknown; i++)
		free(jf->known[i]);
	free(jf->known);
	if (jf->f)
		fclose(jf->f);
}

static const struct bisect_events text_events = {
	print_started, print_releases, print_commits, print_step, print_planned, NULL
};

static void print_tags(const struct history *h, const char *what, const uint32_t *v, size_t n)
{
	printf("%-20s", what);
	for (size_t i = 0; i < n; i++)
		printf(" %s", h->tags.v[v[i]].shortname);
	printf("%s\n", n ? "" : " none");
}

static void print_finding(const struct history *h, const char *what,
			  const struct bisect_finding *f, bool fix)
{
	char buf[13], buf2[13];

	printf("%-20s last %s %s, first %s %s%s\n", what, fix ? "failing" : "good",
	       bisect_state_name(h, f->last_old_tag, f->last_old, buf), fix ? "passing" : "bad",
	       bisect_state_name(h, f->first_new_tag, f->first_new, buf2),
	       f->ambiguous && f->commit == PV_NONE ? " (skipped releases hide it)" : "");
	if (f->ambiguous) {
		printf("%-20s could be any of:", "");
		for (size_t i = 0; i < f->ncandidates; i++)
			printf(" %.12s", git_oid_tostr_s(&h->dag.oids[f->candidates[i]]));
		printf(" (builds or boots failed in between)\n");
	} else if (f->commit != PV_NONE) {
		char *subject = history_subject(h, f->commit);
		printf("%-20s %.12s %s (%s, boot-bisected)\n", "",
		       git_oid_tostr_s(&h->dag.oids[f->commit]), subject,
		       fix ? "fixed by" : "introduced by");
		free(subject);
	}
	if (f->confirm_n)
		printf("%-20s confirmed: %s in %d/%d boots, %s in %d/%d%s%s\n", "",
		       fix ? "passes" : "fails", f->confirm_new, f->confirm_n,
		       f->commit != PV_NONE ? "reverted" : "the release before",
		       f->confirm_old, f->confirm_n, f->confirmed ? "" : ": NOT CONFIRMED, ",
		       f->confirmed ? "" : (f->confirm_why ? f->confirm_why : ""));
}

static void print_text(const struct history *h, const struct bisect_boot_result *r)
{
	printf("\n");
	print_finding(h, "regression:", &r->reg, false);
	if (r->fix.done) {
		print_finding(h, "fix:", &r->fix, true);
		print_tags(h, "affected (boots):", r->window, r->nwindow);
	}
	if (r->have_triage) {
		print_tags(h, "affected (triage):", r->triage_affected, r->ntriage_affected);
		printf("%-20s %s\n", "", r->agree ? "the boots and the triage agree" :
		       "the boots and the triage DISAGREE");
		if (r->reg.commit != PV_NONE)
			printf("%-20s the triage's evidence %s %.12s\n", "", r->names_culprit ?
			       "names" : "does NOT name",
			       git_oid_tostr_s(&h->dag.oids[r->reg.commit]));
	}
	printf("%-20s %zu steps, %d builds, %d boots, %lds; log %s\n", "work:", r->nsteps,
	       r->builds, r->boots, r->seconds, r->log_path);
}

static void json_finding(struct json *j, const struct history *h, const char *key,
			 const struct bisect_finding *f)
{
	char hex[GIT_OID_HEXSZ + 1];

	json_key(j, key);
	if (!f->done) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kstr(j, "last_old", f->last_old_tag != PV_NONE ? h->tags.v[f->last_old_tag].shortname
							    : NULL);
	json_kstr(j, "first_new", f->first_new_tag != PV_NONE ?
		  h->tags.v[f->first_new_tag].shortname : NULL);
	json_kstr(j, "commit", f->commit == PV_NONE ? NULL :
		  git_oid_tostr(hex, sizeof(hex), &h->dag.oids[f->commit]));
	json_kbool(j, "ambiguous", f->ambiguous);
	json_key(j, "candidates");
	json_arr_begin(j);
	for (size_t i = 0; i < f->ncandidates; i++)
		json_str(j, git_oid_tostr(hex, sizeof(hex), &h->dag.oids[f->candidates[i]]));
	json_arr_end(j);
	json_kint(j, "confirm_boots", f->confirm_n);
	json_kint(j, "confirm_new", f->confirm_new);
	json_kint(j, "confirm_old", f->confirm_old);
	json_kbool(j, "confirmed", f->confirmed);
	json_obj_end(j);
}

static void json_tags(struct json *j, const struct history *h, const char *key,
		      const uint32_t *v, size_t n)
{
	json_key(j, key);
	json_arr_begin(j);
	for (size_t i = 0; i < n; i++)
		json_str(j, h->tags.v[v[i]].shortname);
	json_arr_end(j);
}

void bisect_report_json_step(struct json *j, const struct bisect_step *s)
{
	json_obj_begin(j);
	json_kstr(j, "kind", s->kind);
	json_kstr(j, "label", s->label);
	json_kstr(j, "verdict", s->answer < 0 ? "flaky" : s->answer == BISECT_SKIP ? "skip" :
		  s->answer == BISECT_NEW ? "new" : "old");
	json_kbool(j, "built", s->built);
	json_kbool(j, "from_log", s->from_log);
	json_kint(j, "build_milliseconds", (int64_t)(s->build_seconds * 1000));
	json_kint(j, "boots", s->boots);
	json_kint(j, "failing_boots", s->bad_boots);
	json_kint(j, "boot_milliseconds", (int64_t)(s->boot_seconds * 1000));
	json_kstr(j, "why", s->why);
	json_obj_end(j);
}

static void print_json(const struct history *h, const struct bisect_boot_result *r,
		       bool dry_run)
{
	struct json j;

	json_document_begin(&j, stdout);
	json_key(&j, "bisect_boot");
	json_obj_begin(&j);
	json_kbool(&j, "dry_run", dry_run);
	if (r->planned)
		json_plan(&j, &r->plan);
	if (dry_run) {
		json_kstr(&j, "log", r->log_path);
		json_obj_end(&j);
		json_obj_end(&j);
		return;
	}
	json_kstr(&j, "reproducer", r->reproducer);
	json_kstr(&j, "bug", r->bug);
	json_kbool(&j, "boot_test_only", !r->reproducer);
	json_key(&j, "steps");
	json_arr_begin(&j);
	for (size_t i = 0; i < r->nsteps; i++)
		bisect_report_json_step(&j, &r->steps[i]);
	json_arr_end(&j);
	json_finding(&j, h, "regression", &r->reg);
	json_finding(&j, h, "fix", &r->fix);
	if (r->fix.done)
		json_tags(&j, h, "affected_by_boots", r->window, r->nwindow);
	if (r->have_triage) {
		json_tags(&j, h, "affected_by_triage", r->triage_affected, r->ntriage_affected);
		json_kbool(&j, "agree", r->agree);
		json_kbool(&j, "triage_names_culprit", r->names_culprit);
	}
	json_kint(&j, "builds", r->builds);
	json_kint(&j, "boots", r->boots);
	json_kstr(&j, "log", r->log_path);
	json_obj_end(&j);
	json_obj_end(&j);
}

int bisect_report(struct history *h, const struct bisect_opts *opts, bool json)
{
	struct journal_file jf = { 0 };
	const struct bisect_journal journal = { journal_open, journal_recall, journal_keep, &jf };
	struct bisect_opts o = *opts;
	struct bisect_boot_result r;
	int ret;

	o.journal = &journal;
	ret = bisect_boot(h, &o, json ? NULL : &text_events, &r);
	journal_close(&jf);
	if (o.dry_run && !ret) {
		if (json)
			print_json(h, &r, true);
		else
			printf("dry run: nothing built or booted; the journal would be %s\n",
			       r.log_path);
	} else if (r.reported) {
		if (json)
			print_json(h, &r, false);
		else
			print_text(h, &r);
		if (!ret && !r.confirmed)
			ret = EXIT_NOT_CONFIRMED;
	}
	if (ret == PV_EINTERRUPTED)
		pv_error_set(ret, "interrupted: make and qemu stopped; rerun with --resume to "
			     "continue");
	bisect_boot_result_free(&r);
	return ret;
}
