/*
 * bench/unbuilt: which source files a configuration compiles, as the
 * lab's plan reads it (lab/kobj, lab/kdeps), at one revision of a kernel
 * repository.
 *
 *   bench-unbuilt [--built-only] REPO REV CONFIG < paths
 *
 * CONFIG: a .config (the lab's, from a build's images/<key>/config).  For
 * each path on standard input: "built\tPATH", or "unbuilt\tPATH\tLINE"
 * (--built-only: "unbuilt\tPATH", no Kconfig read: for thousands of paths).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <git2.h>

#include "patchver/base/util.h"
#include "patchver/lab/kobj.h"
#include "patchver/lab/unbuilt.h"

int main(int argc, char **argv)
{
	struct unbuilt_tree r = { NULL, NULL };
	git_object *obj = NULL;
	char path[4096], *config;
	bool only = argc == 5 && !strcmp(argv[1], "--built-only");

	argv += only;
	argc -= only;
	if (argc != 4) {
		fprintf(stderr, "usage: bench-unbuilt [--built-only] REPO REV CONFIG < paths\n");
		return 2;
	}
	git_libgit2_init();
	if (git_repository_open(&r.repo, argv[1]) < 0 ||
	    git_revparse_single(&obj, r.repo, argv[2]) < 0 ||
	    git_object_peel((git_object **)&r.tree, obj, GIT_OBJECT_TREE) < 0 ||
	    !(config = file_read(argv[3], NULL))) {
		fprintf(stderr, "bench-unbuilt: cannot read %s at %s, or %s\n", argv[1], argv[2],
			argv[3]);
		return 1;
	}
	while (fgets(path, sizeof(path), stdin)) {
		char *line;
		path[strcspn(path, "\n")] = '\0';
		if (!*path)
			continue;
		if (only) {
			struct kobj_need need;
			char **missing;
			kobj_needs(unbuilt_read, &r, path, &need);
			line = kobj_built(&need, config, &missing) ? NULL : xstrdup("");
			strv_free(missing);
			kobj_need_free(&need);
		} else {
			line = kobj_unbuilt_line(unbuilt_read, &r, path, config);
		}
		if (line)
			printf("unbuilt\t%s%s%s\n", path, *line ? "\t" : "", line);
		else
			printf("built\t%s\n", path);
		free(line);
	}
	free(config);
	git_tree_free(r.tree);
	git_object_free(obj);
	git_repository_free(r.repo);
	git_libgit2_shutdown();
	return 0;
}
