/*
 * Cross-check: the blame of every preimage line a commit's diff touches
 * (fixblame_run at the commit's parent, our own walk on the DAG) names the
 * same commit as `git blame --porcelain -L` for that line.
 *
 *   test_fixblame REPO [STEP]    every STEP-th non-merge commit (default 1)
 */
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "check.h"
#include "patchver/engine/history.h"
#include "patchver/stable/fixblame.h"
#include "patchver/stable/patch.h"

/* The n-th "--- a/" path of a diff (fixblame_run numbers files that way). */
static char *nth_path(const char *diff, unsigned n)
{
	for (const char *p = diff; (p = strstr(p, "\n--- a/")); p++) {
		if (n-- == 0)
			return strndup(p + 7, strcspn(p + 7, "\n"));
	}
	return NULL;
}

/* git blame's commit for lines lo..hi of path at rev: shas[line - lo]. */
static int cli_blame(const char *repo, const char *rev, const char *path,
		     size_t lo, size_t hi, char (*shas)[41])
{
	char cmd[4096], buf[8192];
	FILE *f;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "git -C '%s' blame --porcelain -L %zu,%zu %s -- '%s'",
		 repo, lo, hi, rev, path);
	if (!(f = popen(cmd, "r")))
		return -1;
	while (fgets(buf, sizeof(buf), f)) {
		size_t orig, fin;
		if (strlen(buf) > 41 && buf[40] == ' ' &&
		    sscanf(buf + 41, "%zu %zu", &orig, &fin) == 2 &&
		    fin >= lo && fin <= hi) {
			memcpy(shas[fin - lo], buf, 40);
			shas[fin - lo][40] = '\0';
			n++;
		}
	}
	return pclose(f) == 0 ? n : -1;
}

static void check_commit(struct history *h, const char *repo, uint32_t c, uint32_t parent,
			 const char *diff, size_t *lines_checked)
{
	struct fixblame r;
	char rev[41];
	unsigned nfiles = 0;

	git_oid_tostr(rev, sizeof(rev), &h->dag.oids[parent]);
	CHECK(fixblame_run(h->repo, &h->dag, parent, diff, &r) == 0);
	for (size_t i = 0; i < r.nlines; i++)
		if (r.line[i].file + 1 > nfiles)
			nfiles = r.line[i].file + 1;
	for (unsigned file = 0; file < nfiles; file++) {
		char *path = nth_path(diff, file);
		size_t lo = SIZE_MAX, hi = 0;
		char (*shas)[41];

		for (size_t i = 0; i < r.nlines; i++) {
			if (r.line[i].file != file || r.line[i].commit == PV_NONE)
				continue;
			lo = r.line[i].line < lo ? r.line[i].line : lo;
			hi = r.line[i].line > hi ? r.line[i].line : hi;
		}
		if (!path || lo > hi) {
			free(path);
			continue;
		}
		shas = calloc(hi - lo + 1, sizeof(*shas));
		CHECK(cli_blame(repo, rev, path, lo, hi, shas) > 0);
		for (size_t i = 0; i < r.nlines; i++) {
			const struct blamed_line *l = &r.line[i];
			char ours[41];

			if (l->file != file || l->commit == PV_NONE)
				continue;
			git_oid_tostr(ours, sizeof(ours), &h->dag.oids[l->commit]);
			CHECK_STR(ours, shas[l->line - lo]);
			if (strcmp(ours, shas[l->line - lo]))
				fprintf(stderr, "  commit %s: %s:%zu\n",
					git_oid_tostr_s(&h->dag.oids[c]), path, l->line);
			(*lines_checked)++;
		}
		free(shas);
		free(path);
	}
	fixblame_free(&r);
}

int main(int argc, char **argv)
{
	struct history h;
	struct history_opts o = { argc > 1 ? argv[1] : ".", "v[0-9]*", HISTORY_INDEX_OFF, false, false, NULL };
	unsigned step = argc > 2 ? (unsigned)atoi(argv[2]) : 1, seen = 0;
	size_t commits = 0, lines = 0;

	git_libgit2_init();
	if (history_open(&h, &o) != 0)
		return 2;
	for (uint32_t c = 0; c < h.dag.nr; c++) {
		unsigned np;
		const uint32_t *p = dag_parents(&h.dag, c, &np);
		struct patch pt;

		if (!h.dag.loaded[c] || np != 1 || seen++ % step)
			continue;
		if (patch_from_commit(&pt, h.repo, &h.dag.oids[c]) < 0)
			continue;
		if (*pt.diff) {
			check_commit(&h, o.path, c, p[0], pt.diff, &lines);
			commits++;
		}
		patch_free(&pt);
	}
	printf("%zu commits, %zu lines blamed as git blames them\n", commits, lines);
	CHECK(commits > 20 && lines > 100);
	history_close(&h);
	git_libgit2_shutdown();
	return check_done();
}
