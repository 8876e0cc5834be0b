/*
 * Unit tests: bisection without boots (bisect.c).  The midpoint search
 * over lists with skips, and the commit stage on a fixture history with
 * merges: for many culprits, an oracle that answers "new" exactly for the
 * culprit's descendants must lead bisect_commits to the culprit, through
 * first-parent midpoints and merge descent, skipped commits included.
 */
#include <stdlib.h>
#include <git2.h>

#include "check.h"
#include "patchver/engine/history.h"
#include "patchver/lab/bisect.h"

struct list_oracle {
	size_t culprit;
	const bool *skip;
	size_t calls;
};

static int list_answer(void *ctx, size_t i, enum bisect_answer *out)
{
	struct list_oracle *o = ctx;

	o->calls++;
	*out = o->skip && o->skip[i] ? BISECT_SKIP : i >= o->culprit ? BISECT_NEW : BISECT_OLD;
	return 0;
}

static void lists(void)
{
	bool skip[64] = { false };
	struct bisect_result r;

	for (size_t n = 1; n <= 64; n++)
		for (size_t k = 0; k < n; k++) {
			struct list_oracle o = { k, NULL, 0 };
			bisect_search(n, list_answer, &o, &r);
			CHECK(r.first_new == k && !r.ambiguous);
			CHECK(o.calls <= 7);   /* log2(64) + 1 */
		}
	/* a skipped midpoint: its neighbours are tried, the answer holds */
	skip[4] = true;
	{
		struct list_oracle o = { 6, skip, 0 };
		bisect_search(9, list_answer, &o, &r);
		CHECK(r.first_new == 6 && !r.ambiguous);
	}
	/* the culprit skipped: the answer is a range that holds it */
	{
		struct list_oracle o = { 4, skip, 0 };
		bisect_search(9, list_answer, &o, &r);
		CHECK(r.ambiguous && r.lo <= 4 && r.first_new == 5);
	}
	/* everything skipped but the known-new end */
	memset(skip, 1, sizeof(skip));
	{
		struct list_oracle o = { 3, skip, 0 };
		bisect_search(5, list_answer, &o, &r);
		CHECK(r.ambiguous && r.lo == 0 && r.first_new == 4);
	}
}

/* --- the commit stage on a real history */

struct dag_oracle {
	struct dag *dag;
	bool *new_side;             /* descendants of the culprit, the culprit included */
	uint32_t skip;
	size_t calls;
};

static int dag_answer(void *ctx, uint32_t c, enum bisect_answer *out)
{
	struct dag_oracle *o = ctx;

	o->calls++;
	*out = c == o->skip ? BISECT_SKIP : o->new_side[c] ? BISECT_NEW : BISECT_OLD;
	return 0;
}

/* Is a an ancestor of (or equal to) b? */
static bool reaches(struct dag *dag, uint32_t b, uint32_t a, bool *seen)
{
	uint32_t *stack = malloc((dag->nr + 1) * sizeof(*stack)), np;
	size_t sp = 0;
	bool found = false;

	memset(seen, 0, dag->nr);
	stack[sp++] = b;
	seen[b] = true;
	while (sp && !found) {
		uint32_t c = stack[--sp];
		const uint32_t *p;
		found = c == a;
		dag_load(dag, c);
		p = dag_parents(dag, c, &np);
		for (uint32_t k = 0; k < np; k++)
			if (!seen[p[k]]) {
				seen[p[k]] = true;
				stack[sp++] = p[k];
			}
	}
	free(stack);
	return found;
}

static void commits(const char *repo_path)
{
	struct history h;
	struct history_opts ho = { repo_path, "v[0-9]*", HISTORY_INDEX_OFF, false, false, NULL };
	struct dag_oracle o;
	bool *seen;
	size_t tried = 0, merges_crossed = 0;

	git_libgit2_init();
	CHECK(history_open(&h, &ho) == 0);
	o.dag = &h.dag;
	o.new_side = calloc(h.dag.nr, 1);
	seen = calloc(h.dag.nr, 1);
	/* old: the first release; new: the last; culprits: every 7th commit between */
	{
		const struct tag_table *t = &h.tags;
		uint32_t old = t->v[t->releases[0]].commit, new = PV_NONE;

		for (size_t i = t->nreleases; i-- > 0;)
			if (!kver_is_stable(&t->v[t->releases[i]].ver)) {
				new = t->v[t->releases[i]].commit;
				break;
			}
		CHECK(new != PV_NONE);
		for (uint32_t x = 0; x < h.dag.nr && new != PV_NONE; x += 7) {
			struct bisect_commits_result r;
			uint32_t np;

			dag_load(&h.dag, x);
			dag_parents(&h.dag, x, &np);
			if (np > 1 || !reaches(&h.dag, new, x, seen) || reaches(&h.dag, old, x, seen))
				continue;
			/* new side: every commit that reaches x */
			for (uint32_t c = 0; c < h.dag.nr; c++)
				o.new_side[c] = reaches(&h.dag, c, x, seen);
			o.skip = PV_NONE;
			o.calls = 0;
			CHECK(bisect_commits(&h.dag, old, new, dag_answer, &o, NULL, &r) == 0);
			CHECK(r.commit == x && !r.ambiguous);
			merges_crossed += r.steps > 0 && !reaches(&h.dag, new, x, seen) ? 0 : 1;
			free(r.candidates);
			/* one commit that cannot be built, next to it */
			dag_load(&h.dag, x);
			{
				const uint32_t *p = dag_parents(&h.dag, x, &np);
				o.skip = np ? p[0] : PV_NONE;
			}
			CHECK(bisect_commits(&h.dag, old, new, dag_answer, &o, NULL, &r) == 0);
			CHECK((r.commit == x && !r.ambiguous) || (r.ambiguous && r.ncandidates >= 2));
			free(r.candidates);
			tried++;
		}
	}
	CHECK(tried >= 10);
	printf("commit stage: %zu culprits found\n", tried);
	(void)merges_crossed;
	free(o.new_side);
	free(seen);
	history_close(&h);
	git_libgit2_shutdown();
}

int main(int argc, char **argv)
{
	lists();
	if (argc > 1)
		commits(argv[1]);
	return check_done();
}
