/*
 * --verify-boot shown: the candidates lab/verify.c built and booted, as a
 * table or JSON, and the exit code of what they showed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/json.h"
#include "patchver/stable/triage.h"
#include "patchver/lab/measure.h"
#include "patchver/lab/oracle.h"
#include "patchver/lab/verify.h"
#include "patchver/cli/bisect_report.h"
#include "patchver/cli/boot_record.h"
#include "patchver/cli/cve_report.h"
#include "patchver/cli/diag.h"
#include "patchver/cli/verify_report.h"

static const char *expect_text(const struct candidate *c, char *buf, size_t n)
{
	const struct bug_spec *how = c->expect.how;

	if (!c->judge || !how)
		return "none";
	if (!c->expect.bug)
		return how->kind == BUG_CHECK ? "all pass" : "no bug";
	if (how->kind == BUG_CHECK)
		snprintf(buf, n, "%s fails with %s", how->check, how->err);
	else
		snprintf(buf, n, "bug (%s)", how->text);
	return buf;
}

/* The last lines the reproducer (and the kernel) printed: why a row is not as expected. */
static void print_tail(const struct candidate *c)
{
	const struct serial_report *s = &c->run.boot.serial;
	size_t from = s->noutput > 8 ? s->noutput - 8 : 0;

	if (s->noutput)
		printf("%-22s   last lines after the start marker (%s):\n", "", c->run.log);
	for (size_t k = from; k < s->noutput; k++)
		printf("%-22s   | %.*s\n", "", 160, s->output[k]);
}

static void print_header(void)
{
	printf("%-22s %-28s %-14s %-12s %s\n", "candidate", "built state", "build", "boot",
	       "result");
}

static void print_candidate(const struct candidate *c)
{
	char build[32], boot[32];

	if (c->run.status == PV_EPATCH)
		snprintf(build, sizeof(build), "-");
	else if (c->run.status == PV_EBUILD)
		snprintf(build, sizeof(build), "FAILED");
	else if (c->run.cached)
		snprintf(build, sizeof(build), "cached");
	else
		snprintf(build, sizeof(build), "built %.0fs", c->run.build_seconds);
	if (c->run.log && c->run.boot.seconds > 0)
		snprintf(boot, sizeof(boot), "%s %.1fs", c->run.boot.accel, c->run.boot.seconds);
	else
		snprintf(boot, sizeof(boot), "-");
	printf("%-22s %-28s %-14s %-12s %s: %s\n", c->name, c->run.state ? c->run.state : "-",
	       build, boot, c->run.outside ? "outside the measured range" :
	       c->run.ok ? "as expected" : "NOT as expected", c->run.why ? c->run.why : "not run");
	if (c->role || c->models)
		printf("%-22s   %s%s%s\n", "", c->role ? c->role : "",
		       c->models ? "; models " : "", c->models ? c->models : "");
	for (char **u = c->run.unstuck; u && *u; u++)
		printf("%-22s   warning: %s did not stick in this kernel's .config\n", "", *u);
	for (char **u = c->run.unbuilt; u && *u; u++)
		printf("%-22s   not tested here: %s\n", "", *u);
	for (char **p = c->prereqs; p && *p; p++)
		printf("%-22s   builds with: %s\n", "", *p);
	for (size_t k = 0; k < c->run.boot.serial.nchecks; k++) {
		const struct guest_check *g = &c->run.boot.serial.checks[k];
		if (!g->pass)
			printf("%-22s   FAIL %s errno=%s expect=%s\n", "", g->name, g->err, g->expect);
	}
	if (!c->run.ok && !c->run.outside && c->run.log)
		print_tail(c);
}

/* The candidate's build: cached or made, its key, logs and prerequisites. */
static void json_build(struct json *j, const struct candidate *c)
{
	json_key(j, "build");
	json_obj_begin(j);
	json_kbool(j, "cached", c->run.cached);
	json_kint(j, "milliseconds", (int64_t)(c->run.build_seconds * 1000));
	json_kstr(j, "state_key", *c->run.key ? c->run.key : NULL);
	json_kstr(j, "log", c->run.build_log);
	json_kstr(j, "object_log", c->object_log);
	json_key(j, "prerequisites");
	json_arr_begin(j);
	for (char **p = c->prereqs; p && *p; p++)
		json_str(j, *p);
	json_arr_end(j);
	json_kint(j, "prerequisites_milliseconds", (int64_t)(c->prereq_seconds * 1000));
	json_obj_end(j);
}

/* Its boot: QEMU, what the kernel and the reproducer printed, each check. */
static void json_boot(struct json *j, const struct candidate *c)
{
	char *status = oracle_status(&c->run.boot.serial);

	json_key(j, "boot");
	json_obj_begin(j);
	json_kstr(j, "accel", c->run.log ? c->run.boot.accel : NULL);
	json_kint(j, "milliseconds", (int64_t)(c->run.boot.seconds * 1000));
	json_kbool(j, "timed_out", c->run.boot.timed_out);
	json_kbool(j, "panic", c->run.boot.serial.panic);
	json_kstr(j, "kernel", c->run.boot.serial.kernel);
	json_kbool(j, "smp", c->run.smp);
	json_kstr(j, "reproducer", c->run.log ? status : NULL);
	json_kstr(j, "crash", *c->run.boot.serial.crash ? c->run.boot.serial.crash : NULL);
	json_kstr(j, "crash_before_start", *c->run.boot.serial.boot_crash ? c->run.boot.serial.boot_crash
									: NULL);
	json_kstr(j, "log", c->run.log);
	json_kstr(j, "record", c->run.record);
	json_kstr(j, "command", c->run.boot.cmdline);
	json_key(j, "checks");
	json_arr_begin(j);
	for (size_t k = 0; k < c->run.boot.serial.nchecks; k++) {
		const struct guest_check *g = &c->run.boot.serial.checks[k];
		json_obj_begin(j);
		json_kstr(j, "name", g->name);
		json_kbool(j, "pass", g->pass);
		json_kstr(j, "errno", g->err);
		json_kstr(j, "expect", g->expect);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	free(status);
}

static void json_candidate(struct json *j, const struct candidate *c)
{
	char hex[GIT_OID_HEXSZ + 1], buf[192];

	json_obj_begin(j);
	json_kstr(j, "name", c->name);
	json_kstr(j, "role", c->role);
	json_kstr(j, "models", c->models);
	json_kstr(j, "commit", git_oid_tostr(hex, sizeof(hex), &c->commit));
	json_kstr(j, "state", c->run.state);
	json_key(j, "patches");
	json_arr_begin(j);
	for (size_t i = 0; i < c->npatches; i++)
		json_str(j, c->patches[i]->name);
	json_arr_end(j);
	json_compat(j, c);
	json_kstr(j, "expect", expect_text(c, buf, sizeof(buf)));
	/* the exit code its failure would have: what scripts read since version 1 */
	json_kint(j, "status", c->run.status ? diag_exit_code(c->run.status) : 0);
	json_kstr(j, "failed_patch", c->run.failed_patch);
	json_build(j, c);
	json_boot(j, c);
	json_key(j, "config_not_set");
	json_arr_begin(j);
	for (char **u = c->run.unstuck; u && *u; u++)
		json_str(j, *u);
	json_arr_end(j);
	json_key(j, "unbuilt");
	json_arr_begin(j);
	for (char **u = c->run.unbuilt; u && *u; u++)
		json_str(j, *u);
	json_arr_end(j);
	json_kstr(j, "unbuilt_from", !c->run.unbuilt ? NULL : c->run.unbuilt_from_fragment ?
		  "fragment" : "config");
	json_kbool(j, "bug_seen", c->run.bug_seen);
	json_kbool(j, "as_expected", c->run.ok);
	json_kbool(j, "outside_measured_range", c->run.outside);
	json_kstr(j, "why", c->run.why);
	json_obj_end(j);
}

#define BOOT_TEST_ONLY "boot test only: the fix's own bug is not tested; give --reproducer"

/* Each sub-era's compat once: guest/compat/<era>, its patches and make's line. */
static void print_compat(const struct verify_result *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct candidate *c = &r->c[i];
		bool seen = !*c->run.compat_era;

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(r->c[k].run.compat_era, c->run.compat_era);
		if (seen)
			continue;
		printf("compat:   guest/compat/%s (build with today's toolchain, not behaviour) under "
		       "%s and every state of its sub-era: %zu patch(es)", c->run.compat_era, c->name,
		       c->run.ncompat);
		for (char **v = c->run.make_vars; v && *v; v++)
			printf("; make %s", *v);
		printf("\n");
	}
}


/* What the plan did not boot, and what it could not have. */
static void print_left_out(const struct verify_result *r)
{
	if (r->nleft_out) {
		printf("left out: %zu affected release(s) not booted (--releases all boots every "
		       "one):", r->nleft_out);
		for (size_t i = 0; i < r->nleft_out; i++)
			printf("%s%s", i % 8 ? " " : "\n          ", r->left_out[i]);
		printf("\n");
	}
	if (r->plan_note)
		printf("          %s\n", r->plan_note);
}

static void print_estimate(const struct verify_result *r)
{
	if (!r->nbuild && r->boot_median > 0)
		printf("; about %.0f s of boots", r->estimate);
	else if (r->estimate > 0)
		printf("; about %.0f min (median build %.0f s of %d recorded, boot %.0f s)",
		       r->estimate / 60 + 0.5, r->build_median, r->nbuild_records, r->boot_median);
	else if (r->nbuild)
		printf("; no build time recorded in this cache yet");
	printf("\n");
}

/* The states before the first build: why each is there, and what it costs. */
static void print_plan(const struct verify_result *r)
{
	printf("plan:     %zu state(s)", r->n);
	if (r->max_states)
		printf(" (at most %d: --max-states)", r->max_states);
	printf(", %zu to build, %zu cached", r->nbuild, r->n - r->nbuild);
	print_estimate(r);
	for (size_t i = 0; i < r->n; i++) {
		const struct candidate *c = &r->c[i];
		printf("          %-22s %-7s %s\n", c->name, c->run.status == PV_EPATCH ? "-" :
		       c->run.cached ? "cached" : "build", c->run.status == PV_EPATCH ? c->run.why :
		       c->role ? c->role : "");
		for (char **u = c->run.unbuilt; u && *u; u++)
			printf("          %-22s   %s%s\n", "", *u, c->run.unbuilt_from_fragment ?
			       " (read against the config fragment: not configured yet)" : "");
	}
	print_left_out(r);
	if (r->measure_requested)
		printf("measure:  where the boots put the bug's boundary elsewhere than the text, at "
		       "most %d more build(s) at release level (%zu release(s) in the widest gap "
		       "between planned states), then the commits between two releases and the "
		       "revert that confirms\n", r->measure_builds, r->measure_gap);
}

/* States that could not be built: skipped, never counted as good or bad. */
static void print_failed_builds(const struct verify_result *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += r->c[i].run.status == PV_EBUILD;
	if (!n)
		return;
	printf("skipped:  %zu state(s) could not be built:", n);
	for (size_t i = 0; i < r->n; i++)
		if (r->c[i].run.status == PV_EBUILD)
			printf(" %s", r->c[i].name);
	printf("\n");
}

static const char *tag_or_null(const struct verify_result *r, uint32_t tag)
{
	return tag == PV_NONE ? NULL : r->h->tags.v[tag].shortname;
}

/* Where the bug shows, by boot, beside the text: one line, and the boundary's steps. */
static void print_measure(const struct verify_result *r)
{
	const struct measure *m = r->measure;
	const struct bisect_boot_result *b[2];

	if (!m)
		return;
	printf("measured: %s\n", m->line ? m->line : m->note);
	b[0] = m->have_start ? &m->start : NULL;
	b[1] = m->have_stop ? &m->stop : NULL;
	for (size_t k = 0; k < 2; k++)
		for (size_t i = 0; b[k] && i < b[k]->nsteps; i++) {
			const struct bisect_step *s = &b[k]->steps[i];
			printf("          %-8s %-40.40s %-16s %s\n", s->kind, s->label,
			       bisect_answer_name(s->answer, s->fix_phase), s->why ? s->why : "");
		}
	if (m->narrowed)
		printf("          %d build(s), %d boot(s) to measure\n", m->builds, m->boots);
}

static void json_commit_or_null(struct json *j, const char *key, const struct verify_result *r,
				uint32_t c)
{
	json_kstr(j, key, c == PV_NONE ? NULL : git_oid_tostr_s(&r->h->dag.oids[c]));
}

static void json_steps(struct json *j, const char *key, const struct bisect_boot_result *b)
{
	json_key(j, key);
	json_arr_begin(j);
	for (size_t i = 0; b && i < b->nsteps; i++)
		bisect_report_json_step(j, &b->steps[i]);
	json_arr_end(j);
}

static void json_measure(struct json *j, const struct verify_result *r)
{
	const struct measure *m = r->measure;
	static const char *const shapes[] = {
		[MEASURE_NOTHING_BOOTED] = "nothing booted", [MEASURE_NEVER] = "never",
		[MEASURE_CONTROL] = "control", [MEASURE_NON_MONOTONIC] = "non-monotonic",
		[MEASURE_AGREE] = "agree", [MEASURE_BOUNDED] = "bounded",
	};

	json_key(j, "measure");
	if (!m) {
		json_null(j);
		return;
	}
	json_obj_begin(j);
	json_kbool(j, "requested", r->measure_requested);
	json_kstr(j, "shape", shapes[m->shape.kind]);
	json_kstr(j, "label", m->label);
	json_kstr(j, "line", m->line);
	json_kstr(j, "note", m->note);
	json_key(j, "text");
	json_obj_begin(j);
	json_kstr(j, "first", tag_or_null(r, m->text_first));
	json_kstr(j, "last", tag_or_null(r, m->text_last));
	json_commit_or_null(j, "culprit", r, r->culprit);
	json_obj_end(j);
	json_key(j, "boot");
	json_obj_begin(j);
	json_kstr(j, "first", tag_or_null(r, m->first));
	json_commit_or_null(j, "first_commit", r, m->first_commit);
	json_kbool(j, "start_confirmed", m->have_start && m->start.reg.confirmed);
	json_kstr(j, "last", tag_or_null(r, m->last));
	json_kstr(j, "stops_at", m->shape.stops_earlier ? tag_or_null(r, m->stop_tag) : NULL);
	json_commit_or_null(j, "stop_commit", r, m->stop_commit);
	json_kbool(j, "stop_confirmed", m->have_stop && m->stop.reg.confirmed);
	json_obj_end(j);
	json_kint(j, "builds", m->builds);
	json_kint(j, "boots", m->boots);
	json_steps(j, "start_steps", m->have_start ? &m->start : NULL);
	json_steps(j, "stop_steps", m->have_stop ? &m->stop : NULL);
	json_obj_end(j);
}

/* What the run is: the report's first lines (the notice of a boot test first). */
static void print_intro(const struct verify_result *r)
{
	if (!r->reproducer)
		printf("%s\n", BOOT_TEST_ONLY);
	if (*r->fix)
		printf("fix:      %.12s %s\n", r->fix, r->fix_subject);
	printf("tree:     %s (%s)\n", r->kernel_tree, verify_scenario_name(r->scenario));
	print_compat(r);
}

/* Before the first build: the intro and the plan (*data: they were said). */
/* The run's exit code: its verdict's (the first failure was said as it happened). */
static int verdict_exit(const struct verify_result *r)
{
	if (r->dry_run || r->confirmed)
		return 0;
	if (r->untested)
		return EXIT_NOT_TESTED;
	return r->failure ? diag_exit_code(r->failure) : EXIT_NOT_CONFIRMED;
}

static void planned(void *data, const struct verify_result *r)
{
	bool *said_intro = data;

	print_intro(r);
	print_plan(r);
	*said_intro = true;
	fflush(stdout);
}

static void print_text(const struct verify_result *r, bool said_intro)
{
	if (!said_intro)
		print_intro(r);
	if (r->dry_run) {
		print_plan(r);
		return;
	}
	print_header();
	for (size_t i = 0; i < r->n; i++)
		print_candidate(&r->c[i]);
	print_left_out(r);
	print_failed_builds(r);
	print_measure(r);
	printf("logs:     %s\n", r->logs);
	printf("verdict:  %s\n", r->verdict);
}

static void json_plan(struct json *j, const struct verify_result *r)
{
	json_key(j, "plan");
	json_obj_begin(j);
	json_kbool(j, "dry_run", r->dry_run);
	json_key(j, "max_states");
	if (r->max_states)
		json_int(j, r->max_states);
	else
		json_null(j);
	json_kint(j, "states", (int64_t)r->n);
	json_kint(j, "to_build", (int64_t)r->nbuild);
	json_key(j, "left_out");
	json_arr_begin(j);
	for (size_t i = 0; i < r->nleft_out; i++)
		json_str(j, r->left_out[i]);
	json_arr_end(j);
	json_kstr(j, "note", r->plan_note);
	json_kint(j, "build_records", r->nbuild_records);
	json_kint(j, "estimate_seconds", (int64_t)(r->estimate + 0.5));
	json_kbool(j, "measure", r->measure_requested);
	json_kint(j, "measure_release_builds", r->measure_requested ? r->measure_builds : 0);
	json_kint(j, "measure_widest_gap", (int64_t)r->measure_gap);
	json_obj_end(j);
}

/*
 * The fix's CVE "affected" entries, from the triage the plan came from:
 * the text's range, or from the first bad commit the boots measured (when
 * they found one).
 */
static void json_cve(struct json *j, const struct verify_result *r, bool from_boot,
		     const char *repo)
{
	const struct measure *m = r->measure;
	bool boot = from_boot && m && m->first_commit != PV_NONE;
	struct cve_opts o = { .repo = repo, .measured = boot ? m->first_commit : PV_NONE };
	struct contain c;

	json_key(j, "cve");
	json_obj_begin(j);
	json_kstr(j, "affected_from", boot ? "boot" : "text");
	if (from_boot && !boot)
		json_kstr(j, "affected_from_note", "no first bad commit was measured (--measure finds "
			  "one where the boots disagree with the text): the text's range");
	if (r->triage) {
		contain_init(&c, r->h);
		json_kstr(j, "fix", r->fix);
		cve_report_write(j, r->h, &c, r->triage, &o);
		contain_free(&c);
	}
	json_obj_end(j);
}

static void print_json(const struct verify_result *r, bool cve, bool cve_from_boot,
		       const char *cve_repo)
{
	struct json j;

	json_document_begin(&j, stdout);
	json_key(&j, "verify_boot");
	json_obj_begin(&j);
	json_kstr(&j, "fix", *r->fix ? r->fix : NULL);
	json_kstr(&j, "kernel_tree", r->kernel_tree);
	json_kstr(&j, "scenario", verify_scenario_name(r->scenario));
	json_kstr(&j, "accel", r->accel);
	json_kstr(&j, "reproducer", r->reproducer);
	json_kstr(&j, "bug", r->bug);
	json_kbool(&j, "boot_test_only", !r->reproducer);
	json_plan(&j, r);
	json_key(&j, "candidates");
	json_arr_begin(&j);
	for (size_t i = 0; i < r->n; i++)
		json_candidate(&j, &r->c[i]);
	json_arr_end(&j);
	if (!r->dry_run) {
		json_measure(&j, r);
		json_kbool(&j, "confirmed", r->confirmed);
		json_kbool(&j, "not_tested", r->untested);
		json_kstr(&j, "verdict", r->verdict);
	}
	json_obj_end(&j);
	if (cve)
		json_cve(&j, r, cve_from_boot, cve_repo);
	json_obj_end(&j);
}

int verify_report(struct history *h, const char *fix_rev, const struct verify_opts *opts,
		  bool json)
{
	struct verify_opts o = *opts;
	struct verify_result r;
	bool said_intro = false;
	int ret;

	if (!json) {
		o.planned = planned;
		o.planned_data = &said_intro;
	}
	ret = verify_boot(h, fix_rev, &o, &r);
	if (!ret) {
		if (json)
			print_json(&r, false, false, NULL);
		else
			print_text(&r, said_intro);
		ret = verdict_exit(&r);
	} else if (ret == PV_EINTERRUPTED) {
		pv_error_set(ret, "interrupted: make and qemu stopped, the cache is usable");
	}
	verify_result_free(&r);
	return ret;
}

int verify_report_cve(struct history *h, const char *fix_rev, const struct verify_opts *opts,
		      bool from_boot, const char *cve_repo)
{
	struct verify_result r;
	int ret = verify_boot(h, fix_rev, opts, &r);

	if (!ret) {
		print_json(&r, true, from_boot, cve_repo);
		ret = verdict_exit(&r);
	}
	verify_result_free(&r);
	return ret;
}

int verify_report_cache_clean(void)
{
	struct cache_usage u = { 0 };
	int ret = verify_cache_clean(&u);

	if (!ret)
		printf("cache %s: %lld MiB, freed %lld MiB (images and boot logs; the kernel "
		       "sources and object directories stay for incremental builds)\n",
		       u.cache, u.after_kib / 1024, (u.before_kib - u.after_kib) / 1024);
	free(u.cache);
	return ret;
}

int verify_report_prepare_tree(const struct lab_opts *o)
{
	struct lab l;
	int ret = lab_open(&l, o);

	if (!ret) {
		printf("guest data:       %s\n", l.guest);
		printf("kernel tree:      %s\n", l.tree.what);
		printf("repository:       %s\n", git_repository_path(l.tree.repo));
		printf("base commit:      %s\n", git_oid_tostr_s(&l.tree.base));
		printf("work tree:        %s\n", l.tree.work);
		printf("object directory: %s\n", l.tree.obj);
	}
	lab_close(&l);
	return ret;
}
