/*
 * The release index's top masks against git: for every commit below the
 * tags, the bits of the top-level names `git log --diff-merges=first-parent
 * --name-only` lists for it (the first component of each changed path)
 * are exactly the bits of its mask.  The index is built in the cache the
 * test's environment names.
 *
 *   test_topmask REPO
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "check.h"
#include "patchver/engine/history.h"
#include "patchver/engine/treepath.h"

/* Compares the mask of the commit of the last ">" line; returns 1 if compared. */
static int compare(const struct history *h, const char *hex, uint64_t want)
{
	git_oid oid;
	uint32_t c;

	if (!*hex)
		return 0;
	CHECK(git_oid_fromstr(&oid, hex) == 0);
	c = dag_find((struct dag *)&h->dag, &oid);
	CHECK(c != PV_NONE && c < h->dag.topmask_nr);
	if (c == PV_NONE || c >= h->dag.topmask_nr)
		return 0;
	if (h->dag.topmask[c] != want)
		fprintf(stderr, "%s: mask %016llx, git's names give %016llx\n", hex,
			(unsigned long long)h->dag.topmask[c], (unsigned long long)want);
	CHECK(h->dag.topmask[c] == want);
	return 1;
}

int main(int argc, char **argv)
{
	struct history h;
	struct history_opts o = { argc > 1 ? argv[1] : ".", "v[0-9]*", HISTORY_INDEX_BUILD, false, false, NULL };
	char *cmd, line[4096], hex[GIT_OID_HEXSZ + 1] = "";
	size_t compared = 0, listed = 0;
	uint64_t want = 0;
	FILE *git;

	git_libgit2_init();
	if (history_open(&h, &o) != 0)
		return 2;
	CHECK(h.dag.topmask != NULL && h.dag.topmask_nr == h.tag_commits);
	cmd = xstrfmt("git -C '%s' -c core.quotePath=false log --tags --diff-merges=first-parent --no-renames "
		      "--name-only --format='>%%H'", o.path);
	git = popen(cmd, "r");
	CHECK(git != NULL);
	while (git && fgets(line, sizeof(line), git)) {
		size_t len = strcspn(line, "\n");

		line[len] = '\0';
		if (line[0] == '>') {
			compared += compare(&h, hex, want);
			listed++;
			snprintf(hex, sizeof(hex), "%.40s", line + 1);
			want = 0;
		} else if (len) {
			want |= treepath_top_bit(line, strcspn(line, "/"));
		}
	}
	compared += compare(&h, hex, want);
	CHECK(git && pclose(git) == 0);
	CHECK(listed > 0 && compared == listed && listed == h.tag_commits);
	printf("topmask: %zu of %zu commits as git lists their names\n", compared, listed);
	free(cmd);
	history_close(&h);
	git_libgit2_shutdown();
	return check_done();
}
