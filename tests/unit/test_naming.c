/*
 * Unit tests: git's name of a commit (naming.h, over namewalk.c's walk and
 * namechain.c's names), against `git name-rev --tags --name-only` on every
 * STEP-th commit of a fixture history, loaded whole and lazily (git's
 * date cutoff), and the tag object named by its ref.
 *
 *   test_naming REPO [STEP]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "check.h"
#include "fixture.h"
#include "patchver/base/error.h"
#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/engine/naming.h"

/* git name-rev's answers for ids, each asked alone, in order. */
static char **git_names(const char *repo, char **ids, size_t n)
{
	char path[] = "/tmp/patchver-naming.XXXXXX", *cmd, line[512];
	char **out = calloc(n + 1, sizeof(*out));
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL, *p;

	if (!f)
		return out;
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\n", ids[i]);
	fclose(f);
	cmd = malloc(strlen(repo) + strlen(path) + 128);
	/* one rev a run: with several, git cuts its walk by the oldest of them */
	sprintf(cmd, "xargs -n1 git -C '%s' name-rev --tags --name-only < '%s'", repo, path);
	if ((p = popen(cmd, "r"))) {
		for (size_t i = 0; i < n && fgets(line, sizeof(line), p); i++) {
			line[strcspn(line, "\n")] = '\0';
			out[i] = strdup(line);
		}
		pclose(p);
	}
	remove(path);
	free(cmd);
	return out;
}

static int run(const char *repo, bool lazy, uint32_t step)
{
	struct history h;
	struct naming nm;
	char **ids, **want;
	uint32_t *commits;
	size_t n = 0;

	if (fixture_open(&h, repo, lazy) < 0)
		return -1;
	ids = calloc((size_t)h.dag.nr + 1, sizeof(*ids));
	commits = calloc((size_t)h.dag.nr + 1, sizeof(*commits));
	for (uint32_t i = 0; i < h.dag.nr; i += lazy ? 1 : step) {
		if (!lazy && !h.dag.loaded[i])
			continue;
		ids[n] = malloc(GIT_OID_HEXSZ + 1);
		git_oid_tostr(ids[n], GIT_OID_HEXSZ + 1, &h.dag.oids[i]);
		commits[n++] = i;
	}
	want = git_names(repo, ids, n);
	naming_init(&nm, &h, NULL);
	for (size_t i = 0; i < n; i++) {
		struct sbuf name = SBUF_INIT;
		bool named;

		/* as rev_resolve leaves it: the commit itself parsed */
		CHECK(dag_parse(&h.dag, commits[i]) == 0);
		CHECK(naming_name(&nm, commits[i], &name, &named) == 0);

		CHECK_STR(named ? sbuf_str(&name) : "undefined", want[i]);
		if (strcmp(named ? sbuf_str(&name) : "undefined", want[i] ? want[i] : ""))
			fprintf(stderr, "  commit %s (%s load, asked %zu of %zu)\n", ids[i], lazy ? "lazy" : "whole", i + 1, n);
		sbuf_free(&name);
	}
	CHECK(n > 3);
	/* an annotated tag's object: named by its ref */
	for (size_t i = 0; i < h.tags.nr; i++) {
		const struct tag *t = &h.tags.v[i];
		struct sbuf name = SBUF_INIT;

		if (t->commit == PV_NONE || git_oid_equal(&t->target, &h.dag.oids[t->commit]))
			continue;
		CHECK(naming_exact(&nm, &t->target, &name));
		CHECK_STR(sbuf_str(&name), t->shortname);
		sbuf_free(&name);
		break;
	}
	naming_free(&nm);
	for (size_t i = 0; i < n; i++) {
		free(ids[i]);
		free(want[i]);
	}
	free(ids);
	free(want);
	free(commits);
	history_close(&h);
	return 0;
}

int main(int argc, char **argv)
{
	return fixture_main(argc, argv, "test_naming REPO [STEP]", run);
}
