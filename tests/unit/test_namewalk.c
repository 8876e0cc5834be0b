/*
 * Unit tests: namewalk.c's walk alone, against `git name-rev --all`, which
 * names every commit without a date cutoff: from every tag, and from the
 * tags one pattern keeps (git's --refs, as describe --match asks); and
 * the cutoff git takes for a commit's date.
 *
 *   test_namewalk REPO
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fnmatch.h>

#include <git2.h>

#include "check.h"
#include "fixture.h"
#include "patchver/engine/namewalk.h"

/* Walk from the tags whose ref matches pattern (NULL: all); compare every commit git names. */
static void against_git(const char *repo, struct history *h, const char *pattern)
{
	uint32_t *tips = calloc(h->tags.nr + 1, sizeof(*tips));
	size_t ntips = 0, compared = 0;
	char cmd[1024], line[512];
	struct namewalk nr;
	FILE *p;

	for (uint32_t i = 0; i < h->tags.nr; i++)
		if (!pattern || fnmatch(pattern, h->tags.v[i].refname, 0) == 0)
			tips[ntips++] = i;
	namewalk_walk(&nr, &h->dag, &h->tags, tips, ntips, NAMEWALK_NO_CUTOFF);
	snprintf(cmd, sizeof(cmd), "git -C '%s' name-rev --tags %s%s%s --all", repo,
		 pattern ? "--refs='" : "", pattern ? pattern : "", pattern ? "'" : "");
	p = popen(cmd, "r");
	while (p && fgets(line, sizeof(line), p)) {
		char *name = strchr(line, ' ');
		struct sbuf got = SBUF_INIT;
		git_oid oid;
		uint32_t c;

		line[strcspn(line, "\n")] = '\0';
		if (!name || git_oid_fromstrn(&oid, line, (size_t)(name - line)) < 0)
			continue;
		name++;
		/* without --name-only git says tags/<name> */
		if (!strncmp(name, "tags/", 5))
			name += 5;
		c = dag_find(&h->dag, &oid);
		if (c == PV_NONE) {
			/* no tag reaches it: the history did not load it, git names it nothing */
			CHECK_STR(name, "undefined");
			continue;
		}
		CHECK_STR(namewalk_name(&nr, c, &got) ? sbuf_str(&got) : "undefined", name);
		sbuf_free(&got);
		compared++;
	}
	if (p)
		pclose(p);
	/*
	 * --all lists the commits git's walk met: from every tag, each commit
	 * of the history; from a pattern's, some (a test that compared nothing
	 * proves nothing)
	 */
	CHECK(pattern ? compared > 0 : compared == h->dag.nr);
	if (!pattern && compared != h->dag.nr)
		fprintf(stderr, "compared %zu of %u commits\n", compared, h->dag.nr);
	namewalk_free(&nr);
	free(tips);
}

static void cutoffs(void)
{
	CHECK(namewalk_cutoff_for(0) == NAMEWALK_NO_CUTOFF);
	CHECK(namewalk_cutoff_for(1000000) == 1000000 - 86400);
	CHECK(namewalk_cutoff_for(INT64_MIN + 5) == INT64_MIN);
}

int main(int argc, char **argv)
{
	struct history h;
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: test_namewalk REPO\n");
		return 2;
	}
	gitstart_init();
	if (fixture_open(&h, argv[1], false) < 0)
		return 2;
	against_git(argv[1], &h, NULL);
	against_git(argv[1], &h, "refs/tags/v2.6.33*");
	against_git(argv[1], &h, "refs/tags/*-rc*");
	cutoffs();
	history_close(&h);
	ret = check_done();
	gitstart_shutdown();
	return ret;
}
