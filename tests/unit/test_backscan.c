/*
 * Unit tests: the backport map computed from messages (backscan.h), on a
 * DAG of chosen ids, for what no fixture can spell: a message naming its
 * own commit, and an abbreviated id two commits share.
 */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "check.h"
#include "patchver/engine/backscan.h"
#include "patchver/engine/gitstart.h"

enum { A, A2, C, S1, S2, S3, S4, S5, S6, N };

static const char *ids[N] = {
	[A]  = "aaaaaaa100000000000000000000000000000000",
	[A2] = "aaaaaaa200000000000000000000000000000000",   /* shares 7 digits with A */
	[C]  = "cccccccc00000000000000000000000000000000",
	[S1] = "1111111100000000000000000000000000000000",
	[S2] = "2222222200000000000000000000000000000000",
	[S3] = "3333333300000000000000000000000000000000",
	[S4] = "4444444400000000000000000000000000000000",
	[S5] = "5555555500000000000000000000000000000000",
	[S6] = "6666666600000000000000000000000000000000",
};
static uint32_t idx[N];

/* The stable commits' messages, by the test's names. */
static char *message(void *ctx, uint32_t commit)
{
	char buf[512];

	(void)ctx;
	if (commit == idx[S1])
		return strdup("x: one\n\ncommit aaaaaaa upstream.\n");
	if (commit == idx[S2])
		return snprintf(buf, sizeof(buf), "x: two\n\ncommit %s upstream.\n", ids[S2]), strdup(buf);
	if (commit == idx[S3])
		return strdup("x: three\n\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n");
	if (commit == idx[S4])
		return snprintf(buf, sizeof(buf), "x: four\n\ncommit %s upstream.\ncommit %s upstream.\n",
				ids[A], ids[C]), strdup(buf);
	if (commit == idx[S5])
		return snprintf(buf, sizeof(buf), "x: four\n\n(cherry picked from commit %s)\n",
				ids[S4]), strdup(buf);
	if (commit == idx[S6])
		return strdup("Revert \"x: four\"\n\nIt broke things.\n");
	return NULL;
}

int main(void)
{
	git_repository *repo = NULL;
	char dir[] = "/tmp/patchver-backscan.XXXXXX";
	struct tag_table tags = { 0 };
	struct backmap_commit v[6];
	struct backport_map m;
	const struct backport *b;
	const struct backport_note *notes;
	struct dag dag;
	size_t n;

	gitstart_init();
	if (!mkdtemp(dir) || git_repository_init(&repo, dir, 1) < 0 || dag_init(&dag, repo) < 0)
		return 2;
	for (int i = 0; i < N; i++) {
		git_oid oid;
		git_oid_fromstr(&oid, ids[i]);
		idx[i] = dag_intern(&dag, &oid);
		dag.loaded[idx[i]] = true;      /* as if parsed: parents are not the question */
	}
	for (int i = S1; i <= S6; i++) {
		v[i - S1].commit = idx[i];
		v[i - S1].tag = BACKMAP_ON_BRANCH;
	}
	backmap_compute(&m, &dag, &tags, v, 6, message, NULL, NULL);

	/* an abbreviated id two commits share: no entry, said */
	notes = backport_map_notes(&m, idx[S1], &n);
	CHECK(n == 1 && notes && notes[0].problem == BACKPORT_AMBIGUOUS_ID);
	CHECK_STR(n ? notes[0].hex : NULL, "aaaaaaa");
	/* a message naming its own commit: no entry, said */
	notes = backport_map_notes(&m, idx[S2], &n);
	CHECK(n == 1 && notes && notes[0].problem == BACKPORT_NAMES_ITSELF);
	/* an id that is no commit */
	notes = backport_map_notes(&m, idx[S3], &n);
	CHECK(n == 1 && notes && notes[0].problem == BACKPORT_UNKNOWN_ID);
	/* two upstream commits: each counted, and said */
	notes = backport_map_notes(&m, idx[S4], &n);
	CHECK(n == 1 && notes && notes[0].problem == BACKPORT_SEVERAL);
	b = backport_map_of(&m, idx[C], &n);
	CHECK(n == 1 && b && b->commit == idx[S4]);
	/* A: through S4, and through S5, a backport of that backport */
	b = backport_map_of(&m, idx[A], &n);
	CHECK(n == 2 && b && b[0].commit == idx[S4] && b[1].commit == idx[S5]);
	/* S6 reverts "x: four" by subject: the newest such commit before it (S5) */
	CHECK(n == 2 && b[1].revert == idx[S6] && b[0].revert == PV_NONE);
	CHECK(backport_map_revert_of(&m, idx[S5]) == idx[S6]);
	CHECK(backport_map_revert_of(&m, idx[S4]) == PV_NONE);
	/* nothing else */
	CHECK(m.nr == 3 && m.nnotes == 4 && m.nreverts == 1);
	CHECK(backport_map_of(&m, idx[A2], &n) == NULL && n == 0);

	backport_map_free(&m);
	dag_free(&dag);
	git_repository_free(repo);
	{
		char *cmd = malloc(strlen(dir) + 16);
		sprintf(cmd, "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			CHECK(!"scratch removed");
		free(cmd);
	}
	return check_done();
}
