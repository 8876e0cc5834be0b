/*
 * gen-dag [--stable] DIR [COMMITS]: a deterministic, kernel-shaped history
 * of about COMMITS commits (default 1,010,000: over a million; with
 * --stable 1,310,000) in a new bare repository at DIR, written through
 * `git fast-import`.  Every commit has the empty tree, so
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
 *
 * --stable gives linux-stable's shape instead of the short stable series:
 *  - every fifth release a long-term series of 320 tags (40 commits each),
 *    the others 30 tags of 30 commits: 6,700 tags, 230,000 stable
 *    commits, the series written after mainline, dated after their release;
 *  - each stable commit names the mainline fix it carries as stable does
 *    ("commit <id> upstream.", one in 4 "[ Upstream commit <id> ]", one in
 *    50 "(cherry picked from commit <id>)"): fixes of the releases after
 *    its own, one in three of them;
 *  - one rc fix in eight says "Fixes: <id>" of a fix of the cycle before,
 *    one stable took: a fix of a culprit stable carries as a backport.
 * fast-import's get-mark gives the ids as the history is written.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CYCLES 70
#define RCS 7
#define STABLE_TAGS 13
#define TOPIC_LEN 19

struct fix {                    /* an rc fix of mainline */
	uint32_t mark;
	char id[41];
	int cycle;
};

struct gen {
	FILE *out, *in;             /* fast-import's commands; its get-mark answers */
	uint64_t rng;
	uint32_t mark;
	int64_t now;
	size_t commits, merges;
	bool stable_shape;
	struct fix *fixes;          /* --stable: every rc fix, by cycle */
	size_t nfixes, afixes;
	size_t tags;
	const char *extra;          /* the next commit's message trailer */
};

static uint32_t rnd(struct gen *g, uint32_t n)
{
	g->rng = g->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(g->rng >> 33) % n;
}

/* A commit on `from` (0: a root), merging `merge` (0: none).  Returns its mark. */
static uint32_t commit(struct gen *g, uint32_t from, uint32_t merge, const char *what, int64_t date)
{
	char msg[400];
	int n = snprintf(msg, sizeof(msg), "%s %zu\n\n%sSigned-off-by: Dev %u <dev%u@example.org>\n",
			 what, g->commits, g->extra ? g->extra : "", rnd(g, 500), rnd(g, 500));
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
	g->extra = NULL;
	return g->mark;
}

/* The id of a commit written: fast-import's get-mark, answered on g->in. */
static void mark_id(struct gen *g, uint32_t mark, char id[41])
{
	char line[64];

	fprintf(g->out, "get-mark :%u\n", mark);
	fflush(g->out);
	if (!fgets(line, sizeof(line), g->in) || strlen(line) < 41) {
		fprintf(stderr, "gen-dag: no answer from git fast-import\n");
		exit(1);
	}
	memcpy(id, line, 40);
	id[40] = '\0';
}

/* --stable: an rc fix; one in eight fixes a fix of the last cycle that stable took. */
static uint32_t rc_fix(struct gen *g, int c, uint32_t head)
{
	char trailer[128];
	struct fix *f;

	if (g->stable_shape && rnd(g, 8) == 0) {
		/* stable takes the fixes with (index % 3 == 0) of the cycles after its own */
		size_t lo = g->nfixes, n = 0, k;
		while (lo > 0 && g->fixes[lo - 1].cycle >= c - 1)
			lo--;
		while (lo + n < g->nfixes && g->fixes[lo + n].cycle == c - 1)
			n++;
		if (n >= 3) {
			k = lo + rnd(g, (uint32_t)(n / 3)) * 3;
			k += (3 - k % 3) % 3;
			if (k < lo + n) {
				snprintf(trailer, sizeof(trailer), "Fixes: %.12s (\"fix\")\n",
					 g->fixes[k].id);
				g->extra = trailer;
			}
		}
	}
	head = commit(g, head, 0, "fix", g->now += 600);
	if (!g->stable_shape)
		return head;
	if (g->nfixes == g->afixes) {
		g->afixes = g->afixes ? 2 * g->afixes : 4096;
		g->fixes = realloc(g->fixes, g->afixes * sizeof(*g->fixes));
		if (!g->fixes)
			exit(1);
	}
	f = &g->fixes[g->nfixes++];
	f->mark = head;
	f->cycle = c;
	mark_id(g, head, f->id);
	return head;
}

static void tag(struct gen *g, const char *name, uint32_t mark, int64_t date)
{
	char msg[64];
	int n = snprintf(msg, sizeof(msg), "Linux %s\n", name + 1);

	g->tags++;
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
			head = rc_fix(g, c, head);
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

/* The k-th fix stable takes for a series of cycle c: one in three of the later cycles'. */
static const struct fix *taken(struct gen *g, int c, size_t k)
{
	size_t first = 0, i;

	while (first < g->nfixes && g->fixes[first].cycle <= c)
		first++;
	i = first + (k * 3) % (g->nfixes - first ? g->nfixes - first : 1);
	i -= i % 3;     /* index % 3 == 0: rc_fix's Fixes: name only these */
	return i < first || i >= g->nfixes ? NULL : &g->fixes[i];
}

/* --stable: a series of linux-stable's shape, written after mainline. */
static void stable_series(struct gen *g, int c, uint32_t release, int64_t start)
{
	bool lts = c % 5 == 0;
	int ntags = lts ? 320 : 30, per = lts ? 40 : 30;
	uint32_t head = release;
	size_t k = 0;
	char name[48], trailer[160];

	for (int s = 1; s <= ntags; s++) {
		int64_t at = start + (int64_t)s * 7 * 86400;
		for (int j = 0; j < per; j++) {
			const struct fix *f = taken(g, c, k++);
			uint32_t form = rnd(g, 100);
			if (f)
				snprintf(trailer, sizeof(trailer),
					 form < 2 ? "(cherry picked from commit %s)\n" :
					 form < 27 ? "[ Upstream commit %s ]\n" : "commit %s upstream.\n",
					 f->id);
			g->extra = f ? trailer : NULL;
			head = commit(g, head, 0, f ? "Backport of an upstream fix" : "stable fix",
				      at + j * 60);
		}
		snprintf(name, sizeof(name), "v3.%d.%d", c, s);
		tag(g, name, head, at + 3600);
	}
	snprintf(name, sizeof(name), "refs/heads/linux-3.%d.y", c);
	branch(g, name, head);
}

static FILE *start_fast_import(const char *dir, FILE **answers)
{
	int cmd[2], ans[2];
	pid_t pid;

	if (pipe(cmd) < 0 || pipe(ans) < 0)
		return NULL;
	pid = fork();
	if (pid < 0)
		return NULL;
	if (pid == 0) {
		dup2(cmd[0], 0);
		dup2(ans[1], 3);
		close(cmd[1]);
		close(ans[0]);
		execlp("git", "git", "-C", dir, "fast-import", "--quiet", "--cat-blob-fd=3",
		       (char *)NULL);
		_exit(127);
	}
	close(cmd[0]);
	close(ans[1]);
	*answers = fdopen(ans[0], "r");
	return fdopen(cmd[1], "w");
}

int main(int argc, char **argv)
{
	struct gen g = { 0 };
	size_t total, per, stable_per = STABLE_TAGS * 30;
	char cmd[8200];
	uint32_t release, releases[CYCLES + 1];
	int64_t released[CYCLES + 1];
	int status;

	if (argc > 1 && !strcmp(argv[1], "--stable")) {
		g.stable_shape = true;
		argv++;
		argc--;
	}
	if (argc < 2 || strlen(argv[1]) > 4000) {
		fprintf(stderr, "usage: gen-dag [--stable] DIR [COMMITS]\n");
		return 2;
	}
	total = argc > 2 ? strtoul(argv[2], NULL, 10) : g.stable_shape ? 1310000 : 1010000;
	/* --stable: 14 long-term series of 320 x 40 commits, 56 of 30 x 30 */
	stable_per = g.stable_shape ? (14 * 320 * 40 + 56 * 30 * 30) / CYCLES : stable_per;
	per = total / CYCLES;
	snprintf(cmd, sizeof(cmd), "git init -q --bare '%s'", argv[1]);
	if (system(cmd) != 0 || !(g.out = start_fast_import(argv[1], &g.in)))
		return 1;
	g.rng = 20101213;
	g.now = 1104537600;   /* 2005-01-01 */
	release = commit(&g, 0, 0, "Initial import", g.now);
	tag(&g, "v3.0-rc1", release, g.now + 60);
	for (int c = 1; c <= CYCLES; c++) {
		uint32_t next = cycle(&g, c, release, per > stable_per ? per - stable_per : per);
		if (!g.stable_shape)
			stable(&g, c, next, g.now, 70 * 86400);
		releases[c] = release = next;
		released[c] = g.now;
	}
	for (int c = 1; g.stable_shape && c <= CYCLES; c++)
		stable_series(&g, c, releases[c], released[c]);
	branch(&g, "refs/heads/master", release);
	fprintf(g.out, "reset refs/heads/work\nfrom 0000000000000000000000000000000000000000\n\n");
	fclose(g.out);
	fclose(g.in);
	if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		fprintf(stderr, "gen-dag: git fast-import failed\n");
		return 1;
	}
	printf("%zu commits (%zu merges), %d release cycles, %zu tags\n", g.commits, g.merges,
	       CYCLES, g.tags);
	free(g.fixes);
	return 0;
}
