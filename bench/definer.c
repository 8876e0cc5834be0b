/*
 * bench-definer REPO OLD NEW KIND NAME [NEAR]: what a backport from NEW's
 * child to OLD is missing, found as --verify-boot finds it: the file of
 * NEW's tree that defines NAME (stable/definer.c; NEAR: the file that
 * failed, looked at first), then the commit of OLD..NEW that brought NAME
 * into it.  KIND: function, identifier, member:STRUCT, type, header.
 * Prints "file commit seconds-for-file seconds-for-commit" (a "-" for
 * what is not found); bench/definer runs it beside git grep and git log -S.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "patchver/engine/gitstart.h"
#include "patchver/engine/history.h"
#include "patchver/stable/definer.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int commit_of(git_repository *repo, const char *spec, git_oid *out)
{
	git_object *o = NULL, *c = NULL;
	int ret = git_revparse_single(&o, repo, spec) < 0 || git_object_peel(&c, o, GIT_OBJECT_COMMIT) < 0;

	if (!ret)
		*out = *git_object_id(c);
	git_object_free(c);
	git_object_free(o);
	return ret;
}

int main(int argc, char **argv)
{
	struct history_opts o = { .release_glob = "v[0-9]*" };
	struct definer_query q = { DEFINER_FUNCTION, NULL, NULL, NULL };
	struct history h;
	git_oid old, new, found;
	git_commit *c = NULL;
	double t0, t1, t2;
	char *file;
	int ret;

	if (argc < 6) {
		fprintf(stderr, "usage: bench-definer REPO OLD NEW KIND NAME [NEAR]\n");
		return 2;
	}
	o.path = argv[1];
	q.name = argv[5];
	q.near = argc > 6 ? argv[6] : NULL;
	if (!strcmp(argv[4], "identifier"))
		q.kind = DEFINER_IDENTIFIER;
	else if (!strcmp(argv[4], "type"))
		q.kind = DEFINER_TYPE;
	else if (!strcmp(argv[4], "header"))
		q.kind = DEFINER_HEADER;
	else if (!strncmp(argv[4], "member:", 7)) {
		q.kind = DEFINER_MEMBER;
		q.container = argv[4] + 7;
	}
	git_libgit2_init();
	gitstart_init();
	if (history_open(&h, &o) || commit_of(h.repo, argv[2], &old) || commit_of(h.repo, argv[3], &new) ||
	    git_commit_lookup(&c, h.repo, &new) < 0) {
		fprintf(stderr, "bench-definer: cannot open %s at %s..%s\n", argv[1], argv[2], argv[3]);
		return 1;
	}
	t0 = now();
	file = definer_file(h.repo, git_commit_tree_id(c), &q);
	t1 = now();
	ret = file ? definer_commit(&h.dag, &old, &new, file, &q, &found) : -1;
	t2 = now();
	printf("%s %s %.3f %.3f\n", file ? file : "-", ret ? "-" : git_oid_tostr_s(&found), t1 - t0,
	       t2 - t1);
	free(file);
	git_commit_free(c);
	history_close(&h);
	git_libgit2_shutdown();
	return 0;
}
