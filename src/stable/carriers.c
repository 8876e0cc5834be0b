/*
 * Which stable commits carry a commit (carriers.h): the backport map of the
 * stable tags' commits and that of the branches' queues, asked as one.
 */
#include <stdlib.h>
#include <string.h>

#include "patchver/base/util.h"
#include "patchver/engine/backscan.h"
#include "patchver/stable/backports.h"
#include "patchver/stable/carriers.h"

/*
 * The queues' commits read as the tags' ones are: named, or by patch-id
 * among the commits no stable line has.
 */
static void queue_map(struct carriers *cs, struct history *h, struct contain *c)
{
	struct backmap_commit *v = NULL;
	struct backmap_patchids pids = { backport_patch_id, h, NULL };
	size_t n = 0, alloc = 0;
	bool *upstream_ok;

	cs->queue = backport_queue(h, c);
	for (uint32_t i = 0; i < h->dag.nr; i++) {
		if (!cs->queue[i])
			continue;
		v = xgrow(v, &alloc, n + 1, sizeof(*v));
		v[n].commit = i;
		v[n++].tag = BACKMAP_ON_BRANCH;
	}
	pids.upstream_ok = upstream_ok = backport_upstream_ok(h, c, cs->queue);
	backmap_compute(&cs->queued, &h->dag, &h->tags, v, n, backport_message, h, &pids);
	free(upstream_ok);
	free(v);
}

int carriers_open(struct carriers *cs, struct history *h, struct contain *c,
		  const uint32_t *commits, size_t ncommits, const char *const *paths, size_t npaths)
{
	int ret;

	memset(cs, 0, sizeof(*cs));
	/* the queues need the branches' commits; a broken branch is left out */
	history_load_branches(h);
	if ((ret = backport_map_for(&cs->tagged, h, c, commits, ncommits, paths, npaths)))
		return ret;
	queue_map(cs, h, c);
	return 0;
}

void carriers_close(struct carriers *cs)
{
	backport_map_free(&cs->tagged);
	backport_map_free(&cs->queued);
	free(cs->queue);
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
