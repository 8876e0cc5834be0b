/*
 * --verify-boot: the candidates of a fix's triage, booted in the lab.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/cachedir.h"
#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/patch.h"
#include "patchver/lab/input.h"
#include "patchver/lab/unbuilt.h"
#include "patchver/lab/verify_candidates.h"
#include "patchver/lab/verify_measure.h"
#include "patchver/lab/verify_run.h"

/* Does the kernel tree hold the fix commit itself (a clone of the history)? */
static bool tree_has_fix(const struct verify *v)
{
	git_commit *c = NULL;
	bool yes = git_commit_lookup(&c, v->lab.tree.repo, &v->h->dag.oids[v->fix]) == 0;

	git_commit_free(c);
	git_error_clear();
	return yes;
}

/*
 * Does the series model this fix?  Its "models" file lists the upstream
 * fixes it stands for, one `git patch-id --stable` and commit a line.
 */
static bool series_models_fix(struct verify *v, const char *dir)
{
	char *path = xstrfmt("%s/models", dir), line[512];
	FILE *f = fopen(path, "r");
	git_oid fix_id, id;
	bool yes = false;

	if (f && patch_id_of_commit(v->h->repo, &v->h->dag.oids[v->fix], &fix_id))
		while (!yes && fgets(line, sizeof(line), f))
			yes = line[0] != '#' && strlen(line) >= GIT_OID_HEXSZ &&
			      git_oid_fromstrn(&id, line, GIT_OID_HEXSZ) == 0 &&
			      git_oid_equal(&id, &fix_id);
	git_error_clear();
	if (f)
		fclose(f);
	free(path);
	return yes;
}

/*
 * A tree without the fix's history: the model scenario, only when the
 * user gives the series or patchver's own series declares this fix.
 * Anything else would confirm a patch that is not FIX.
 */
static int pick_model(struct verify *v)
{
	char *own = xstrfmt("%s/kernel", v->lab.guest);
	int ret = 0;

	if (!v->o->series_dir && !series_models_fix(v, own))
		ret = pv_error_set_about(PV_EINVALID, LAB_INPUT_FIX_HISTORY, "%s has no git history "
					 "with %s's parent", v->lab.tree.what, v->fix_hex);
	free(own);
	return ret;
}

static int derive(struct verify *v)
{
	struct contain c;
	struct triage *t = &v->t;
	bool releases = tree_has_fix(v);
	int ret;

	/* a tree that cannot tell FIX: said before the triage's work */
	if (!releases && (ret = pick_model(v)))
		return ret;
	contain_init(&c, v->h);
	if (v->o->introducers) {
		/* a person's introducers: the releases to boot are theirs */
		struct triage_given given = { NULL, 0 };
		uint32_t *commits = NULL;
		ret = triage_given_resolve(v->h, v->fix, v->o->introducers, &commits, &given.n);
		given.commits = commits;
		if (!ret)
			ret = triage_run_given(t, v->h, &c, v->fix, NULL, EVIDENCE_ALL, &given);
		free(commits);
	} else {
		ret = triage_run(t, v->h, &c, v->fix, NULL, EVIDENCE_ALL);
	}
	v->have_triage = ret == 0;
	if (!ret && !t->groups[0].naffected)
		ret = pv_error_set(PV_EUNCONFIRMED, "the triage finds no release with the bug "
			    "(%s): nothing to verify", t->groups[0].verdict);
	if (!ret && v->o->measure && !releases)
		ret = pv_error_set_about(PV_EINVALID, LAB_INPUT_MEASURE, "%s has no history of "
					 "%s to bisect", v->lab.tree.what, v->fix_hex);
	if (!ret) {
		v->scenario = releases ? VERIFY_RELEASES : VERIFY_MODEL;
		ret = releases ? verify_scenario_releases(v, t) : verify_scenario_model(v, t);
	}
	contain_free(&c);
	return ret;
}

/*
 * The kernel tree: --kernel-tree, else -C's repository when it holds a
 * kernel (at the fix, or at HEAD when there is no fix), else Debian's.
 */
static const char *pick_tree(const struct verify *v)
{
	git_oid head;
	const git_oid *at = v->fix != PV_NONE ? &v->h->dag.oids[v->fix] : NULL;

	if (v->o->lab.kernel_tree)
		return v->o->lab.kernel_tree;
	if (!at && git_reference_name_to_id(&head, v->h->repo, "HEAD") == 0)
		at = &head;
	git_error_clear();
	if (!at || !ktree_is_kernel(v->h->repo, at))
		return NULL;
	/* its git directory: the tree is read from objects, never from a work tree */
	return git_repository_path(v->h->repo);
}

static int setup(struct verify *v, const char *fix_rev)
{
	struct rev rev;
	int ret;

	if (fix_rev) {
		if ((ret = rev_resolve(&rev, v->h->repo, &v->h->dag, fix_rev)))
			return ret;
		v->fix = rev.commit;
		git_oid_tostr(v->fix_hex, sizeof(v->fix_hex), &v->h->dag.oids[v->fix]);
	}
	v->lab_opts = v->o->lab;
	v->lab_opts.kernel_tree = pick_tree(v);
	if ((ret = lab_open(&v->lab, &v->lab_opts)))
		return ret;
	if (v->o->candidates && *v->o->candidates) {
		v->scenario = VERIFY_USER;
		return verify_scenario_user(v);
	}
	return derive(v);
}

/* Does c carry the fix (the commit's change, or the model's fix)? */
static bool has_fix(const struct verify *v, const struct candidate *c)
{
	for (size_t i = 0; i < c->npatches; i++)
		if (c->patches[i] == v->fix_patch || !strcmp(c->patches[i]->name, "fix"))
			return true;
	return false;
}

/*
 * A fix whose files no state with it compiles is not tested by any boot:
 * the first such state's line ("kernel/acct.c is not built here: ..."),
 * or NULL when one state compiles one of them.
 */
static const char *untested(const struct verify *v)
{
	const char *why = NULL;

	if (!v->lab_opts.watch || !*v->lab_opts.watch)
		return NULL;
	for (size_t i = 0; i < v->n; i++) {
		const struct candidate *c = &v->c[i];
		if (!has_fix(v, c) || c->run.status)
			continue;
		if (!unbuilt_all(c, v->lab_opts.watch))
			return NULL;
		if (!why)
			why = c->run.unbuilt[0];
	}
	return why;
}

/* One sentence: what the boots show. */
static char *verdict_of(const struct verify *v, bool *confirmed)
{
	struct sbuf bugs = SBUF_INIT, off = SBUF_INIT, outside = SBUF_INIT, unrun = SBUF_INIT;
	char *s;

	*confirmed = v->n > 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct candidate *c = &v->c[i];
		if (c->judge && c->expect.bug && c->run.ok)
			sbuf_addf(&bugs, "%s%s", bugs.len ? ", " : "", c->name);
		if (c->run.outside && c->expect.bug && c->run.status)
			sbuf_addf(&unrun, "%s%s", unrun.len ? ", " : "", c->name);
		else if (c->run.outside && c->expect.bug)
			sbuf_addf(&outside, "%s%s", outside.len ? ", " : "", c->name);
		else if (!c->run.ok && !c->run.outside) {
			*confirmed = false;
			sbuf_addf(&off, "%s%s (%s)", off.len ? "; " : "", c->name,
				  c->run.why ? c->run.why : "not run");
		}
	}
	/* a state that answers both ways confirms nothing, its fixed twin included */
	for (int k = 0; v->measured && k < 2; k++) {
		const struct bisect_finding *f = k ? &v->m.stop.reg : &v->m.start.reg;
		if (f->flaky) {
			*confirmed = false;
			sbuf_addf(&off, "%s%s", off.len ? "; " : "", f->confirm_why);
		}
	}
	if (untested(v)) {
		/* booted or not, no state ran the fix's code */
		*confirmed = false;
		s = xstrfmt("not tested: %s", untested(v));
	} else if (*confirmed && v->scenario == VERIFY_USER)
		s = xstrfmt("every candidate as expected");
	else if (*confirmed)
		s = xstrfmt("fix confirmed%s: the bug shows in %s and is gone with %s applied%s%s%s",
			outside.len || unrun.len ? " on the measured range" : "",
			bugs.len ? bugs.buf : "no candidate", v->applied_fix ? v->applied_fix :
			*v->fix_hex ? v->fix_hex : "the fix",
			v->scenario == VERIFY_RELEASES ? " in every one" : "",
			outside.len ? "; the text's " : "", outside.len ? outside.buf : "");
	else if (v->measured && v->m.note)
		s = xstrfmt("not confirmed: %s; %s", v->m.note, off.buf);
	else
		s = xstrfmt("not confirmed: %s", off.buf);
	if (*confirmed && (outside.len || unrun.len)) {
		char *more = xstrfmt("%s%s%s%s%s", s, outside.len ? " did not show this reproducer's "
				     "bug" : "", unrun.len ? "; before the measured range, " : "",
				     unrun.buf ? unrun.buf : "", unrun.len ? " could not be built or "
				     "booted" : "");
		free(s);
		s = more;
	}
	sbuf_free(&unrun);
	sbuf_free(&bugs);
	sbuf_free(&off);
	sbuf_free(&outside);
	return s;
}

/* The candidate whose failure (a patch, a build, a boot) is the run's: the first. */
static int first_failure(const struct verify *v)
{
	for (size_t i = 0; i < v->n; i++)
		if (v->c[i].run.status)
			return v->c[i].run.status;
	return 0;
}

static void fill_plan(struct verify *v, struct verify_result *r)
{
	int nboots;

	r->scenario = v->scenario;
	r->h = v->h;
	r->culprit = PV_NONE;
	r->measure_requested = v->o->measure;
	r->triage = v->have_triage ? &v->t : NULL;
	if (v->have_triage) {
		uint32_t release;
		r->culprit = verify_text_culprit(v, &release);
	}
	verify_measure_bound(v, r);
	if (v->fix != PV_NONE)
		r->fix_oid = v->h->dag.oids[v->fix];
	if (v->fix != PV_NONE && !r->fix_subject) {
		git_oid_tostr(r->fix, sizeof(r->fix), &v->h->dag.oids[v->fix]);
		r->fix_subject = history_subject(v->h, v->fix);
	}
	r->kernel_tree = v->lab.tree.what;
	r->reproducer = v->lab.repro.source;
	r->bug = v->lab.bug.text;
	r->c = v->c;
	r->n = v->n;
	r->dry_run = v->o->dry_run;
	r->max_states = v->max_states;
	r->left_out = v->left_out;
	r->nleft_out = v->nleft_out;
	r->plan_note = v->plan_note;
	r->nbuild = 0;
	for (size_t i = 0; i < v->n; i++)
		r->nbuild += !v->c[i].run.cached && v->c[i].run.status != PV_EPATCH;
	r->nbuild_records = lab_recorded_seconds(&v->lab, "build", &r->build_median);
	nboots = lab_recorded_seconds(&v->lab, "boot", &r->boot_median);
	r->estimate = r->nbuild && !r->nbuild_records ? 0 :
		      r->nbuild * r->build_median + (nboots ? (double)v->n * r->boot_median : 0);
}

static void fill_result(struct verify *v, struct verify_result *r)
{
	fill_plan(v, r);
	r->accel = v->lab.accel;
	r->logs = xstrfmt("%s/boots/%s-*", v->lab.cache, v->lab.stamp);
	r->verdict = verdict_of(v, &r->confirmed);
	r->untested = untested(v) != NULL;
	r->measure = v->measured ? &v->m : NULL;
	r->failure = r->confirmed ? 0 : first_failure(v);
}

static void verify_free(struct verify *v)
{
	for (size_t i = 0; i < v->n; i++)
		candidate_free(&v->c[i]);
	free(v->c);
	for (size_t i = 0; i < v->npatches; i++) {
		kpatch_free(v->patches[i]);
		free(v->patches[i]);
	}
	free(v->patches);
	free(v->applied_fix);
	for (size_t i = 0; i < v->nleft_out; i++)
		free(v->left_out[i]);
	free(v->left_out);
	free(v->plan_note);
	free(v->pairs);
	strv_free(v->lab_opts.watch);
	if (v->have_triage)
		triage_free(&v->t);
	measure_free(&v->m);
	lab_close(&v->lab);
	free(v);
}

int verify_boot(struct history *h, const char *fix_rev, const struct verify_opts *o,
		struct verify_result *r)
{
	struct verify *v = xcalloc(1, sizeof(*v));
	int ret;

	memset(r, 0, sizeof(*r));
	r->run = v;
	v->h = h;
	v->o = o;
	v->fix = PV_NONE;
	v->control = SIZE_MAX;
	proc_install_signals();
	ret = setup(v, fix_rev);
	/* every state known, and whether it is cached, before the first build */
	for (size_t i = 0; !ret && i < v->n; i++)
		ret = lab_plan(&v->lab, &v->c[i]);
	if (!ret)
		fill_plan(v, r);
	if (!ret && o->dry_run)
		return 0;
	if (!ret && o->planned)
		o->planned(o->planned_data, r);
	for (size_t i = 0; !ret && i < v->n; i++)
		ret = verify_run_candidate(v, i);
	if (!ret && v->scenario == VERIFY_RELEASES && v->npairs)
		ret = verify_measure(v);
	if (!ret)
		fill_result(v, r);
	return ret;
}

const char *verify_scenario_name(enum verify_scenario s)
{
	static const char *const names[] = {
		[VERIFY_RELEASES] = "releases", [VERIFY_MODEL] = "model", [VERIFY_USER] = "user",
	};
	return names[s];
}

void verify_result_free(struct verify_result *r)
{
	free(r->fix_subject);
	free(r->logs);
	free(r->verdict);
	if (r->run)
		verify_free(r->run);
	memset(r, 0, sizeof(*r));
}

/* du -sk: 0 for a cache that does not exist yet */
static long long du(const char *path)
{
	long long kib = cachedir_usage_kib(path);

	return kib < 0 ? 0 : kib;
}

int verify_cache_clean(struct cache_usage *u)
{
	char *cache = ktree_cache_dir();
	char *images = xstrfmt("%s/images", cache), *boots = xstrfmt("%s/boots", cache);
	char *argv[] = { "rm", "-rf", images, boots, NULL };
	struct proc_result pr;

	u->before_kib = du(cache);
	proc_run(argv, NULL, NULL, 120, &pr);
	u->after_kib = du(cache);
	u->cache = cache;
	free(images);
	free(boots);
	return 0;
}
