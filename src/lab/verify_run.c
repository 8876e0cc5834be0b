/*
 * One candidate of a --verify-boot run (verify_run.h): built and booted in
 * the lab, and where the fix does not build on a release that does, its
 * build prerequisites found (prereq.h) and the state run again with them.
 */
#include "patchver/base/error.h"
#include "patchver/lab/prereq.h"
#include "patchver/lab/unbuilt.h"
#include "patchver/lab/verify_candidates.h"
#include "patchver/lab/verify_run.h"

/* The state of the same release without patches, when it ran: did it build (boot or not)? */
static bool release_builds(const struct verify *v, const struct candidate *c)
{
	for (const struct candidate *k = v->c; k < v->c + v->n; k++)
		if (k != c && !k->npatches && git_oid_equal(&k->commit, &c->commit) && k->run.planned)
			return k->run.status != PV_EBUILD && k->run.status != PV_EPATCH;
	return false;
}

static bool needs_prereqs(const struct verify *v, const struct candidate *c)
{
	return c->run.status == PV_EBUILD && v->fix_patch && c->npatches &&
	       c->patches[c->npatches - 1] == v->fix_patch && release_builds(v, c);
}

/* A prerequisite's change, owned by the run as the fix's is. */
static struct kpatch *prereq_patch(void *data, const git_oid *commit, int *ret)
{
	struct verify *v = data;

	return verify_patch_of_commit(v, v->lab.tree.repo, commit, ret);
}

/* The state that differs from c only by c's last patch, built in this run; NULL: none. */
static const struct candidate *unpatched_twin(const struct verify *v, const struct candidate *c)
{
	for (const struct candidate *k = v->c; k < c; k++) {
		bool same = c->npatches && k->npatches == c->npatches - 1 &&
			    git_oid_equal(&k->commit, &c->commit);
		for (size_t p = 0; same && p < k->npatches; p++)
			same = k->patches[p] == c->patches[p];
		if (same && k->run.image)
			return k;
	}
	return NULL;
}

int verify_run_candidate(struct verify *v, size_t i)
{
	int ret = lab_run(&v->lab, &v->c[i], i, v->n);
	const struct candidate *twin;

	/* the fix compiled to nothing here: the same image as without it */
	if (!ret && v->lab_opts.watch && (twin = unpatched_twin(v, &v->c[i])))
		unbuilt_same_image(&v->c[i], twin);
	if (!ret && needs_prereqs(v, &v->c[i])) {
		struct prereq_search search = { &v->lab, v->h, v->fix, VERIFY_PREREQ_ROUNDS,
						prereq_patch, v };
		ret = prereq_find(&search, &v->c[i], i, v->n);
	}
	return ret;
}
