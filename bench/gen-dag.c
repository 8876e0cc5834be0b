/*
 * gen-dag DIR [COMMITS]: a deterministic, kernel-shaped history of about
 * COMMITS commits (default 1,010,000: over a million) in a new bare repository at DIR,
 * written through `git fast-import`.  Every commit has the empty tree, so
 * the repository stays small; the shape is what the naming benchmarks
 * need:
 *  - 70 release cycles (v3.0 ... v3.69): a merge window of topic branches
 *    forked at the last release and merged one by one (about 5% of the
 *    commits are merges), then rc1 ... rc7 with fixes and a few late
 *    merges, then the final tag;
 *  - a stable branch per release (linux-3.N.y) with 13 stable tags of
 *    backports, dated during the next cycle;
 *  - committer dates ten minutes apart, one commit in 150 dated days
 *    before its parent (clock skew, which git's name-rev cutoff sees);
 *  - about 1,500 annotated tags.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CYCLES 70
#define RCS 7
#define STABLE_TAGS 13
#define TOPIC_LEN 19

struct gen {
	FILE *out;
	uint64_t rng;
	uint32_t mark;
	int64_t now;
	size_t commits, merges;
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
	g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(g->rng >> 33) % n;
}

/* A commit on `from` (0: a root), merging `merge` (0: none).  Returns its mark. */
static uint32_t commit(struct gen *g, uint32_t from, uint32_t merge, const char *what, int64_t date)
{
	char msg[160];
	int n = snprintf(msg, sizeof(msg), "%s %zu\n\nSigned-off-by: Dev %u <dev%u@example.org>\n",
			 what, g->commits, rnd(g, 500), rnd(g, 500));
	int64_t when = date;

	if (rnd(g, 150) == 0)
		when -= 86400 * (2 + rnd(g, 4));   /* clock skew */
	fprintf(g->out, "commit refs/heads/work\nmark :%u\n"
		"author Dev <dev@example.org> %" PRId64 " +0000\n"
		"committer Dev <dev@example.org> %" PRId64 " +0000\ndata %d\n%s",
		++g->mark, when - 3600, when, n, msg);
	if (from)
		fprintf(g->out, "from :%u\n", from);
	if (merge) {
		fprintf(g->out, "merge :%u\n", merge);
		g->merges++;
	}
	fputc('\n', g->out);
	g->commits++;
	return g->mark;
}

static void tag(struct gen *g, const char *name, uint32_t mark, int64_t date)
{
	char msg[64];
	int n = snprintf(msg, sizeof(msg), "Linux %s\n", name + 1);

	fprintf(g->out, "tag %s\nfrom :%u\ntagger Maintainer <m@example.org> %" PRId64
		" +0000\ndata %d\n%s\n", name, mark, date, n, msg);
}

static void branch(struct gen *g, const char *ref, uint32_t mark)
{
	fprintf(g->out, "reset %s\nfrom :%u\n\n", ref, mark);
}

/* One cycle's mainline: merge window, rcs, final.  Returns the release's mark. */
static uint32_t cycle(struct gen *g, int c, uint32_t release, size_t budget)
{
	size_t topics = budget / (TOPIC_LEN + 1) * 9 / 10;
	uint32_t head = release;
	char name[32];

	for (size_t t = 0; t < topics; t++) {
		uint32_t tip = release;
		for (int k = 0; k < TOPIC_LEN; k++)
			tip = commit(g, tip, 0, "topic change", g->now += 600);
		if (head == release && t == 0)
			head = commit(g, release, tip, "Merge branch 'topic'", g->now += 600);
		else
			head = commit(g, head, tip, "Merge branch 'topic'", g->now += 600);
	}
	for (int rc = 1; rc <= RCS; rc++) {
		size_t fixes = budget / 10 / RCS;
		snprintf(name, sizeof(name), "v3.%d-rc%d", c, rc);
		tag(g, name, head, g->now + 60);
		for (size_t k = 0; k < fixes; k++)
			head = commit(g, head, 0, "fix", g->now += 600);
	}
	snprintf(name, sizeof(name), "v3.%d", c);
	tag(g, name, head, g->now + 60);
	return head;
}

/* The stable series of a release: backports, dated during the next cycle. */
static void stable(struct gen *g, int c, uint32_t release, int64_t start, int64_t span)
{
	uint32_t head = release;
	char name[48];

	for (int s = 1; s <= STABLE_TAGS; s++) {
		int64_t at = start + span * s / (STABLE_TAGS + 1);
		for (int k = 0; k < 30; k++)
			head = commit(g, head, 0, "Backport of an upstream fix", at + k * 60);
		snprintf(name, sizeof(name), "v3.%d.%d", c, s);
		tag(g, name, head, at + 3600);
	}
	snprintf(name, sizeof(name), "refs/heads/linux-3.%d.y", c);
	branch(g, name, head);
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	size_t total = argc > 2 ? strtoul(argv[2], NULL, 10) : 1010000;
	size_t per = total / CYCLES, stable_per = STABLE_TAGS * 30;
	char cmd[8200];
	uint32_t release;

	if (argc < 2 || strlen(argv[1]) > 4000) {
		fprintf(stderr, "usage: gen-dag DIR [COMMITS]\n");
		return 2;
	}
	snprintf(cmd, sizeof(cmd), "git init -q --bare '%s' && git -C '%s' fast-import --quiet",
		 argv[1], argv[1]);
	if (!(g.out = popen(cmd, "w")))
		return 1;
	g.rng = 20101213;
	g.now = 1104537600;   /* 2005-01-01 */
	release = commit(&g, 0, 0, "Initial import", g.now);
	tag(&g, "v3.0-rc1", release, g.now + 60);
	for (int c = 1; c <= CYCLES; c++) {
		uint32_t next = cycle(&g, c, release, per > stable_per ? per - stable_per : per);
		stable(&g, c, next, g.now, 70 * 86400);
		release = next;
	}
	branch(&g, "refs/heads/master", release);
	fprintf(g.out, "reset refs/heads/work\nfrom 0000000000000000000000000000000000000000\n\n");
	if (pclose(g.out) != 0) {
		fprintf(stderr, "gen-dag: git fast-import failed\n");
		return 1;
	}
	printf("%zu commits (%zu merges), %d release cycles, %d tags\n", g.commits, g.merges,
	       CYCLES, 1 + CYCLES * (RCS + 1 + STABLE_TAGS));
	return 0;
}
