/*
 * --verify-boot's candidates (verify_candidates.h), one scenario each: the
 * history's releases from the fix's triage, a patch series that models
 * the story, or the user's --candidate and --expect.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/input.h"
#include "patchver/lab/unbuilt.h"
#include "patchver/lab/verify_candidates.h"

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

struct kpatch *verify_patch_of_commit(struct verify *v, git_repository *repo,
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

const char *verify_tag_name(const struct verify *v, uint32_t tag)
{
	return v->h->tags.v[tag].shortname;
}

/* Two tags of one stable line (kver.h answers "the same series?"). */
static bool same_stable_line(const struct kver *a, const struct kver *b)
{
	return kver_same_series(a, b) && kver_is_stable(a) && kver_is_stable(b);
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

int verify_add_pair(struct verify *v, uint32_t tag, const struct release_fit *f,
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
	c = add(v, xstrdup(verify_tag_name(v, tag)), "", &commit);
	free(c->role);
	c->role = role_of(v, tag, why);
	expect_bug(v, c);
	c = add(v, xstrfmt("%s+fix", verify_tag_name(v, tag)), f->nprereqs ?
		"affected, fix and its prerequisites applied: must pass" :
		"affected, fix applied: must pass", &commit);
	for (size_t k = 0; k < f->nprereqs; k++) {
		struct kpatch *p = verify_patch_of_commit(v, v->h->repo,
							  &v->h->dag.oids[f->prereqs[k]], &ret);
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
			!same_stable_line(&tt->v[g->affected[i + 1]].ver, ver));

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
int verify_scenario_releases(struct verify *v, const struct triage *t)
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

	if (!(fix = verify_patch_of_commit(v, v->h->repo, &v->h->dag.oids[v->fix], &ret)))
		goto out;
	v->fix_patch = fix;
	/* the plan and each build say where the fix's files are not compiled */
	v->lab_opts.watch = unbuilt_sources(fix);
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
		v->plan_note = xstrfmt("no control: %s left out to fit the states",
				       verify_tag_name(v, control));
	else if (t->fix_first != PV_NONE && !want_fixed)
		v->plan_note = xstrfmt("%s, the first release with the fix, left out to fit the states",
				       verify_tag_name(v, t->fix_first));
	if (want_control) {
		if ((ret = tag_commit(v, control, &commit)))
			goto out;
		v->control = v->n;
		v->control_tag = control;
		add(v, xstrdup(verify_tag_name(v, control)), "control: last release before the bug",
		    &commit);
	}
	for (size_t k = 0; k < n && !ret; k++) {
		uint32_t tag = g->affected[idx[k]];
		if (why[k] == PLAN_LEFT_OUT)
			left_out(v, verify_tag_name(v, tag));
		else
			ret = verify_add_pair(v, tag, &g->fits[idx[k]], fix, why[k]);
	}
	if (!ret && want_fixed && !(ret = tag_commit(v, t->fix_first, &commit)))
		add(v, xstrdup(verify_tag_name(v, t->fix_first)), "first release with the fix", &commit);
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
int verify_scenario_model(struct verify *v, const struct triage *t)
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
	v->lab_opts.watch = unbuilt_sources(fix);
	if (control != PV_NONE) {
		c = add(v, xstrdup("control"), "last release before the bug, pristine", base);
		c->models = xstrdup(verify_tag_name(v, control));
	}
	c = add(v, xstrdup("bug"), "first release with the bug: the bug must show", base);
	c->models = xstrdup(verify_tag_name(v, t->groups[0].affected[0]));
	add_patch(c, model);
	expect_bug(v, c);
	c = add(v, xstrdup("bug+fix"), "first release with the bug, fix applied", base);
	c->models = xstrdup(verify_tag_name(v, t->groups[0].affected[0]));
	add_patch(c, model);
	add_patch(c, fix);
	if (t->fix_first != PV_NONE) {
		c = add(v, xstrdup("fixed"), "first release with the fix", base);
		c->models = xstrdup(verify_tag_name(v, t->fix_first));
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
				p = verify_patch_of_commit(v, v->lab.tree.repo, git_object_id(obj), &ret);
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
			return expectation_parse(&c->expect, eq + 1, &v->lab.bug, &c->own_bug);
		}
	}
	return pv_error_set_about(PV_EINVALID, LAB_INPUT_EXPECT, "'%s': no candidate is called '%.*s'",
				  spec, (int)(eq - spec), spec);
}

int verify_scenario_user(struct verify *v)
{
	int ret = 0;

	for (char **s = v->o->candidates; *s && !ret; s++)
		ret = parse_candidate(v, *s);
	for (char **s = v->o->expects; !ret && s && *s; s++)
		ret = parse_expect(v, *s);
	return ret;
}
