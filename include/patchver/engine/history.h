#ifndef PATCHVER_HISTORY_H
#define PATCHVER_HISTORY_H

#include <stdbool.h>
#include <git2.h>

#include "patchver/engine/cgraph.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/tags.h"

/*
 * A repository opened read-only, with its tags and the history below
 * them loaded once for every question of a run.
 */
struct history {
	git_repository *repo;
	struct dag dag;
	struct tag_table tags;
	struct cgraph graph;
	uint32_t tag_commits;   /* commits reachable from tags (dag prefix) */
};

struct history_opts {
	const char *path;           /* -C DIR, or NULL: what git would use (GIT_DIR, ...) */
	const char *release_glob;   /* which tags are releases */
};

/*
 * Open a repository so that nothing can be written to it: objects
 * libgit2 writes on its own (apply, write-tree) stay in memory.
 * 0 or EXIT_NOREPO (message printed).
 */
/* path NULL: from the environment (GIT_DIR, GIT_OBJECT_DIRECTORY, ...) as git. */
int history_open_repo(git_repository **repo, const char *path);

/* Returns 0 or an EXIT_* code (message printed). */
int history_open(struct history *h, const struct history_opts *opts);
void history_close(struct history *h);

/* Load the commits of every branch (refs/heads, refs/remotes) into the DAG. */
int history_load_branches(struct history *h);

/* The commit's subject line (caller frees), "" if unreadable. */
char *history_subject(const struct history *h, uint32_t commit);

/* The commit's full message (caller frees), NULL if unreadable. */
char *history_message(const struct history *h, uint32_t commit);

#endif
