#ifndef PATCHVER_ENGINE_HISTORY_H
#define PATCHVER_ENGINE_HISTORY_H

#include <stdbool.h>
#include <git2.h>

#include "patchver/engine/backscan.h"
#include "patchver/engine/cgraph.h"
#include "patchver/engine/dag.h"
#include "patchver/engine/relindex.h"
#include "patchver/engine/tags.h"

/*
 * How a run uses the release index (patchver's cache of per-commit
 * answers, see relindex.h).  Every mode but OFF uses a fresh index,
 * extends one that lacks new tags and rebuilds a damaged or stale one.
 */
enum history_index {
	HISTORY_INDEX_OFF,      /* --no-index: never read or write it */
	HISTORY_INDEX_USE,      /* one query: no index is not worth building */
	HISTORY_INDEX_BUILD,    /* bulk answers, walks of every commit, --index: build it if missing */
};

/* What happened to the index this run (patchver --index prints it). */
enum history_index_state {
	INDEX_UNUSED, INDEX_FRESH, INDEX_EXTENDED, INDEX_BUILT, INDEX_REBUILT,
};

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
	char *release_glob;     /* which tags are releases */
	bool lazy;              /* dag.lazy: tag_commits unknown, naming walks cut */
	bool graph_has_tags;    /* lazy, and git's commit-graph holds every tag's commit */

	/*
	 * The release index, when its dense ids are the DAG's: read (the DAG
	 * then borrows its arrays) or computed from the DAG this run.
	 */
	struct relindex ix;
	bool have_ix;
	struct relindex old_ix;     /* an extended index the DAG still borrows */
	char *ix_path;
	enum history_index_state ix_state;
	bool ix_saved;              /* written to ix_path */
	/*
	 * The saved index knows the tag refs' files as they are (reffiles.h's
	 * digest and which tags are loose): quick queries skip parsing
	 * packed-refs' tag lines.
	 */
	bool ix_refs_known;
	bool branches_loaded;       /* history_load_branches() ran */
	backmap_patchid_fn patch_id;    /* history_opts' */
};

struct history_opts {
	const char *path;           /* -C DIR, or NULL: what git would use (GIT_DIR, ...) */
	const char *release_glob;   /* which tags are releases */
	enum history_index index;
	/*
	 * Only a few answers: without a fresh index, parse commits as the
	 * walks reach them, not the whole history.  Names come from git's cut
	 * walk; containment (first release, tags) from walks over git's
	 * commit-graph positions when the graph holds every tag's commit,
	 * else from git's own depth-first walk from the tags (contain.h).
	 */
	bool lazy_ok;
	/*
	 * Objects are read from all over the pack (an audit): map it in small
	 * windows, a bounded total, instead of libgit2's one window of up to
	 * 1 GiB that leaves a kernel's whole pack resident.
	 */
	bool scan_pack;
	/*
	 * The patch-id of a commit (its ctx: the history), for the stable
	 * backports naming no upstream commit an index keeps (backscan.h):
	 * the stable layer's, given here by whoever opens the history.  NULL:
	 * an index built by this run holds only the named ones.
	 */
	backmap_patchid_fn patch_id;
};

/*
 * Open a repository so that nothing can be written to it: objects
 * libgit2 writes on its own (apply, write-tree) stay in memory.
 * 0, or PV_ENOREPO / PV_EINTERNAL (message recorded, error.h).
 */
/* path NULL: from the environment (GIT_DIR, GIT_OBJECT_DIRECTORY, ...) as git. */
int history_open_repo(git_repository **repo, const char *path);

/* Returns 0 or a PV_E* code (message recorded); warnings go to notices (notice.h). */
int history_open(struct history *h, const struct history_opts *opts);
void history_close(struct history *h);

/* The release index when it describes the DAG's commits, else NULL. */
static inline const struct relindex *history_index(const struct history *h)
{
	return h->have_ix ? &h->ix : NULL;
}

/*
 * Load the commits of every branch (refs/heads, refs/remotes) into the
 * DAG.  0, or the first failure (PV_ENOREPO, PV_ECORRUPT: a branch whose
 * history is broken is left out, the others loaded); the triage and the
 * audit go on without what failed.  Once per history: later calls return 0.
 */
int history_load_branches(struct history *h);

/* The commit's subject line (caller frees), "" if unreadable. */
char *history_subject(const struct history *h, uint32_t commit);

/* The commit's full message (caller frees), NULL if unreadable. */
char *history_message(const struct history *h, uint32_t commit);

#endif
