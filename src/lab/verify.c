/*
 * --verify-boot: the candidates of a fix's triage, booted in the lab.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <glob.h>

#include "patchver/base/cachedir.h"
#include "patchver/engine/contain.h"
#include "patchver/base/error.h"
#include "patchver/lab/input.h"
#include "patchver/lab/lab.h"
#include "patchver/lab/measure.h"
#include "patchver/lab/plan.h"
#include "patchver/lab/prereq.h"
#include "patchver/base/proc.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/patch.h"
#include "patchver/stable/triage.h"
#include "patchver/base/util.h"
#include "patchver/lab/verify.h"

struct verify {
	struct history *h;
	const struct verify_opts *o;
	struct lab lab;
	struct lab_opts lab_opts;
	uint32_t fix;
	char fix_hex[13];
	const char *scenario;       /* "releases", "model", "user" */
	char *applied_fix;          /* model: the patch that stands for the fix, as the verdict names it */
	struct kpatch *fix_patch;   /* releases: the fix commit's change, last of a +fix state */
	struct kpatch **patches;    /* owned */
	size_t npatches;
	struct candidate *c;
	size_t n;
	int max_states;             /* the plan's bound; 0: no plan */
	char **left_out;            /* affected releases the plan did not take */
	size_t nleft_out;
	char *plan_note;
	/* releases: the triage, and what the boots measured beside it */
	struct triage t;
	bool have_triage;
	size_t control;             /* the control's candidate, or SIZE_MAX */
	uint32_t control_tag;
	struct pair { uint32_t tag; size_t c; } *pairs;     /* affected releases booted */
	size_t npairs;
	struct measure m;
	bool measured;
};

static struct kpatch *own_patch(struct verify *v, struct kpatch *p)
{
	v->patches = xrealloc(v->patches, (v->npatches + 1) * sizeof(*v->patches));
	return v->patches[v->npatches++] = p;
}

static struct kpatch *patch_of_file(struct verify *v, const char *path, int *ret)
{
	struct kpatch *p = xcalloc(1, sizeof(*p));

	if ((*ret = kpatch_from_file(p, path))) {
		free(p);
		return NULL;
	}
	return own_patch(v, p);
}

static struct kpatch *patch_of_commit(struct verify *v, git_repository *repo,
				      const git_oid *commit, int *ret)
{
	struct kpatch *p = xcalloc(1, sizeof(*p));

	p->name = xstrndup(git_oid_tostr_s(commit), 12);
	if ((*ret = ktree_diff_commit(&p->diff, repo, commit))) {
		free(p->name);
		free(p);
		return NULL;
	}
	return own_patch(v, p);
}

static struct candidate *add(struct verify *v, char *name, const char *role,
			     const git_oid *commit)
{
	struct candidate *c;

	v->c = xrealloc(v->c, (v->n + 1) * sizeof(*v->c));
	c = &v->c[v->n++];
	memset(c, 0, sizeof(*c));
	c->name = name;
	c->role = xstrdup(role);
	c->commit = *commit;
	c->judge = true;
	c->expect.how = &v->lab.bug;
	return c;
}

static void add_patch(struct candidate *c, struct kpatch *p)
{
	c->patches = xrealloc(c->patches, (c->npatches + 1) * sizeof(*c->patches));
	c->patches[c->npatches++] = p;
}

static void expect_bug(struct verify *v, struct candidate *c)
{
	c->expect.bug = true;
	c->expect.how = &v->lab.bug;
}

/* A release tag of the history, as a commit of the kernel tree. */
static int tag_commit(struct verify *v, uint32_t tag, git_oid *out)
{
	const char *name = v->h->tags.v[tag].shortname;
	char *spec = xstrfmt("refs/tags/%s^{commit}", name);
	git_object *obj = NULL;
	int ret = 0;

	if (git_revparse_single(&obj, v->lab.tree.repo, spec) < 0)
		ret = pv_error_set(PV_ENOTFOUND, "the kernel tree %s has no tag %s",
			    v->lab.tree.what, name);
	else
		*out = *git_object_id(obj);
	git_object_free(obj);
	free(spec);
	return ret;
}

/* The last final release (not an rc, not stable) before tag, or PV_NONE. */
static uint32_t control_before(const struct tag_table *tt, uint32_t tag)
{
	uint32_t control = PV_NONE;

	for (size_t i = 0; i < tt->nreleases; i++) {
		uint32_t r = tt->releases[i];
		if (tags_cmp_version(tt, r, tag) >= 0)
			break;
		if (!kver_is_rc(&tt->v[r].ver) && !kver_is_stable(&tt->v[r].ver))
			control = r;
	}
	return control;
}

static const char *tag_name(const struct verify *v, uint32_t tag)
{
	return v->h->tags.v[tag].shortname;
}

static bool same_series(const struct kver *a, const struct kver *b)
{
	return a->nbase == b->nbase && !memcmp(a->base, b->base, sizeof(a->base)) &&
	       kver_is_stable(a) && kver_is_stable(b);
}

static void left_out(struct verify *v, const char *name)
{
	v->left_out = xrealloc(v->left_out, (v->nleft_out + 1) * sizeof(*v->left_out));
	v->left_out[v->nleft_out++] = xstrdup(name);
}

/* Why an affected release is in the plan: the row's role. */
static char *role_of(const struct verify *v, uint32_t tag, enum plan_reason why)
{
	const struct kver *ver = &v->h->tags.v[tag].ver;

	if (v->o->all_releases)
		return xstrdup("affected: the bug must show");
	if (why == PLAN_FIRST)
		return xstrdup("first affected release: the bug must show");
	if (why == PLAN_NEWEST)
		return xstrdup("newest affected release: the bug must show");
	return xstrdup(kver_is_stable(ver) ? "newest affected stable tag of its series: the bug "
		       "must show" : kver_is_rc(ver) ? "newest affected release of its series: the "
		       "bug must show" : "final release of its series, affected: the bug must show");
}

/* One affected release booted as released (bug) and with the fix and its prerequisites (pass). */
static int add_pair(struct verify *v, uint32_t tag, const struct release_fit *f,
		    struct kpatch *fix, enum plan_reason why)
{
	struct candidate *c;
	git_oid commit;
	int ret;

	if ((ret = tag_commit(v, tag, &commit)))
		return ret;
	v->pairs = xrealloc(v->pairs, (v->npairs + 1) * sizeof(*v->pairs));
	v->pairs[v->npairs].tag = tag;
	v->pairs[v->npairs++].c = v->n;
	c = add(v, xstrdup(tag_name(v, tag)), "", &commit);
	free(c->role);
	c->role = role_of(v, tag, why);
	expect_bug(v, c);
	c = add(v, xstrfmt("%s+fix", tag_name(v, tag)), f->nprereqs ?
		"affected, fix and its prerequisites applied: must pass" :
		"affected, fix applied: must pass", &commit);
	for (size_t k = 0; k < f->nprereqs; k++) {
		struct kpatch *p = patch_of_commit(v, v->h->repo, &v->h->dag.oids[f->prereqs[k]], &ret);
		if (!p)
			return ret;
		add_patch(c, p);
	}
	add_patch(c, fix);
	return 0;
}

/*
 * The affected releases a plan chooses from: every mainline release and
 * the newest affected tag of each stable series (index into the group's).
 */
static size_t affected_releases(const struct verify *v, const struct triage_group *g,
				size_t *idx, struct plan_release *rel)
{
	const struct tag_table *tt = &v->h->tags;
	size_t n = 0;

	for (size_t i = 0; i < g->naffected; i++) {
		const struct kver *ver = &tt->v[g->affected[i]].ver;
		bool newest_stable = kver_is_stable(ver) && (i + 1 == g->naffected ||
			!same_series(&tt->v[g->affected[i + 1]].ver, ver));

		if (kver_is_stable(ver) && !newest_stable)
			continue;
		rel[n].series = n && !memcmp(tt->v[g->affected[idx[n - 1]]].ver.base, ver->base,
					    sizeof(ver->base)) ? rel[n - 1].series :
				n ? rel[n - 1].series + 1 : 0;
		idx[n++] = i;
	}
	return n;
}

/*
 * Real history: the plan's affected releases as released (the bug must
 * show) and with the fix (it must not), a control before them and the
 * first release with the fix; with all_releases, every affected release.
 */
static int scenario_releases(struct verify *v, const struct triage *t)
{
	const struct triage_group *g = &t->groups[0];
	uint32_t control = control_before(&v->h->tags, g->affected[0]);
	size_t *idx = xcalloc(g->naffected, sizeof(*idx)), n, pairs;
	struct plan_release *rel = xcalloc(g->naffected, sizeof(*rel));
	enum plan_reason *why = xcalloc(g->naffected, sizeof(*why));
	bool want_control = control != PV_NONE, want_fixed = t->fix_first != PV_NONE;
	struct kpatch *fix;
	git_oid commit;
	int ret = 0;

	if (!(fix = patch_of_commit(v, v->h->repo, &v->h->dag.oids[v->fix], &ret)))
		goto out;
	v->fix_patch = fix;
	n = affected_releases(v, g, idx, rel);
	v->max_states = v->o->all_releases ? 0 : v->o->max_states > 0 ? v->o->max_states :
			VERIFY_MAX_STATES;
	pairs = v->o->all_releases ? n : plan_budget(v->max_states, &want_control, &want_fixed);
	if (v->o->all_releases)
		for (size_t i = 0; i < n; i++)
			why[i] = PLAN_SERIES_END;
	else
		plan_pick(rel, n, pairs, why);
	if (control == PV_NONE)
		v->plan_note = xstrdup("no control: no final release before the first affected one");
	else if (!want_control)
		v->plan_note = xstrfmt("no control: %s left out to fit the states", tag_name(v, control));
	else if (t->fix_first != PV_NONE && !want_fixed)
		v->plan_note = xstrfmt("%s, the first release with the fix, left out to fit the states",
				       tag_name(v, t->fix_first));
	if (want_control) {
		if ((ret = tag_commit(v, control, &commit)))
			goto out;
		v->control = v->n;
		v->control_tag = control;
		add(v, xstrdup(tag_name(v, control)), "control: last release before the bug", &commit);
	}
	for (size_t k = 0; k < n && !ret; k++) {
		uint32_t tag = g->affected[idx[k]];
		if (why[k] == PLAN_LEFT_OUT)
			left_out(v, tag_name(v, tag));
		else
			ret = add_pair(v, tag, &g->fits[idx[k]], fix, why[k]);
	}
	if (!ret && want_fixed && !(ret = tag_commit(v, t->fix_first, &commit)))
		add(v, xstrdup(tag_name(v, t->fix_first)), "first release with the fix", &commit);
out:
	free(idx);
	free(rel);
	free(why);
	return ret;
}

/*
 * No such history in the kernel tree: the story is modelled on it by a
 * series, the regression model then the fix.  Rows say what they model.
 */
static int scenario_model(struct verify *v, const struct triage *t)
{
	const char *dir = v->o->series_dir;
	char *pattern = dir ? xstrfmt("%s/*.patch", dir) : xstrfmt("%s/kernel/*.patch", v->lab.guest);
	const git_oid *base = &v->lab.tree.base;
	uint32_t control = control_before(&v->h->tags, t->groups[0].affected[0]);
	struct kpatch *model = NULL, *fix = NULL;
	struct candidate *c;
	glob_t g;
	int ret = 0;

	if (glob(pattern, 0, NULL, &g) != 0 || g.gl_pathc < 2)
		ret = pv_error_set(PV_ENOTOOL, "no kernel patch series (model, fix) in %s",
			    dir ? dir : v->lab.guest);
	else if ((model = patch_of_file(v, g.gl_pathv[0], &ret)))
		fix = patch_of_file(v, g.gl_pathv[1], &ret);
	globfree(&g);
	free(pattern);
	if (ret)
		return ret;
	free(model->name);
	model->name = xstrdup("model");
	/* the verdict names what was applied: the series' patch, and FIX only when it is modelled */
	v->applied_fix = dir ? xstrfmt("the series' fix %s", fix->name)
			     : xstrfmt("%s (modelled by %s)", v->fix_hex, fix->name);
	free(fix->name);
	fix->name = xstrdup("fix");
	if (control != PV_NONE) {
		c = add(v, xstrdup("control"), "last release before the bug, pristine", base);
		c->models = xstrdup(tag_name(v, control));
	}
	c = add(v, xstrdup("bug"), "first release with the bug: the bug must show", base);
	c->models = xstrdup(tag_name(v, t->groups[0].affected[0]));
	add_patch(c, model);
	expect_bug(v, c);
	c = add(v, xstrdup("bug+fix"), "first release with the bug, fix applied", base);
	c->models = xstrdup(tag_name(v, t->groups[0].affected[0]));
	add_patch(c, model);
	add_patch(c, fix);
	if (t->fix_first != PV_NONE) {
		c = add(v, xstrdup("fixed"), "first release with the fix", base);
		c->models = xstrdup(tag_name(v, t->fix_first));
		add_patch(c, model);
		add_patch(c, fix);
	}
	return 0;
}

/* NAME=ITEM[,ITEM...]: a rev of the kernel tree (the first is the base), or a patch file. */
static int parse_candidate(struct verify *v, const char *spec)
{
	const char *eq = strchr(spec, '=');
	char *items, *save = NULL;
	struct candidate *c;
	bool have_base = false;
	int ret = 0;

	if (!eq || eq == spec || !eq[1])
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_CANDIDATE,
					  "'%s': give NAME=REV|PATCH[,PATCH...]", spec);
	c = add(v, xstrndup(spec, (size_t)(eq - spec)), "given on the command line",
		&v->lab.tree.base);
	c->judge = false;
	items = xstrdup(eq + 1);
	for (char *it = strtok_r(items, ",", &save); it && !ret; it = strtok_r(NULL, ",", &save)) {
		git_object *named = NULL, *obj = NULL;
		struct kpatch *p = NULL;

		if (path_is_file(it)) {
			p = patch_of_file(v, it, &ret);
		} else if (git_revparse_single(&named, v->lab.tree.repo, it) == 0 &&
			   git_object_peel(&obj, named, GIT_OBJECT_COMMIT) == 0) {
			if (!have_base && !c->npatches)
				c->commit = *git_object_id(obj);
			else
				p = patch_of_commit(v, v->lab.tree.repo, git_object_id(obj), &ret);
			have_base = true;
		} else {
			ret = pv_error_set_about(PV_EINVALID, LAB_INPUT_CANDIDATE, "%s: '%s' is neither "
						 "a patch file nor a commit of %s", c->name, it,
						 v->lab.tree.what);
		}
		if (p)
			add_patch(c, p);
		git_object_free(named);
		git_object_free(obj);
		git_error_clear();
	}
	free(items);
	return ret;
}

/* --expect NAME=pass|bug|<a --bug of its own> for a --candidate. */
static int parse_expect(struct verify *v, const char *spec)
{
	const char *eq = strchr(spec, '=');

	if (!eq)
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_EXPECT, "'%s': give NAME=pass, NAME=bug "
					  "or NAME=<how the bug shows>", spec);
	for (size_t i = 0; i < v->n; i++) {
		struct candidate *c = &v->c[i];
		if (strlen(c->name) == (size_t)(eq - spec) && !strncmp(c->name, spec, (size_t)(eq - spec))) {
			c->judge = true;
			return lab_parse_expectation(&c->expect, eq + 1, &v->lab.bug, &c->own_bug);
		}
	}
	return pv_error_set_about(PV_EINVALID, LAB_INPUT_EXPECT, "'%s': no candidate is called '%.*s'",
				  spec, (int)(eq - spec), spec);
}

static int scenario_user(struct verify *v)
{
	int ret = 0;

	for (char **s = v->o->candidates; *s && !ret; s++)
		ret = parse_candidate(v, *s);
	for (char **s = v->o->expects; !ret && s && *s; s++)
		ret = parse_expect(v, *s);
	return ret;
}

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
	history_load_branches(v->h);
	contain_init(&c, v->h);
	ret = triage_run(t, v->h, &c, v->fix, NULL, EVIDENCE_ALL);
	v->have_triage = ret == 0;
	if (!ret && !t->groups[0].naffected)
		ret = pv_error_set(PV_EUNCONFIRMED, "the triage finds no release with the bug "
			    "(%s): nothing to verify", t->groups[0].verdict);
	if (!ret && v->o->measure && !releases)
		ret = pv_error_set_about(PV_EINVALID, LAB_INPUT_MEASURE, "%s has no "
					 "history of %s to bisect: give --kernel-tree with it",
					 v->lab.tree.what, v->fix_hex);
	if (!ret) {
		v->scenario = releases ? "releases" : "model";
		ret = releases ? scenario_releases(v, t) : scenario_model(v, t);
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
		v->scenario = "user";
		return scenario_user(v);
	}
	return derive(v);
}

/* --- build prerequisites (prereq.h) */

/* The state of the same release without patches, when it ran: did it build (boot or not)? */
static bool release_builds(const struct verify *v, const struct candidate *c)
{
	for (const struct candidate *k = v->c; k < v->c + v->n; k++)
		if (k != c && !k->npatches && git_oid_equal(&k->commit, &c->commit) && k->planned)
			return k->status != PV_EBUILD && k->status != PV_EPATCH;
	return false;
}

static bool needs_prereqs(const struct verify *v, const struct candidate *c)
{
	return c->status == PV_EBUILD && v->fix_patch && c->npatches &&
	       c->patches[c->npatches - 1] == v->fix_patch && release_builds(v, c);
}

/* A prerequisite's change, owned by the run as the fix's is. */
static struct kpatch *prereq_patch(void *data, const git_oid *commit, int *ret)
{
	struct verify *v = data;

	return patch_of_commit(v, v->lab.tree.repo, commit, ret);
}

/* Run candidate i of n, and find its build prerequisites when it needs them. */
static int run_candidate(struct verify *v, size_t i)
{
	int ret = lab_run(&v->lab, &v->c[i], i, v->n);

	if (!ret && needs_prereqs(v, &v->c[i])) {
		struct prereq_search search = { &v->lab, v->h, v->fix, VERIFY_PREREQ_ROUNDS,
						prereq_patch, v };
		ret = prereq_find(&search, &v->c[i], i, v->n);
	}
	return ret;
}

/* --- where the bug shows, measured, beside the text */

static bool planned_tag(const struct verify *v, uint32_t tag)
{
	for (size_t i = 0; i < v->npairs; i++)
		if (v->pairs[i].tag == tag)
			return true;
	return false;
}

/* The text's introducer: the headline group's earliest (as the CVE record takes it). */
static void text_culprit(const struct verify *v, struct measure_input *in)
{
	in->culprit = triage_introducer(&v->t, v->h, &in->culprit_release);
}

static int seen_of(const struct candidate *c)
{
	return c->status || !c->log ? -1 : c->bug_seen;
}

/* The measured first release, when the plan did not boot it: it, and it with the fix. */
static int add_measured_pair(struct verify *v)
{
	const struct triage_group *g = &v->t.groups[0];
	size_t first = v->n;
	int ret = 0;

	if (v->m.first_commit == PV_NONE || planned_tag(v, v->m.first))
		return 0;
	/* booted now: no longer left out */
	for (size_t i = 0; i < v->nleft_out; i++)
		if (!strcmp(v->left_out[i], tag_name(v, v->m.first))) {
			free(v->left_out[i]);
			memmove(&v->left_out[i], &v->left_out[i + 1],
				(v->nleft_out - i - 1) * sizeof(*v->left_out));
			v->nleft_out--;
			break;
		}
	for (size_t i = 0; i < g->naffected; i++)
		if (g->affected[i] == v->m.first && !(ret = add_pair(v, v->m.first, &g->fits[i],
								       v->fix_patch, PLAN_FIRST))) {
			free(v->c[first].role);
			v->c[first].role = xstrdup("measured first affected release: the bug must show");
			free(v->c[first + 1].role);
			v->c[first + 1].role = xstrdup("measured first affected release, fix applied: "
						       "must pass");
		}
	for (size_t i = first; !ret && i < v->n; i++)
		ret = run_candidate(v, i);
	return ret;
}

static int measure(struct verify *v)
{
	struct measure_state *st = xcalloc(v->npairs + 1, sizeof(*st));
	struct measure_input in = { st, v->npairs, -1, PV_NONE, PV_NONE, PV_NONE, v->o->measure };
	int ret;

	/* mainline releases draw the line: a stable tag is on a branch of its own */
	for (size_t i = 0; i < v->npairs; i++) {
		st[i].tag = v->pairs[i].tag;
		st[i].seen = kver_is_stable(&v->h->tags.v[st[i].tag].ver) ? -1 :
			     seen_of(&v->c[v->pairs[i].c]);
	}
	if (v->control != SIZE_MAX) {
		in.control_seen = seen_of(&v->c[v->control]);
		in.control_tag = v->control_tag;
	}
	text_culprit(v, &in);
	ret = measure_run(v->h, &v->lab, &in, &v->m);
	v->measured = true;
	free(st);
	if (!ret)
		ret = add_measured_pair(v);
	/* the text's releases the boots put outside: listed, not held against the fix */
	for (size_t i = 0; !ret && i < v->npairs; i++) {
		struct candidate *c = &v->c[v->pairs[i].c];
		/* a release that did not run is outside too when the measured range excludes it */
		c->outside = !kver_is_stable(&v->h->tags.v[v->pairs[i].tag].ver) &&
			     !measure_covers(v->h, &v->m, v->pairs[i].tag) && seen_of(c) != 1;
		/* and the fix on a release without the bug proves nothing either way */
		c[1].outside = c->outside;
	}
	return ret;
}

/* One sentence: what the boots show. */
static char *verdict_of(const struct verify *v, bool *confirmed)
{
	struct sbuf bugs = SBUF_INIT, off = SBUF_INIT, outside = SBUF_INIT, unrun = SBUF_INIT;
	char *s;

	*confirmed = v->n > 0;
	for (size_t i = 0; i < v->n; i++) {
		const struct candidate *c = &v->c[i];
		if (c->judge && c->expect.bug && c->ok)
			sbuf_addf(&bugs, "%s%s", bugs.len ? ", " : "", c->name);
		if (c->outside && c->expect.bug && c->status)
			sbuf_addf(&unrun, "%s%s", unrun.len ? ", " : "", c->name);
		else if (c->outside && c->expect.bug)
			sbuf_addf(&outside, "%s%s", outside.len ? ", " : "", c->name);
		else if (!c->ok && !c->outside) {
			*confirmed = false;
			sbuf_addf(&off, "%s%s (%s)", off.len ? "; " : "", c->name,
				  c->why ? c->why : "not run");
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
	if (*confirmed && !strcmp(v->scenario, "user"))
		s = xstrfmt("every candidate as expected");
	else if (*confirmed)
		s = xstrfmt("fix confirmed%s: the bug shows in %s and is gone with %s applied%s%s%s",
			outside.len || unrun.len ? " on the measured range" : "",
			bugs.len ? bugs.buf : "no candidate", v->applied_fix ? v->applied_fix :
			*v->fix_hex ? v->fix_hex : "the fix",
			!strcmp(v->scenario, "releases") ? " in every one" : "",
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
		if (v->c[i].status)
			return v->c[i].status;
	return 0;
}

/* The plan's part of the result: states, what was left out, and what it should cost. */
/* What --measure may add: the widest run of affected releases between two planned ones. */
static void measure_bound(const struct verify *v, struct verify_result *r)
{
	const struct triage_group *g = &v->t.groups[0];
	size_t gap = 0, run = 0;

	for (size_t i = 0; v->have_triage && i < g->naffected; i++) {
		if (kver_is_stable(&v->h->tags.v[g->affected[i]].ver))
			continue;
		if (planned_tag(v, g->affected[i]))
			run = 0;
		else if (++run > gap)
			gap = run;
	}
	r->measure_gap = gap;
	r->measure_builds = 0;
	while (gap && (1u << r->measure_builds) < gap)
		r->measure_builds++;
	r->measure_builds += gap ? 2 : 0;
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
		struct measure_input in;
		text_culprit(v, &in);
		r->culprit = in.culprit;
	}
	measure_bound(v, r);
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
		r->nbuild += !v->c[i].cached && v->c[i].status != PV_EPATCH;
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
		ret = run_candidate(v, i);
	if (!ret && !strcmp(v->scenario, "releases") && v->npairs)
		ret = measure(v);
	if (!ret)
		fill_result(v, r);
	return ret;
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
