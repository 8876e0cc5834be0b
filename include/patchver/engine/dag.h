#ifndef PATCHVER_ENGINE_DAG_H
#define PATCHVER_ENGINE_DAG_H

#include <stdbool.h>
#include <stdint.h>
#include <git2/oid.h>
#include <git2/types.h>  /* types only: the front never calls libgit2 */

#include "patchver/base/util.h"
#include "patchver/engine/replace.h"

/*
 * The commit graph of a repository, as dense indices: every commit that a
 * query touches gets a small integer, and parents, committer dates and
 * (on demand) children are plain arrays indexed by it.  Walks over
 * hundreds of thousands of commits then cost array reads, not hash
 * lookups or libgit2 object parsing.
 */
struct cgraph;
struct objstore;

struct dag {
	git_odb *odb;             /* borrowed from the repository */
	/* the object files read directly (objstore.h), opened on the first read */
	char *objdir;
	struct objstore *store;
	bool store_tried;
	uint32_t reads;           /* commits read before the store was tried */
	struct sbuf buf;
	uint32_t nr, alloc;
	git_oid *oids;
	int64_t *dates;           /* committer date, as git's commit->date */
	git_oid *trees;           /* root tree of each loaded commit */
	uint32_t *par_off;        /* first parent in parents[] */
	uint16_t *par_nr;
	bool *loaded;             /* header parsed, parents known */
	uint32_t *parents;
	size_t parents_nr, parents_alloc;

	uint32_t *slots;          /* open addressing: oid -> index + 1 */
	size_t nslots;

	uint32_t *by_oid;         /* indices sorted by oid, for prefixes */
	uint32_t by_oid_nr;

	uint32_t *child_off;      /* children CSR, built on demand */
	uint32_t *children;
	uint32_t children_nr;     /* commits covered by child_off */

	/*
	 * Top masks (treepath.h) of the commits below topmask_nr, borrowed
	 * from a release index: which top-level names each one changes.
	 */
	const uint64_t *topmask;
	uint32_t topmask_nr;

	/* git's commit-graph, when there is one: headers without object reads */
	const struct cgraph *graph;
	uint32_t *graph_pos;      /* per commit: 0 unknown, else see dag_graph_pos() */
	uint32_t graph_pos_nr;

	bool borrowed;            /* oids .. slots belong to a release index */
	bool lazy;                /* commits parsed only as walks reach them */

	git_oid *shallow;         /* .git/shallow: commits shown parentless */
	size_t shallow_nr;
	bool hit_shallow;         /* a walk reached a shallow boundary */

	/*
	 * Replace refs and grafts (replace.h): a commit's header is read from
	 * its replacement and its parents are its graft's, as git sees them.
	 * git's commit-graph is then not read, nor data read by others.
	 */
	struct replace_map replaced;
};

/*
 * An empty DAG of repo's commits, its replace refs and grafts read.  0,
 * PV_ENOREPO (no object database) or PV_ECORRUPT (unreadable replace refs).
 */
int dag_init(struct dag *dag, git_repository *repo);

/* The object files read directly (objstore.h), opened on first use; NULL if unusable. */
struct objstore *dag_store(struct dag *dag);

/* Where dag_find starts probing for oid in a table of nslots (a power of 2). */
static inline size_t dag_slot_of(const unsigned char *oid, size_t nslots)
{
	uint64_t h;

	__builtin_memcpy(&h, oid, sizeof(h));
	return (size_t)h & (nslots - 1);
}

/* A loaded DAG as plain arrays (a release index holds one). */
struct dag_arrays {
	uint32_t nr;
	const git_oid *oids;
	const int64_t *dates;
	const git_oid *trees;     /* root trees */
	const uint64_t *topmask;  /* top masks (treepath.h), or NULL */
	const uint32_t *par_off;
	const uint16_t *par_nr;
	const uint32_t *parents;
	size_t nparents;
	const uint32_t *slots;    /* dag_find's hash table */
	size_t nslots;
};

/*
 * Use a's arrays as they are (every commit loaded, root trees included),
 * copying nothing; the DAG makes its own copy the first time a commit is
 * added.  a must outlive the DAG.
 */
void dag_borrow(struct dag *dag, const struct dag_arrays *a);

/* The DAG's own arrays, as a release index keeps them. */
void dag_arrays(const struct dag *dag, struct dag_arrays *a);
void dag_free(struct dag *dag);

/* Room for n commits, so that loading them does not grow the tables step by step. */
void dag_reserve(struct dag *dag, uint32_t n);

/* Index of oid, adding it (not yet loaded) if new. */
uint32_t dag_intern(struct dag *dag, const git_oid *oid);
/* Index of oid, or PV_NONE. */
uint32_t dag_find(const struct dag *dag, const git_oid *oid);

/*
 * Parse commit idx and all its ancestors not loaded yet.  Returns 0, or
 * PV_ECORRUPT when an object is missing or not a commit (the message is
 * libgit2's, whose error stays set too).
 */
int dag_load(struct dag *dag, uint32_t idx);

/*
 * Parse commit idx alone (its parents interned, not parsed): for walks
 * that stop early and must not read the whole history.  0 or PV_ECORRUPT.
 */
int dag_parse(struct dag *dag, uint32_t idx);

/*
 * A lazy DAG: parse commit idx from data already read (a prefix of its
 * object, used only if it holds the whole header), as dag_parse would.
 * Peeling reads the tags' commits; this spares the walks a second read.
 * A DAG that loads whole histories keeps "loaded" for commits whose
 * ancestors are loaded too, so it ignores this.
 */
void dag_parse_data(struct dag *dag, uint32_t idx, const char *data, size_t len);

static inline const uint32_t *dag_parents(const struct dag *dag, uint32_t i,
					  unsigned *n)
{
	*n = dag->par_nr[i];
	return dag->parents + dag->par_off[i];
}

/*
 * Commit idx's position in git's commit-graph (dag->graph), PV_NONE
 * when there is none or it lacks the commit.  Kept per commit: a commit
 * read from the graph gives its parents' positions, where looking them up
 * by id would be a binary search each.
 */
uint32_t dag_graph_pos(struct dag *dag, uint32_t idx);
/* Record commit idx's graph position, found by its id (PV_NONE: not in the graph). */
void dag_note_graph_pos(struct dag *dag, uint32_t idx, uint32_t pos);

/*
 * Commits of the graph whose hex id starts with prefix (lower case).
 * Writes at most max indices to out, returns how many match.
 */
size_t dag_find_prefix(struct dag *dag, const char *prefix, uint32_t *out,
		       size_t max);

/*
 * Every ancestor of the start commits, themselves included, as a mask of
 * dag->nr + 1 entries (loading what is not loaded yet).  Caller frees.
 */
bool *dag_ancestors(struct dag *dag, const uint32_t *starts, size_t n);

/* Build (or extend) the children lists for every loaded commit. */
int dag_build_children(struct dag *dag);

static inline const uint32_t *dag_children(const struct dag *dag, uint32_t i,
					   unsigned *n)
{
	*n = dag->child_off[i + 1] - dag->child_off[i];
	return dag->children + dag->child_off[i];
}

/*
 * An order of all loaded commits in which every commit comes before its
 * parents (newest first).  Caller frees.
 */
uint32_t *dag_topo_order(const struct dag *dag);

/* For every commit, the oldest committer date on it or a descendant. */
int64_t *dag_min_desc_dates(const struct dag *dag);

/*
 * Commit idx's message (its replacement's, as git shows it), read from the
 * object files without libgit2 when they can say; NULL if unreadable.
 */
char *dag_message(struct dag *dag, uint32_t idx);

#endif
