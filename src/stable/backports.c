/*
 * The backport map of a history: the release index's, or computed (backports.h).
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/error.h"

#include "patchver/base/util.h"
#include "patchver/engine/revs.h"
#include "patchver/engine/treepath.h"
#include "patchver/engine/upstream.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/patch.h"

char *backport_message(void *h, uint32_t commit)
{
	return history_message(h, commit);
}

bool backport_patch_id(void *ctx, uint32_t commit, git_oid *out)
{
	struct history *h = ctx;

	return patch_id_of_commit(h->repo, &h->dag.oids[commit], out);
}

bool *backport_upstream_ok(struct history *h, struct contain *c, const bool *queue)
{
	bool *ok = xcalloc((size_t)h->dag.nr + 1, 1);

	for (uint32_t i = 0; i < h->dag.nr; i++) {
		uint32_t tag = h->dag.loaded[i] ? contain_first_release(c, i) : PV_NONE;
		ok[i] = h->dag.loaded[i] && !(queue && queue[i]) &&
			(tag == PV_NONE || !kver_is_stable(&h->tags.v[tag].ver));
	}
	return ok;
}

static bool touches_any(struct treepath_cache *caches, size_t n, const struct dag *dag,
			uint32_t i)
{
	if (!n)
		return true;
	for (size_t k = 0; k < n; k++)
		if (treepath_touches(&caches[k], dag, i))
			return true;
	return false;
}

int backport_map_build(struct backport_map *m, struct history *h, struct contain *c,
		       const char *const *paths, size_t npaths)
{
	struct backmap_commit *v = NULL;
	size_t n = 0, alloc = 0;
	struct dag *dag = &h->dag;
	struct treepath_cache *caches;
	struct backmap_patchids pids = { backport_patch_id, h, NULL };
	bool *upstream_ok;

	if (h->have_ix) {
		relindex_backports(&h->ix, m);
		return 0;
	}
	caches = xcalloc(npaths + 1, sizeof(*caches));
	for (size_t k = 0; k < npaths; k++)
		treepath_init(&caches[k], dag, paths[k]);
	for (uint32_t i = 0; i < dag->nr; i++) {
		uint32_t tag;
		if (!dag->loaded[i])
			continue;
		tag = contain_first_release(c, i);
		if (tag == PV_NONE || !kver_is_stable(&h->tags.v[tag].ver) ||
		    !touches_any(caches, npaths, dag, i))
			continue;
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n].commit = i;
		v[n++].tag = tag;
	}
	upstream_ok = backport_upstream_ok(h, c, NULL);
	pids.upstream_ok = upstream_ok;
	backmap_compute(m, dag, &h->tags, v, n, backport_message, h, &pids);
	free(upstream_ok);
	free(v);
	for (size_t k = 0; k < npaths; k++)
		treepath_free(&caches[k]);
	free(caches);
	return 0;
}

/* Add path to paths[] unless there. */
static void add_path(char ***paths, size_t *n, const char *path)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*paths)[i], path))
			return;
	*paths = xrealloc(*paths, (*n + 1) * sizeof(**paths));
	(*paths)[(*n)++] = xstrdup(path);
}

/* Add the files commit u changes; false if they are too many to list, or unreadable. */
static bool add_changed(char ***paths, size_t *n, struct dag *dag, uint32_t u)
{
	unsigned np;
	const uint32_t *par = dag_parents(dag, u, &np);
	struct tree_change *ch = NULL;
	int nch = treepath_changed(dag->odb, np ? &dag->trees[par[0]] : NULL, &dag->trees[u],
				   64, &ch);

	for (int x = 0; x >= 0 && x < nch && nch <= 64; x++)
		add_path(paths, n, ch[x].path);
	treepath_changes_free(ch, nch);
	return nch >= 0 && nch <= 64;
}

bool backport_files(struct history *h, uint32_t commit, char ***paths, size_t *npaths)
{
	*paths = NULL;
	*npaths = 0;
	if (add_changed(paths, npaths, &h->dag, commit))
		return true;
	for (size_t i = 0; i < *npaths; i++)
		free((*paths)[i]);
	free(*paths);
	*paths = NULL;
	*npaths = 0;
	return false;
}

int backport_map_for(struct backport_map *m, struct history *h, struct contain *c,
		     const uint32_t *commits, size_t ncommits,
		     const char *const *more, size_t nmore)
{
	char **paths = NULL;
	size_t n = 0;
	bool all = false;
	int ret;

	if (h->have_ix)
		return backport_map_build(m, h, c, NULL, 0);
	for (size_t i = 0; i < nmore; i++)
		add_path(&paths, &n, more[i]);
	for (size_t k = 0; k < ncommits && !all; k++)
		all = commits[k] == PV_NONE || !add_changed(&paths, &n, &h->dag, commits[k]);
	ret = backport_map_build(m, h, c, (const char *const *)paths, all ? 0 : n);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return ret;
}

/* Is refname a stable branch: ".../linux-<version>.y"? */
static bool stable_branch(const char *refname)
{
	const char *base = strrchr(refname, '/');
	size_t n;

	base = base ? base + 1 : refname;
	n = strlen(base);
	return (!strncmp(refname, "refs/heads/", 11) || !strncmp(refname, "refs/remotes/", 13)) &&
	       !strncmp(base, "linux-", 6) && n > 8 && !strcmp(base + n - 2, ".y");
}

uint32_t backport_named_upstream(struct history *h, uint32_t commit, char hex[41])
{
	char *msg = history_message(h, commit);
	uint32_t named = PV_NONE;

	*hex = '\0';
	if (msg && upstream_ref(msg, hex))
		named = rev_find_hex(&h->dag, hex);
	free(msg);
	return named;
}

bool backport_upstream_of(struct history *h, struct contain *c, uint32_t commit,
			  uint32_t *upstream, char hex[41])
{
	uint32_t first;
	bool stable;

	/* the message first: most commits name no upstream, and need no queue */
	*upstream = backport_named_upstream(h, commit, hex);
	if (!*hex)
		return false;
	first = contain_first_release(c, commit);
	stable = first != PV_NONE && kver_is_stable(&h->tags.v[first].ver);
	if (first == PV_NONE) {
		bool *queued = backport_queue(h, c);
		stable = queued[commit];
		free(queued);
	}
	if (*upstream == commit)
		*upstream = PV_NONE;
	return stable;
}

bool *backport_queue(struct history *h, struct contain *c)
{
	struct dag *dag = &h->dag;
	bool *queued = xcalloc((size_t)dag->nr + 1, 1);
	uint32_t *stack = NULL;
	size_t n = 0, alloc = 0;
	git_reference_iterator *it = NULL;
	git_reference *ref;

	if (git_reference_iterator_new(&it, h->repo) < 0)
		goto out;
	while (git_reference_next(&ref, it) == 0) {
		git_object *obj = NULL;
		uint32_t tip;

		if (stable_branch(git_reference_name(ref)) &&
		    git_reference_peel(&obj, ref, GIT_OBJECT_COMMIT) == 0 &&
		    (tip = dag_find(dag, git_object_id(obj))) != PV_NONE && dag->loaded[tip]) {
			stack = xgrow(stack, &alloc, n + 1, sizeof(*stack));
			stack[n++] = tip;
		}
		git_object_free(obj);
		git_reference_free(ref);
	}
	/* down from each tip until the commits a tag has released */
	while (n) {
		uint32_t x = stack[--n];
		unsigned np;
		const uint32_t *par;

		if (queued[x] || contain_first_release(c, x) != PV_NONE)
			continue;
		queued[x] = true;
		par = dag_parents(dag, x, &np);
		for (unsigned k = 0; k < np; k++) {
			stack = xgrow(stack, &alloc, n + 1, sizeof(*stack));
			stack[n++] = par[k];
		}
	}
out:
	git_reference_iterator_free(it);
	git_error_clear();
	free(stack);
	return queued;
}
