/*
 * Which stable commits carry a commit (carriers.h): the backport map of the
 * stable tags' commits and that of the branches' queues, asked as one.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/backscan.h"
#include "patchver/stable/backports.h"
#include "patchver/engine/treepath.h"
#include "patchver/stable/carriers.h"

/*
 * The queues' commits read as the tags' ones are: named, or by patch-id
 * among the commits no stable line has (upstream_ok).
 */
static void queue_map(struct carriers *cs, struct history *h, const bool *upstream_ok)
{
	struct backmap_commit *v = NULL;
	struct backmap_patchids pids = { backport_patch_id, h, upstream_ok };
	size_t n = 0, alloc = 0;

	for (uint32_t i = 0; i < cs->nr; i++) {
		if (!cs->queue[i])
			continue;
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n].commit = i;
		v[n++].tag = BACKMAP_ON_BRANCH;
	}
	backmap_compute(&cs->queued, &h->dag, &h->tags, v, n, backport_message, h, &pids);
	free(v);
}

int carriers_open(struct carriers *cs, struct history *h, struct contain *c,
		  const uint32_t *commits, size_t ncommits, const char *const *paths, size_t npaths)
{
	bool *upstream_ok;
	int ret;

	memset(cs, 0, sizeof(*cs));
	/* the queues need the branches' commits; a broken branch is left out */
	history_load_branches(h);
	if ((ret = backport_map_for(&cs->tagged, h, c, commits, ncommits, paths, npaths)))
		return ret;
	cs->nr = h->dag.nr;
	cs->queue = backport_queue(h, c);
	/* one pass over the DAG: what may be upstream, and the rest loaded is a stable line's */
	upstream_ok = backport_upstream_ok(h, c, cs->queue);
	cs->stable_line = xmalloc((size_t)cs->nr + 1);
	for (uint32_t i = 0; i < cs->nr; i++)
		cs->stable_line[i] = h->dag.loaded[i] && !upstream_ok[i];
	queue_map(cs, h, upstream_ok);
	free(upstream_ok);
	return 0;
}

void carriers_close(struct carriers *cs)
{
	backport_map_free(&cs->tagged);
	backport_map_free(&cs->queued);
	free(cs->queue);
	free(cs->stable_line);
	free(cs->pids);
	memset(cs, 0, sizeof(*cs));
}

const struct backport *carriers_records(const struct carriers *cs, uint32_t commit, size_t *n,
					const struct backport **queued, size_t *nq)
{
	*queued = backport_map_of(&cs->queued, commit, nq);
	return backport_map_of(&cs->tagged, commit, n);
}

size_t carriers_of(const struct carriers *cs, uint32_t commit, uint32_t **out)
{
	size_t nb, nq, n = 0;
	const struct backport *q, *b = carriers_records(cs, commit, &nb, &q, &nq);

	*out = xmalloc((nb + nq + 1) * sizeof(**out));
	for (size_t k = 0; k < nb; k++)
		(*out)[n++] = b[k].commit;
	for (size_t k = 0; k < nq; k++)
		(*out)[n++] = q[k].commit;
	if (n > 1)
		qsort(*out, n, sizeof(**out), cmp_u32);
	return n;
}

struct carriers_pid {
	git_oid pid;
	uint32_t commit;
};

static int cmp_pid(const void *a, const void *b)
{
	const struct carriers_pid *x = a, *y = b;
	int c = git_oid_cmp(&x->pid, &y->pid);

	return c ? c : (x->commit > y->commit) - (x->commit < y->commit);
}

void carriers_index_patchids(struct carriers *cs, struct history *h)
{
	size_t alloc = 0;

	for (uint32_t i = 0; i < cs->nr; i++) {
		git_oid pid;
		if (!cs->stable_line[i] || !patch_id_of_commit(h->repo, &h->dag.oids[i], &pid))
			continue;
		cs->pids = xgrow(cs->pids, &alloc, cs->npids + 1, sizeof(*cs->pids));
		cs->pids[cs->npids].pid = pid;
		cs->pids[cs->npids++].commit = i;
	}
	if (cs->npids > 1)
		qsort(cs->pids, cs->npids, sizeof(*cs->pids), cmp_pid);
	if (!cs->pids)
		cs->pids = xcalloc(1, sizeof(*cs->pids));   /* made, and empty */
}

static bool listed(const uint32_t *v, size_t n, uint32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* From the index: the entries with pid, not in skip[0..nskip). */
static size_t same_by_index(const struct carriers *cs, const git_oid *pid, const uint32_t *skip,
			    size_t nskip, uint32_t **out)
{
	struct carriers_pid key = { *pid, 0 };
	size_t lo = 0, hi = cs->npids, n = 0;

	while (lo < hi) {       /* the first entry not below key */
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_pid(&cs->pids[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < cs->npids && git_oid_equal(&cs->pids[lo].pid, pid); lo++)
		if (!listed(skip, nskip, cs->pids[lo].commit)) {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = cs->pids[lo].commit;
		}
	return n;
}

/* Without the index: the stable-line commits changing p's files, their patch-ids read. */
static size_t same_by_paths(const struct carriers *cs, struct history *h, uint32_t commit,
			    const struct patch *p, const uint32_t *skip, size_t nskip,
			    uint32_t **out)
{
	struct treepath_cache *caches = xcalloc(p->npaths + 1, sizeof(*caches));
	struct patch own;
	const struct patch *full = p->has_patchid ? p : NULL;
	bool tried = p->has_patchid;
	size_t n = 0;

	for (size_t k = 0; k < p->npaths; k++)
		treepath_init(&caches[k], &h->dag, p->paths[k]);
	for (uint32_t i = 0; i < cs->nr && p->npaths; i++) {
		bool touches = false;
		if (!cs->stable_line[i] || i == commit || listed(skip, nskip, i))
			continue;
		for (size_t k = 0; k < p->npaths && !touches; k++)
			touches = treepath_touches(&caches[k], &h->dag, i);
		if (!touches)
			continue;
		if (!tried) {   /* the patch-id only now: most questions have no candidate */
			tried = true;
			if (patch_from_commit(&own, h->repo, &h->dag.oids[commit]) == 0) {
				if (own.has_patchid)
					full = &own;
				else
					patch_free(&own);
			}
		}
		if (full && patch_same_id(h->repo, &h->dag, i, full)) {
			*out = xrealloc(*out, (n + 1) * sizeof(**out));
			(*out)[n++] = i;
		}
	}
	if (full == &own)
		patch_free(&own);
	for (size_t k = 0; k < p->npaths; k++)
		treepath_free(&caches[k]);
	free(caches);
	return n;
}

size_t carriers_same_patch(const struct carriers *cs, struct history *h, uint32_t commit,
			   const struct patch *p, uint32_t **out)
{
	uint32_t *skip;
	size_t nskip = carriers_of(cs, commit, &skip), n;
	git_oid pid;

	*out = NULL;
	if (cs->pids && p->has_patchid)
		n = same_by_index(cs, &p->patchid, skip, nskip, out);
	else if (cs->pids)
		n = patch_id_of_commit(h->repo, &h->dag.oids[commit], &pid) ?
		    same_by_index(cs, &pid, skip, nskip, out) : 0;
	else
		n = same_by_paths(cs, h, commit, p, skip, nskip, out);
	free(skip);
	if (n > 1)
		qsort(*out, n, sizeof(**out), cmp_u32);
	return n;
}

bool carriers_by_patchid(const struct carriers *cs, const struct history *h, uint32_t carrier,
			 uint32_t upstream)
{
	const git_oid *u = &h->dag.oids[upstream];

	return backport_map_by_patchid(&cs->tagged, carrier, u) ||
	       backport_map_by_patchid(&cs->queued, carrier, u);
}

uint32_t carriers_revert_of(const struct carriers *cs, uint32_t carrier)
{
	uint32_t r = backport_map_revert_of(&cs->tagged, carrier);

	return r != PV_NONE ? r : backport_map_revert_of(&cs->queued, carrier);
}

const struct backport_note *carriers_notes(const struct carriers *cs, uint32_t commit,
					   size_t *n)
{
	const struct backport_note *bn = backport_map_notes(&cs->tagged, commit, n);

	return *n ? bn : backport_map_notes(&cs->queued, commit, n);
}
