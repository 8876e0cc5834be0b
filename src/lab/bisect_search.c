/*
 * A bisection's searches (bisect_search.h): its ends checked, the releases
 * between them (bisect.h's search over release tags), then the commits,
 * and the answer confirmed by booting it again.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"
#include "patchver/base/util.h"
#include "patchver/lab/bisect_search.h"
#include "patchver/lab/bisect_state.h"
#include "patchver/lab/input.h"

struct search {
	struct bisect_run *b;
	const char *kind;
	uint32_t *items;            /* tags (releases) or commits */
	bool tags;
};

const char *bisect_state_name(const struct history *h, uint32_t tag, uint32_t commit,
			      char hex[13])
{
	if (tag != PV_NONE)
		return h->tags.v[tag].shortname;
	return git_oid_tostr(hex, 13, &h->dag.oids[commit]);
}

static uint32_t item_commit(const struct search *s, size_t i)
{
	return s->tags ? s->b->h->tags.v[s->items[i]].commit : s->items[i];
}

static int oracle(void *ctx, size_t i, enum bisect_answer *out)
{
	struct search *s = ctx;
	struct bisect_run *b = s->b;
	uint32_t c = item_commit(s, i);
	char *label;
	enum bisect_answer v;
	int ret;

	if (s->tags) {
		label = xstrdup(b->h->tags.v[s->items[i]].shortname);
	} else {
		char *hex = bisect_run_hex12(b, c), *subject = history_subject(b->h, c);
		label = xstrfmt("%s %s", hex, subject);
		free(hex);
		free(subject);
	}
	ret = bisect_test_state(b, s->kind, label, &b->h->dag.oids[c], NULL, 0,
			 b->o->repeat, &v);
	/* a flaky state cannot decide a step: step around it */
	*out = v == BISECT_FLAKY ? BISECT_SKIP : v;
	return ret;
}

static void set_candidates(struct bisect_finding *f, const struct search *s, size_t lo, size_t hi)
{
	f->ncandidates = hi - lo + 1;
	f->candidates = xmalloc(f->ncandidates * sizeof(*f->candidates));
	for (size_t k = lo; k <= hi; k++)
		f->candidates[k - lo] = item_commit(s, k);
}

/* Stage 1: releases after old up to new (both tags). */
static int search_releases(struct bisect_run *b, struct bisect_finding *f, uint32_t old,
			   uint32_t new)
{
	struct search s = { b, "release", NULL, true };
	struct bisect_result r;
	size_t n;
	int ret;

	s.items = bisect_releases(&b->h->tags, old, new, b->o->series, &n);
	if (!n) {
		free(s.items);
		return pv_error_set(PV_EINVALID, "no release between %s and %s to bisect",
			     b->h->tags.v[old].shortname, b->h->tags.v[new].shortname);
	}
	if (b->ev && b->ev->releases)
		b->ev->releases(b->ev->data, n, b->h->tags.v[old].shortname,
				b->h->tags.v[new].shortname, b->fix_mode);
	ret = bisect_search(n, oracle, &s, &r);
	if (!ret) {
		f->first_new_tag = s.items[r.first_new];
		f->first_new = b->h->tags.v[f->first_new_tag].commit;
		f->last_old_tag = r.lo ? s.items[r.lo - 1] : old;
		f->last_old = b->h->tags.v[f->last_old_tag].commit;
		f->ambiguous = r.ambiguous;
		if (r.ambiguous)
			set_candidates(f, &s, r.lo, r.first_new);
		f->done = true;
	}
	free(s.items);
	return ret;
}

static int commit_oracle(void *ctx, uint32_t c, enum bisect_answer *out)
{
	struct search s = { ctx, "commit", &c, false };
	return oracle(&s, 0, out);
}

static void commit_stage(void *ctx, size_t n, bool merged)
{
	struct bisect_run *b = ctx;

	if (b->ev && b->ev->commits)
		b->ev->commits(b->ev->data, n, merged);
}

/* Stage 2: the commits between the last old and the first new state. */
static int search_commits(struct bisect_run *b, struct bisect_finding *f)
{
	struct bisect_commits_result r;
	int ret = bisect_commits(&b->h->dag, f->last_old, f->first_new, commit_oracle, b,
				 commit_stage, &r);

	if (!ret) {
		f->commit = r.commit;
		f->ambiguous = r.ambiguous;
		f->candidates = r.candidates;
		f->ncandidates = r.ncandidates;
	} else {
		free(r.candidates);
	}
	return ret;
}

/* The reverse of a commit's change, to take it out of a later tree. */
static struct kpatch *revert_of(struct bisect_run *b, uint32_t c)
{
	struct kpatch *p = xcalloc(1, sizeof(*p));
	git_commit *commit = NULL, *parent = NULL;
	git_tree *new = NULL, *old = NULL;
	git_repository *repo = b->lab->tree.repo;

	p->name = xstrfmt("revert-%.12s", git_oid_tostr_s(&b->h->dag.oids[c]));
	if (git_commit_lookup(&commit, repo, &b->h->dag.oids[c]) < 0 ||
	    git_commit_tree(&new, commit) < 0 || git_commit_parent(&parent, commit, 0) < 0 ||
	    git_commit_tree(&old, parent) < 0 ||
	    git_diff_tree_to_tree(&p->diff, repo, new, old, NULL) < 0) {
		free(p->name);
		free(p);
		p = NULL;
	}
	git_error_clear();
	git_tree_free(new);
	git_tree_free(old);
	git_commit_free(parent);
	git_commit_free(commit);
	return p;
}

/*
 * Trust the answer only if it repeats: the state found must be new in
 * every one of n boots, and the first new release with the culprit
 * reverted (or, for releases only, the last old release) old in every one.
 */
static int confirm(struct bisect_run *b, struct bisect_finding *f)
{
	int n = bisect_run_confirm_boots(b), ret;
	enum bisect_answer v;
	uint32_t at = f->commit != PV_NONE ? f->commit : f->first_new;
	struct kpatch *rev = f->commit != PV_NONE ? revert_of(b, f->commit) : NULL;
	char *hex = bisect_run_hex12(b, at), nbuf[13], obuf[13];
	const char *new_name = bisect_state_name(b->h, f->first_new_tag, f->first_new, nbuf);
	const char *old_name = bisect_state_name(b->h, f->last_old_tag, f->last_old, obuf);

	f->confirm_n = n;
	ret = bisect_test_state(b, "confirm",
				xstrfmt("%s (%dx)", f->commit != PV_NONE ? hex : new_name, n),
				&b->h->dag.oids[at], NULL, 0, n, &v);
	if (ret)
		goto out;
	f->flaky = v == BISECT_FLAKY;
	f->confirm_new = v == BISECT_NEW ? n : 0;
	if (f->commit != PV_NONE && !rev) {
		f->confirm_why = xstrdup("cannot compute the revert");
		goto out;
	}
	if (f->commit != PV_NONE)
		ret = bisect_test_state(b, "confirm", xstrfmt("%s - %s (%dx)", new_name, hex, n),
				 &b->h->dag.oids[f->first_new], &rev, 1, n, &v);
	else
		ret = bisect_test_state(b, "confirm", xstrfmt("%s (%dx)", old_name, n),
				 &b->h->dag.oids[f->last_old], NULL, 0, n, &v);
	if (ret)
		goto out;
	f->flaky = f->flaky || v == BISECT_FLAKY;
	f->confirm_old = v == BISECT_OLD ? n : 0;
	f->confirmed = f->confirm_new == n && f->confirm_old == n;
	if (!f->confirmed) {
		const char *why = b->res.steps[b->res.nsteps - 1].why;
		f->confirm_why = xstrdup(why ? why : "the confirmation boots disagree");
	}
out:
	if (rev) {
		kpatch_free(rev);
		free(rev);
	}
	free(hex);
	return ret;
}

/*
 * Both ends must answer as claimed, or the search finds nothing real
 * (the fix phase's old end, the first bad release, is known already).
 */
static int check_ends(struct bisect_run *b, struct bisect_finding *f)
{
	char buf[13];
	enum bisect_answer v;
	int ret;

	if (!b->fix_mode) {
		if ((ret = bisect_test_state(b, "end",
				      xstrdup(bisect_state_name(b->h, f->last_old_tag, f->last_old, buf)),
				      &b->h->dag.oids[f->last_old], NULL, 0, b->o->repeat, &v)))
			return ret;
		if (v != BISECT_OLD)
			return pv_error_set_about(PV_EUNCONFIRMED, LAB_INPUT_GOOD,
						  "%s: the test does not pass there (%s)",
				     b->o->good, bisect_answer_name_of(b, v));
	}
	if ((ret = bisect_test_state(b, "end",
			      xstrdup(bisect_state_name(b->h, f->first_new_tag, f->first_new, buf)),
			      &b->h->dag.oids[f->first_new], NULL, 0, b->o->repeat, &v)))
		return ret;
	if (v != BISECT_NEW)
		return pv_error_set_about(PV_EUNCONFIRMED, b->fix_mode ? LAB_INPUT_FIX : LAB_INPUT_BAD,
					  "%s: the test %s there (%s)", b->fix_mode ? b->o->fix : b->o->bad,
			     b->fix_mode ? "does not pass" : "does not fail", bisect_answer_name_of(b, v));
	return 0;
}

int bisect_find(struct bisect_run *b, struct bisect_finding *f, uint32_t old, uint32_t old_tag,
		uint32_t new, uint32_t new_tag)
{
	int ret = 0;

	f->commit = PV_NONE;
	f->last_old = old;
	f->last_old_tag = old_tag;
	f->first_new = new;
	f->first_new_tag = new_tag;
	if ((ret = check_ends(b, f)))
		return ret;
	if (old_tag != PV_NONE && new_tag != PV_NONE)
		ret = search_releases(b, f, old_tag, new_tag);
	else if (!b->o->commits)
		return pv_error_set_about(PV_EINVALID, LAB_INPUT_ENDS_NOT_TAGS, "%s and %s are not "
					  "both release tags: bisect the commits between them",
					  b->o->good, b->o->bad);
	if (!ret && !f->ambiguous && b->o->commits)
		ret = search_commits(b, f);
	f->done = true;
	if (!ret && !f->ambiguous)
		ret = confirm(b, f);
	return ret;
}

/*
 * An end booted again, confirm_boots times: it must answer as the caller's
 * boot did.  False (and said in f) when it is flaky or answers otherwise.
 */
static int recheck_end(struct bisect_run *b, struct bisect_finding *f, uint32_t tag,
		       enum bisect_answer want, bool *ok)
{
	enum bisect_answer v;
	int ret = bisect_test_state(b, "end", xstrdup(b->h->tags.v[tag].shortname),
				    &b->h->dag.oids[b->h->tags.v[tag].commit], NULL, 0,
				    bisect_run_confirm_boots(b), &v);
	const struct bisect_step *s = &b->res.steps[b->res.nsteps - 1];

	*ok = !ret && v == want;
	if (ret || *ok)
		return ret;
	/* both ways across its boots, the caller's first one included */
	f->flaky = true;
	f->confirm_why = v == BISECT_FLAKY ?
			 xstrfmt("%s is flaky: %d of %d boots show the bug; not bisected on",
				 b->h->tags.v[tag].shortname, s->bad_boots, s->boots) :
			 xstrfmt("%s booted again: %s, not as before; not bisected on",
				 b->h->tags.v[tag].shortname, bisect_answer_name_of(b, v));
	return 0;
}

int bisect_find_boundary(struct bisect_run *b, struct bisect_finding *f, uint32_t old_tag,
			 uint32_t new_tag)
{
	const struct tag_table *tags = &b->h->tags;
	bool ok = false;
	size_t n;
	int ret;

	f->commit = PV_NONE;
	f->last_old_tag = old_tag;
	f->last_old = tags->v[old_tag].commit;
	f->first_new_tag = new_tag;
	f->first_new = tags->v[new_tag].commit;
	ret = recheck_end(b, f, old_tag, BISECT_OLD, &ok);
	if (!ret && ok)
		ret = recheck_end(b, f, new_tag, BISECT_NEW, &ok);
	if (ret || !ok)
		return ret;
	free(bisect_releases(tags, old_tag, new_tag, NULL, &n));
	/* adjacent releases: the commits between them at once */
	if (n > 1)
		ret = search_releases(b, f, old_tag, new_tag);
	if (!ret && !f->ambiguous)
		ret = search_commits(b, f);
	f->done = true;
	if (!ret && !f->ambiguous)
		ret = confirm(b, f);
	return ret;
}
