/*
 * --bisect-boot: bisection by booting kernels in the lab.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "patchver/base/error.h"
#include "patchver/base/proc.h"
#include "patchver/base/util.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/revs.h"
#include "patchver/stable/triage.h"
#include "patchver/lab/bisect_plan.h"
#include "patchver/lab/bisect_run.h"
#include "patchver/lab/bisect_search.h"
#include "patchver/lab/bisect_state.h"

/* --- revs, the window, the triage's view, reports */

/* A rev: its commit, and the release tag it names (PV_NONE: not a tag). */
static int resolve(struct bisect_run *b, const char *spec, uint32_t *commit, uint32_t *tag)
{
	struct rev rev;
	int ret = rev_resolve(&rev, b->h->repo, &b->h->dag, spec);

	*tag = PV_NONE;
	if (ret)
		return ret;
	*commit = rev.commit;
	for (size_t i = 0; i < b->h->tags.nr; i++)
		if (b->h->tags.v[i].release && !strcmp(b->h->tags.v[i].shortname, spec))
			*tag = (uint32_t)i;
	return 0;
}

/* Mainline releases from the first bad up to the last not fixed: proven by boots. */
static uint32_t *window(const struct bisect_run *b, size_t *n)
{
	const struct tag_table *t = &b->h->tags;
	uint32_t *out = xmalloc((t->nreleases + 1) * sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < t->nreleases; i++) {
		uint32_t r = t->releases[i];
		if (kver_is_stable(&t->v[r].ver) ||
		    tags_cmp_version(t, r, b->res.reg.first_new_tag) < 0 ||
		    tags_cmp_version(t, r, b->res.fix.first_new_tag) >= 0)
			continue;
		out[(*n)++] = r;
	}
	return out;
}

static bool same_set(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* The triage of the fix the boots found: which mainline releases it says have the bug. */
static void triage_view(struct bisect_run *b)
{
	struct bisect_boot_result *r = &b->res;
	struct contain c;
	struct triage t;

	if (r->fix.commit == PV_NONE)
		return;
	contain_init(&c, b->h);
	if (triage_run(&t, b->h, &c, r->fix.commit, NULL, EVIDENCE_ALL) == 0) {
		r->have_triage = true;
		r->triage_affected = xmalloc((t.groups[0].naffected + 1) *
					     sizeof(*r->triage_affected));
		for (size_t i = 0; i < t.groups[0].naffected; i++)
			if (!kver_is_stable(&b->h->tags.v[t.groups[0].affected[i]].ver))
				r->triage_affected[r->ntriage_affected++] = t.groups[0].affected[i];
		for (size_t i = 0; i < t.ev.nr; i++)
			r->names_culprit = r->names_culprit || t.ev.v[i].commit == r->reg.commit;
		r->agree = same_set(r->window, r->nwindow, r->triage_affected,
				    r->ntriage_affected);
		triage_free(&t);
	}
	contain_free(&c);
}

static int run(struct bisect_run *b)
{
	uint32_t good, good_tag, bad, bad_tag, fixed = 0, fixed_tag = 0;
	int ret;

	if ((ret = resolve(b, b->o->good, &good, &good_tag)) ||
	    (ret = resolve(b, b->o->bad, &bad, &bad_tag)) ||
	    (b->o->fix && (ret = resolve(b, b->o->fix, &fixed, &fixed_tag))))
		return ret;
	b->lab_opts = b->o->lab;
	if (!b->lab_opts.kernel_tree)
		b->lab_opts.kernel_tree = git_repository_path(b->h->repo);
	b->lab_opts.quiet = true;
	if ((ret = lab_open(b->lab, &b->lab_opts)))
		return ret;
	bisect_open_journal(b);
	b->res.reproducer = b->lab->repro.source ? xstrdup(b->lab->repro.source) : NULL;
	b->res.bug = xstrdup(b->lab->bug.text);
	if (b->ev && b->ev->started)
		b->ev->started(b->ev->data, b->lab->tree.what, b->res.reproducer, b->o->repeat,
			       bisect_run_confirm_boots(b));
	/* what it will do, before the first build; --dry-run: all of it */
	if ((ret = bisect_plan_make(b, good, good_tag, bad, bad_tag, fixed, fixed_tag)))
		return ret;
	if (b->ev && b->ev->planned)
		b->ev->planned(b->ev->data, &b->res.plan);
	if (b->o->dry_run)
		return 0;
	if ((ret = bisect_find(b, &b->res.reg, good, good_tag, bad, bad_tag)) || !b->o->fix)
		return ret;
	b->fix_mode = true;
	return bisect_find(b, &b->res.fix, b->res.reg.first_new, b->res.reg.first_new_tag, fixed,
			   fixed_tag);
}

int bisect_boot_boundary(struct history *h, struct lab *l, const struct bisect_boundary *q,
			 const struct bisect_events *ev, struct bisect_boot_result *r)
{
	struct bisect_opts o = { .commits = true, .repeat = 1 };
	struct bisect_finding *f;
	struct bisect_run b;
	int ret;

	memset(&b, 0, sizeof(b));
	b.h = h;
	b.o = &o;
	b.ev = ev;
	b.lab = l;
	b.fix_mode = q->fix_phase;
	b.start = time(NULL);
	o.good = h->tags.v[q->old_tag].shortname;
	o.bad = h->tags.v[q->new_tag].shortname;
	f = &b.res.reg;
	ret = bisect_find_boundary(&b, f, q->old_tag, q->new_tag);
	b.res.reported = !ret || ret == PV_EUNCONFIRMED;
	b.res.confirmed = f->done && !f->ambiguous && f->confirmed;
	b.res.seconds = (long)(time(NULL) - b.start);
	*r = b.res;
	return ret;
}

int bisect_boot(struct history *h, const struct bisect_opts *o, const struct bisect_events *ev,
		struct bisect_boot_result *r)
{
	struct bisect_run b;
	struct bisect_boot_result *res = &b.res;
	int ret;

	memset(&b, 0, sizeof(b));
	b.lab = &b.own;
	b.h = h;
	b.o = o;
	b.ev = ev;
	b.start = time(NULL);
	res->reg.commit = res->fix.commit = PV_NONE;
	proc_install_signals();
	ret = run(&b);
	if (o->dry_run) {
		/* the plan alone: no findings */
	} else if (!ret || (ret != PV_EINTERRUPTED && ret != PV_ENOTOOL && res->reg.done)) {
		res->reported = true;
		if (res->fix.done && !res->fix.ambiguous && res->fix.first_new_tag != PV_NONE &&
		    res->reg.first_new_tag != PV_NONE) {
			res->have_window = true;
			res->window = window(&b, &res->nwindow);
		}
		triage_view(&b);
		res->confirmed = !res->reg.ambiguous && res->reg.confirmed &&
				 (!res->fix.done || (!res->fix.ambiguous && res->fix.confirmed));
	}
	res->seconds = (long)(time(NULL) - b.start);
	if (b.own.cache)
		lab_close(&b.own);
	*r = b.res;
	return ret;
}

static void finding_free(struct bisect_finding *f)
{
	free(f->candidates);
	free(f->confirm_why);
}

void bisect_boot_result_free(struct bisect_boot_result *r)
{
	for (size_t i = 0; i < r->nsteps; i++) {
		free(r->steps[i].label);
		free(r->steps[i].kind);
		free(r->steps[i].why);
	}
	free(r->steps);
	finding_free(&r->reg);
	finding_free(&r->fix);
	free(r->window);
	free(r->triage_affected);
	free(r->log_path);
	free(r->reproducer);
	free(r->bug);
	memset(r, 0, sizeof(*r));
}
