/*
 * Backport readiness (readiness.h): the fix on the release as it is, the
 * prerequisites that make it go in exactly, and what conflicts where
 * nothing does.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/engine/lineblame.h"
#include "patchver/stable/readiness.h"
#include "patchver/stable/readiness_names.h"
#include "patchver/stable/readiness_search.h"

const char *ready_answer_name(enum ready_answer a)
{
	static const char *const names[] = { "already", "applies", "after-prerequisites",
					     "conflict" };

	return names[a];
}

static const struct apply_opts exact = { 0 };

void readiness_free(struct readiness *r)
{
	apply_report_free(&r->as_is);
	apply_report_free(&r->after);
	for (size_t i = 0; i < r->nsteps; i++) {
		free(r->steps[i].why);
		free(r->steps[i].conflict);
	}
	free(r->steps);
	for (size_t i = 0; i < r->nconflicts; i++) {
		struct ready_conflict *c = &r->conflicts[i];
		free(c->path);
		free(c->section);
		text_lines_free(&c->wants);
		text_lines_free(&c->has);
		free(c->changed_by);
		free(c->changed_here);
	}
	free(r->conflicts);
	for (size_t i = 0; i < r->nnames; i++) {
		free(r->names[i].name);
		free(r->names[i].file);
	}
	free(r->names);
	memset(r, 0, sizeof(*r));
}

/* Is the fix there already: an ancestor of the release, or carried by its line? */
static bool already(struct readiness *r, struct ready_search *x, const struct patch *p)
{
	struct history *h = x->h;

	if (r->fix != PV_NONE && x->in_onto[r->fix]) {
		r->already_by = r->fix;
		r->already_how = "contains it";
	} else if (r->fix != PV_NONE && (r->already_by = ready_search_carrier(x, r->fix)) != PV_NONE) {
		r->already_how = "upstream line";
	} else {
		for (size_t i = 0; i < x->nline && r->already_by == PV_NONE; i++)
			if (!x->reverted[i] && p->has_patchid &&
			    patch_same_id(h->repo, &h->dag, x->line[i], p))
				r->already_by = x->line[i];
		r->already_how = "patch-id";
	}
	return r->already_by != PV_NONE;
}

static void add_step(struct readiness *r, size_t at, uint32_t commit, unsigned depth,
		     uint32_t needed_by)
{
	struct ready_step *s;

	r->steps = xrealloc(r->steps, (r->nsteps + 1) * sizeof(*r->steps));
	memmove(r->steps + at + 1, r->steps + at, (r->nsteps - at) * sizeof(*r->steps));
	r->nsteps++;
	s = &r->steps[at];
	memset(s, 0, sizeof(*s));
	s->commit = commit;
	s->depth = depth;
	s->needed_by = needed_by;
}

/* The release's files (only paths; NULL: all), with steps[0, n) gone in. */
static int start_with_steps(struct readiness *r, struct ready_search *x, char *const *paths,
			    size_t npaths, size_t n, struct apply_tree *t)
{
	apply_tree_init(t, x->h->repo, &x->h->dag.trees[r->onto]);
	if (paths)
		apply_tree_only(t, paths, npaths);
	for (size_t i = 0; i < n; i++) {
		struct ready_cand *c = ready_search_cand(x, r->steps[i].commit);
		int how = c ? apply_tree_diff(t, &c->diff, &c->opts, NULL) : PV_ECORRUPT;
		if (how < 0)
			return how;
	}
	return 0;
}

/*
 * Does list go in after steps[0, i), every commit of it whole and as it is
 * (no conflict adapted)?  A deeper list that needs adapting itself is no
 * better than adapting the step it was for.  1, 0 or a PV_E* code.
 */
static int goes_in_whole(struct readiness *r, struct ready_search *x, size_t i,
			 const uint32_t *list, size_t n)
{
	struct apply_tree t;
	int ret = start_with_steps(r, x, NULL, 0, i, &t);

	for (size_t k = 0; k < n && ret == 0; k++) {
		struct ready_cand *c = ready_search_cand(x, list[k]);
		int how;
		if (!c) {
			ret = PV_ECORRUPT;
			break;
		}
		how = apply_tree_diff(&t, &c->diff, &c->as_is, NULL);
		ret = how < 0 ? how : how >= APPLY_ADAPTED ? 1 : 0;
	}
	apply_tree_free(&t);
	return ret < 0 ? ret : ret == 0;
}

/*
 * A step that goes in only adapted: look for the commits that let it go
 * in as it is (to READINESS_MAX_DEPTH), put before it.
 */
static int deepen(struct readiness *r, struct ready_search *x)
{
	struct dag *dag = &x->h->dag;
	size_t i = 0;
	int ret = 0;

	while (i < r->nsteps && !ret) {
		struct ready_step s = r->steps[i];
		struct ready_cand *c = ready_search_cand(x, s.commit);
		struct apply_tree t;
		uint32_t *cands = NULL, *list = NULL, *skip, np;
		const uint32_t *par;
		size_t ncands = 0, n = 0;
		int how;

		if (!c)
			return PV_ECORRUPT;
		if ((ret = start_with_steps(r, x, c->paths, c->npaths, i, &t)) < 0)
			break;
		how = s.depth < READINESS_MAX_DEPTH ? apply_tree_diff(&t, &c->diff, &c->as_is, NULL)
						   : APPLY_CLEAN;
		apply_tree_free(&t);
		if (how < 0 || how < APPLY_ADAPTED) {
			ret = how < 0 ? how : 0;
			i++;
			continue;
		}
		skip = xmalloc((r->nsteps + 1) * sizeof(*skip));
		for (size_t k = 0; k < r->nsteps; k++)
			skip[k] = r->steps[k].commit;
		par = dag_parents(dag, s.commit, &np);
		ret = ready_search_candidates(x, par[0], c->paths, c->npaths, skip, r->nsteps,
					      &cands, &ncands);
		free(skip);
		if (!ret && r->ncandidates + ncands > READINESS_MAX_CANDIDATES)
			ncands = 0;     /* beyond the bound: it stays adapted */
		r->ncandidates += ncands;
		if (!ret && ncands && !(ret = start_with_steps(r, x, c->paths, c->npaths, i, &t))) {
			ret = ready_search_minimal(x, &t, cands, ncands, &c->diff, &c->as_is, APPLY_3WAY,
						   &list, &n);
			apply_tree_free(&t);
		}
		free(cands);
		if (ret == 1)
			ret = goes_in_whole(r, x, i, list, n);  /* 0: it stays adapted */
		if (ret == 1) {
			for (size_t k = 0; k < n; k++)
				add_step(r, i + k, list[k], s.depth + 1, s.commit);
			ret = 0;
		} else if (ret == 0) {
			i++;
		}
		free(list);
	}
	return ret < 0 ? ret : 0;
}

/* Each step with its whole diff, in order: how it goes in, and what it conflicts on. */
static int check_steps(struct readiness *r, struct ready_search *x)
{
	struct apply_tree t;
	int ret = 0;

	apply_tree_init(&t, x->h->repo, &x->h->dag.trees[r->onto]);
	for (size_t i = 0; i < r->nsteps && ret >= 0; i++) {
		struct ready_step *s = &r->steps[i];
		struct ready_cand *c = ready_search_cand(x, s->commit);
		struct apply_report rep = { 0 };
		if (!c) {
			ret = PV_ECORRUPT;
			break;
		}
		/* as it is first: what does not go in is what to adapt */
		struct apply_tree probe;
		apply_tree_copy(&probe, &t);
		ret = apply_tree_diff(&probe, &c->diff, &c->as_is, &rep);
		apply_tree_free(&probe);
		if (ret == APPLY_CONFLICT)
			s->conflict = xstrdup(apply_report_why(&rep) ? apply_report_why(&rep) : "");
		if (ret >= 0)
			ret = apply_tree_diff(&t, &c->diff, &c->opts, NULL);
		if (ret >= 0)
			s->how = (enum apply_how)ret;
		s->why = s->needed_by == r->fix ? xstrdup("the fix needs it")
			 : xstrfmt("%.12s needs it", git_oid_tostr_s(&x->h->dag.oids[s->needed_by]));
		apply_report_free(&rep);
	}
	apply_tree_free(&t);
	return ret < 0 ? ret : 0;
}

/* The distinct commits of v[0, n) that mask says (or, !want, does not say) are in; PV_NONE aside. */
static uint32_t *commits_where(const uint32_t *v, size_t n, const bool *mask, bool want, size_t *out)
{
	uint32_t *keep = xmalloc((n + 1) * sizeof(*keep));

	*out = 0;
	for (size_t i = 0; i < n; i++) {
		bool dup = false;
		if (v[i] == PV_NONE || mask[v[i]] != want)
			continue;
		for (size_t k = 0; k < *out && !dup; k++)
			dup = keep[k] == v[i];
		if (!dup)
			keep[(*out)++] = v[i];
	}
	return keep;
}

/*
 * Where the hunk's lines would be in img: the nearest line of the hunk
 * found there, moved back by its place in the hunk; else its own line.
 */
static size_t anchor(const struct text_lines *img, const struct file_hunk *hk, size_t want)
{
	for (size_t i = 0; i < hk->pre.nr; i++) {
		if (hk->pre.len[i] < 4)
			continue;       /* "}\n", blank lines: everywhere */
		for (size_t d = 0; d < img->nr; d++) {
			size_t at[2] = { want + i - d, want + i + d };
			for (int k = 0; k < 2; k++) {
				if ((k == 0 && d > want + i) || at[k] >= img->nr)
					continue;
				if (img->len[at[k]] == hk->pre.len[i] &&
				    !memcmp(img->v[at[k]], hk->pre.v[i], hk->pre.len[i]))
					return at[k] >= i ? at[k] - i : 0;
			}
		}
	}
	return want;
}

/* One hunk that does not go in: the lines it wants, the release's, and who changed them. */
static void conflict_of(struct readiness *r, struct ready_search *x, const struct file_diff *f,
			size_t k, const struct text_lines *img, long shift)
{
	struct history *h = x->h;
	const struct file_hunk *hk = &f->hunks[k];
	struct ready_conflict *c;
	size_t want = hk->old_start > 0 ? (size_t)((long)hk->old_start - 1 + shift) : 0;
	size_t at = anchor(img, hk, want), n = hk->pre.nr;
	size_t *lines = xmalloc((n + 1) * sizeof(*lines));
	uint32_t *who = xmalloc((n + 1) * sizeof(*who)), np;
	const uint32_t *par = r->fix != PV_NONE ? dag_parents(&h->dag, r->fix, &np) : NULL;

	r->conflicts = xrealloc(r->conflicts, (r->nconflicts + 1) * sizeof(*r->conflicts));
	c = &r->conflicts[r->nconflicts++];
	memset(c, 0, sizeof(*c));
	c->path = xstrdup(file_diff_path(f));
	c->hunk = (int)k + 1;
	c->section = xstrdup(hk->section);
	c->line = (long)at + 1;
	text_lines_copy(&c->wants, &hk->pre);
	for (size_t i = 0; i < n && at + i < img->nr; i++)
		text_lines_add(&c->has, img->v[at + i], img->len[at + i]);
	/* the fix's parent: who made the lines the hunk wants, since the base */
	for (size_t i = 0; i < n; i++)
		lines[i] = (size_t)hk->old_start + i;
	if (par && np && f->old_path && n &&
	    lineblame(h->repo, &h->dag, par[0], f->old_path, lines, n, who) == 0)
		c->changed_by = commits_where(who, n, x->in_onto, false, &c->nchanged);
	/* the release: who of its own line made the lines it has there */
	for (size_t i = 0; i < c->has.nr; i++)
		lines[i] = at + 1 + i;
	if (c->has.nr && f->old_path &&
	    lineblame(h->repo, &h->dag, r->onto, f->old_path, lines, c->has.nr, who) == 0)
		c->changed_here = commits_where(who, c->has.nr, x->in_tip, false, &c->nhere);
	free(lines);
	free(who);
}

/* The fix's hunks that go into the release in no context. */
static void find_conflicts(struct readiness *r, struct ready_search *x, const struct diff_files *d)
{
	struct apply_tree t;

	apply_tree_init(&t, x->h->repo, &x->h->dag.trees[r->onto]);
	for (size_t i = 0; i < d->nr; i++) {
		const struct file_diff *f = &d->v[i];
		const struct text_lines *img = f->old_path ? apply_tree_file(&t, f->old_path) : NULL;
		long shift = 0;
		bool merged = false;
		for (size_t k = 0; k < r->as_is.nfiles; k++)
			merged |= !strcmp(r->as_is.files[k].path, file_diff_path(f)) &&
				  r->as_is.files[k].how < APPLY_CONFLICT;
		if (!img || merged)
			continue;       /* a missing file is said by the apply report */
		for (size_t k = 0; k < f->nhunks; k++) {
			const struct file_hunk *hk = &f->hunks[k];
			size_t want = hk->old_start > 0 ? (size_t)((long)hk->old_start - 1 + shift) : 0;
			size_t at;
			unsigned fuzz;
			if (hunk_find(img, hk, 2, want, &at, &fuzz))
				shift += (long)at - (long)want;
			else
				conflict_of(r, x, f, k, img, shift);
		}
	}
	apply_tree_free(&t);
}

/* The prerequisites that make the fix go in exactly: READY_AFTER, or nothing found. */
static int search(struct readiness *r, struct ready_search *x, const struct patch *p,
		  const struct diff_files *d)
{
	struct dag *dag = &x->h->dag;
	struct apply_tree start, t;
	uint32_t *cands = NULL, *list = NULL, np;
	const uint32_t *par = dag_parents(dag, r->fix, &np);
	size_t ncands = 0, n = 0;
	int ret;

	if ((ret = ready_search_candidates(x, par[0], p->paths, p->npaths, NULL, 0, &cands,
					   &ncands)) < 0)
		return ret;
	r->ncandidates = ncands;
	if (ncands > READINESS_MAX_CANDIDATES) {
		r->too_many = true;
		free(cands);
		return 0;
	}
	apply_tree_init(&start, x->h->repo, &dag->trees[r->onto]);
	apply_tree_only(&start, p->paths, p->npaths);
	ret = ready_search_minimal(x, &start, cands, ncands, d, &exact, APPLY_CLEAN, &list, &n);
	apply_tree_free(&start);
	free(cands);
	if (ret <= 0)
		return ret;
	for (size_t i = 0; i < n; i++)
		add_step(r, i, list[i], 1, r->fix);
	free(list);
	if ((ret = deepen(r, x)) < 0 || (ret = check_steps(r, x)) < 0)
		return ret;
	/* the fix after them, on its own files */
	if ((ret = start_with_steps(r, x, p->paths, p->npaths, r->nsteps, &t)) == 0) {
		ret = apply_tree_diff(&t, d, &exact, &r->after);
		if (ret >= 0)
			r->answer = READY_AFTER;
	}
	apply_tree_free(&t);
	return ret < 0 ? ret : 0;
}

/*
 * The fix as a commit: one parent (*parent), and its patch read into own
 * when the caller gave none (*p).  0 or a PV_E* code.
 */
static int fix_commit(struct history *h, uint32_t fix, const struct patch **p, struct patch *own,
		      uint32_t *parent)
{
	uint32_t np;
	const uint32_t *par = dag_parents(&h->dag, fix, &np);

	if (np != 1)
		return pv_error_set(PV_EINVALID, "%s is %s: give the commit of the fix itself",
				    git_oid_tostr_s(&h->dag.oids[fix]), np ? "a merge" : "a root commit");
	*parent = par[0];
	if (*p)
		return 0;
	if (patch_from_commit(own, h->repo, &h->dag.oids[fix]) < 0)
		return pv_error_set(PV_ECORRUPT, "cannot read the diff of %s",
				    git_oid_tostr_s(&h->dag.oids[fix]));
	*p = own;
	return 0;
}

/* Where onto's line and the fix's parted: their merge base (PV_NONE: none found). */
static uint32_t merge_base(struct history *h, uint32_t a, uint32_t b)
{
	git_oid base;
	uint32_t found = PV_NONE;

	if (git_merge_base(&base, h->repo, &h->dag.oids[a], &h->dag.oids[b]) == 0)
		found = dag_find(&h->dag, &base);
	git_error_clear();
	return found;
}

/* The fix on onto as it is, then the search: r->answer, or a PV_E* code. */
static int answer(struct readiness *r, struct ready_search *x, const struct patch *p,
		  const struct diff_files *d, const git_oid *preimage)
{
	struct apply_opts best = { .max_fuzz = 2, .three_way = true, .preimage = preimage };
	struct apply_tree t;
	int ret;

	if (already(r, x, p)) {
		r->answer = READY_ALREADY;
		return 0;
	}
	apply_tree_init(&t, x->h->repo, &x->h->dag.trees[r->onto]);
	ret = apply_tree_diff(&t, d, &best, &r->as_is);
	apply_tree_free(&t);
	if (ret < 0)
		return ret;
	r->answer = r->as_is.how < APPLY_CONFLICT ? READY_APPLIES : READY_CONFLICT;
	if (r->as_is.how != APPLY_CLEAN) {
		if (r->fix != PV_NONE && (ret = search(r, x, p, d)) < 0)
			return ret;
		if (r->answer != READY_AFTER)
			find_conflicts(r, x, d);
	}
	if (r->fix != PV_NONE && r->answer != READY_CONFLICT) {
		/* the release as the prerequisites leave it */
		if ((ret = start_with_steps(r, x, NULL, 0, r->nsteps, &t)) == 0)
			ret = ready_names_check(r, x, d, &t);
		apply_tree_free(&t);
	}
	return ret < 0 ? ret : 0;
}

int readiness_check(struct readiness *r, struct history *h, uint32_t fix, const struct patch *p,
		    uint32_t onto)
{
	struct ready_search x;
	struct patch own = { 0 };
	struct diff_files d = { 0 };
	uint32_t parent = PV_NONE;
	int ret;

	memset(r, 0, sizeof(*r));
	r->fix = fix;
	r->onto = onto;
	r->base = r->already_by = PV_NONE;
	ready_search_init(&x, h, onto);
	if (fix != PV_NONE && (ret = fix_commit(h, fix, &p, &own, &parent)) < 0)
		goto out;
	if (!diff_files_parse(&d, p->diff)) {
		ret = pv_error_set(PV_EINVALID, "the fix changes no file");
		goto out;
	}
	if ((ret = ready_search_prepare(&x, fix != PV_NONE ? parent : onto)) < 0)
		goto out;
	if (fix != PV_NONE)
		x.base = r->base = merge_base(h, onto, fix);
	ret = answer(r, &x, p, &d, fix != PV_NONE ? &h->dag.trees[parent] : NULL);
out:
	ready_search_free(&x);
	diff_files_free(&d);
	patch_free(&own);
	return ret;
}

void readiness_summarize(const struct readiness *r, struct ready_summary *s)
{
	memset(s, 0, sizeof(*s));
	s->checked = true;
	s->onto = r->onto;
	s->answer = r->answer;
	s->how = r->as_is.how;
	s->nconflicts = r->nconflicts;
	s->already_by = r->already_by;
	s->already_how = r->already_how;
	if (r->answer != READY_AFTER)
		return;
	s->prereqs = xmalloc((r->nsteps + 1) * sizeof(*s->prereqs));
	for (size_t i = 0; i < r->nsteps; i++) {
		s->prereqs[s->nprereqs++] = r->steps[i].commit;
		s->adapted |= r->steps[i].how >= APPLY_ADAPTED;
	}
}

void ready_summary_free(struct ready_summary *s)
{
	free(s->prereqs);
	memset(s, 0, sizeof(*s));
}

char *ready_summary_words(const struct ready_summary *s)
{
	static const char *const as_is[] = { "clean", "with fuzz", "by a three-way merge",
					     "adapted", "conflicts" };

	switch (s->answer) {
	case READY_ALREADY:
		return xstrdup("already there");
	case READY_APPLIES:
		return xstrdup(as_is[s->how]);
	case READY_AFTER:
		return xstrfmt("after %zu prerequisite%s%s", s->nprereqs, s->nprereqs == 1 ? "" : "s",
			       s->adapted ? " (one to adapt)" : "");
	case READY_CONFLICT:
		break;
	}
	return xstrfmt("conflicts (%zu hunk%s)", s->nconflicts, s->nconflicts == 1 ? "" : "s");
}
