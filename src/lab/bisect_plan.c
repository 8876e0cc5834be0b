/*
 * A bisection's plan (bisect_plan.h): what it will build and boot at most,
 * said before it builds anything.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/bisect_plan.h"
#include "patchver/lab/bisect_state.h"
#include "patchver/lab/candidate.h"
#include "patchver/lab/input.h"

int bisect_plan_log2(size_t n)
{
	int k = 0;

	while (n > 1 && ((size_t)1 << k) < n)
		k++;
	return k;
}

/* First-parent commits of new that old lacks: the commit stage's search between them. */
static size_t gap(struct dag *dag, uint32_t old, uint32_t new)
{
	bool *below = dag_ancestors(dag, &old, 1);
	size_t n = 0;
	uint32_t c = new;

	while (c != PV_NONE && below && !below[c]) {
		unsigned np;
		const uint32_t *par = dag_parents(dag, c, &np);
		n++;
		c = np ? par[0] : PV_NONE;
	}
	free(below);
	return n;
}

/* Is the image of commit's state built already?  (lab_plan: its key, its files.) */
static int cached(struct bisect_run *b, uint32_t commit, bool *yes)
{
	struct candidate c = { 0 };
	int ret;

	c.name = xstrdup("plan");
	c.role = xstrdup("plan");
	c.expect.how = &b->lab->bug;
	c.commit = b->h->dag.oids[commit];
	c.patches = xmalloc(sizeof(*c.patches));
	ret = lab_plan(b->lab, &c);
	*yes = !ret && c.run.cached;
	candidate_free(&c);
	return ret;
}

/*
 * One search from old to new: the releases between them (both tags), the
 * largest first-parent gap between two neighbours, the images cached;
 * count_from: where its releases are counted from (the fix's search:
 * good, at most).
 */
static int phase(struct bisect_run *b, struct bisect_plan_phase *p, uint32_t old,
		 uint32_t old_tag, uint32_t new, uint32_t new_tag, uint32_t count_from)
{
	const struct tag_table *t = &b->h->tags;
	uint32_t *items = NULL, prev = old;
	size_t n = 0;
	int ret = 0;
	bool yes;

	p->present = true;
	/* as the search will say it, before the plan promises anything */
	if ((old_tag == PV_NONE || new_tag == PV_NONE) && !b->o->commits)
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_ENDS_NOT_TAGS, "%s and %s are not "
					  "both release tags: bisect the commits between them",
					  b->o->good, b->o->bad);
	if (old_tag != PV_NONE && new_tag != PV_NONE)
		items = bisect_releases(t, count_from, new_tag, b->o->series, &n);
	p->nreleases = n;
	p->release_steps = bisect_plan_log2(n);
	p->nstates = n + 1;
	if ((ret = cached(b, old, &yes)))
		goto out;
	p->ncached += yes;
	for (size_t i = 0; i < n; i++) {
		uint32_t c = t->v[items[i]].commit;
		size_t g = gap(&b->h->dag, prev, c);
		if (g > p->max_commits)
			p->max_commits = g;
		prev = c;
		if ((ret = cached(b, c, &yes)))
			goto out;
		p->ncached += yes;
	}
	if (!n) {
		p->max_commits = gap(&b->h->dag, old, new);
		p->nstates = 2;
		if ((ret = cached(b, new, &yes)))
			goto out;
		p->ncached += yes;
	}
	if (b->o->commits)
		p->commit_steps = bisect_plan_log2(p->max_commits);
out:
	free(items);
	return ret;
}

/* Builds and boots at most: both ends, each step, the answer and (with commits) its revert. */
static void work(const struct bisect_plan *pl, const struct bisect_plan_phase *p,
		 int *builds, int *boots)
{
	int steps = p->release_steps + p->commit_steps, states = 2 + steps + (p->commit_steps > 0);
	int uncached = states - (int)(p->ncached < (size_t)states ? p->ncached : (size_t)states);

	if (!p->present)
		return;
	*builds += uncached;
	*boots += (2 + steps) * pl->repeat + 2 * pl->confirm_boots;
}

/* The steps an interrupted run's journal answers (--resume): its lines. */
static size_t journal_lines(const char *path)
{
	FILE *f = path ? fopen(path, "r") : NULL;
	size_t n = 0;
	int ch;

	if (!f)
		return 0;
	while ((ch = fgetc(f)) != EOF)
		n += ch == '\n';
	fclose(f);
	return n;
}

int bisect_plan_make(struct bisect_run *b, uint32_t good, uint32_t good_tag, uint32_t bad,
		     uint32_t bad_tag, uint32_t fixed, uint32_t fixed_tag)
{
	struct bisect_plan *pl = &b->res.plan;
	int ret;

	memset(pl, 0, sizeof(*pl));
	pl->repeat = b->o->repeat;
	pl->confirm_boots = bisect_run_confirm_boots(b);
	pl->reg.old = b->o->good;
	pl->reg.new = b->o->bad;
	if ((ret = phase(b, &pl->reg, good, good_tag, bad, bad_tag, good_tag)))
		return ret;
	if (b->o->fix) {
		pl->fix.old = NULL;     /* the regression's first bad state, found later */
		pl->fix.new = b->o->fix;
		if ((ret = phase(b, &pl->fix, bad, bad_tag, fixed, fixed_tag, good_tag)))
			return ret;
	}
	work(pl, &pl->reg, &pl->max_builds, &pl->max_boots);
	work(pl, &pl->fix, &pl->max_builds, &pl->max_boots);
	pl->nbuild_records = lab_recorded_seconds(b->lab, "build", &pl->build_median);
	pl->nboot_records = lab_recorded_seconds(b->lab, "boot", &pl->boot_median);
	if (pl->nbuild_records || !pl->max_builds)
		pl->estimate = pl->max_builds * pl->build_median + pl->max_boots * pl->boot_median;
	if (b->o->resume)
		pl->journal_answers = journal_lines(b->res.log_path);
	b->res.planned = true;
	return 0;
}
