/*
 * Unit tests: which tags contain a commit and its first release
 * (contain.h), against libgit2's git_graph_descendant_of and the tags'
 * version order, on every STEP-th commit of a fixture history, loaded
 * whole and lazily.
 *
 *   test_contain REPO [STEP]
 */
#include <stdio.h>
#include <stdlib.h>

#include <git2.h>

#include "check.h"
#include "fixture.h"
#include "patchver/base/error.h"
#include "patchver/engine/contain.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"

/* Does tag t contain commit c, as git tag --contains says? */
static bool contains(struct history *h, const struct tag *t, const git_oid *c)
{
	const git_oid *tip = &h->dag.oids[t->commit];

	return git_oid_equal(tip, c) || git_graph_descendant_of(h->repo, tip, c) == 1;
}

static void check_commit(struct history *h, struct contain *c, uint32_t commit)
{
	git_oid id = h->dag.oids[commit];
	size_t n, k = 0;
	uint32_t *tags, first = PV_NONE, release;

	CHECK(contain_tags_of(c, commit, &tags, &n) == 0);

	/* the same tags, in refname order (the table's) */
	for (size_t i = 0; i < h->tags.nr; i++) {
		const struct tag *t = &h->tags.v[i];
		bool in = t->commit != PV_NONE && contains(h, t, &id);

		if (in) {
			CHECK(k < n && tags[k] == i);
			k++;
		}
	}
	CHECK(k == n);
	/* the first release: the earliest in version order of those */
	for (size_t r = 0; r < h->tags.nreleases && first == PV_NONE; r++) {
		const struct tag *t = &h->tags.v[h->tags.releases[r]];
		if (t->commit != PV_NONE && contains(h, t, &id))
			first = h->tags.releases[r];
	}
	CHECK(contain_first_release_of(c, commit, &release) == 0 && release == first);
	free(tags);
}

static int run(const char *repo, bool lazy, uint32_t step)
{
	struct history h;
	struct contain c;
	uint32_t checked = 0;

	if (fixture_open(&h, repo, lazy) < 0)
		return -1;
	contain_init(&c, &h);
	if (lazy) {
		/* a lazy history holds what was asked: ask by the tags' ids */
		for (size_t i = 0; i < h.tags.nr; i += 3)
			if (h.tags.v[i].commit != PV_NONE) {
				check_commit(&h, &c, h.tags.v[i].commit);
				checked++;
			}
	} else {
		for (uint32_t i = 0; i < h.dag.nr; i += step)
			if (h.dag.loaded[i]) {
				check_commit(&h, &c, i);
				checked++;
			}
	}
	CHECK(checked > 3);
	contain_free(&c);
	history_close(&h);
	return 0;
}

int main(int argc, char **argv)
{
	return fixture_main(argc, argv, "test_contain REPO [STEP]", run);
}
