#ifndef PATCHVER_ENGINE_TREEPATH_H
#define PATCHVER_ENGINE_TREEPATH_H

#include <stdbool.h>
#include <git2.h>

#include "patchver/engine/cgraph.h"
#include "patchver/engine/dag.h"

/*
 * "Does this commit touch that file?" for every commit of a history:
 * the object a path names in a tree, read from raw tree objects and
 * cached by tree id, so that commits sharing a subtree share the work.
 * This is the path limiting of `git log -- PATH`, first parents only.
 */
struct treepath_cache {
	git_odb *odb;
	struct objstore *store;     /* the DAG's, if already open */
	struct tp_slot {
		git_oid tree;
		uint32_t depth;         /* which path component was looked up */
		git_oid result;         /* zero oid: absent */
		bool used;
	} *slots;
	size_t nslots, nr;
	const char *path;           /* the path this cache answers for */
	uint64_t top_bit;           /* its first component's, for top masks */
	struct cgraph_path_key key; /* for git's Bloom filters, made on first use */
};

void treepath_init(struct treepath_cache *c, struct dag *dag, const char *path);
void treepath_free(struct treepath_cache *c);

/* The object at c->path in tree; false if absent. */
bool treepath_lookup(struct treepath_cache *c, const git_oid *tree, git_oid *out);

/*
 * Does commit i (loaded) change c->path against its first parent?  git's
 * changed-path Bloom filters answer "no" without a tree read when the
 * commit-graph has them.
 */
bool treepath_touches(struct treepath_cache *c, const struct dag *dag, uint32_t i);

/*
 * A commit's top mask: a bit for each top-level name whose entry differs
 * from its first parent's (a release index keeps one per commit).  A
 * commit without a name's bit does not touch anything under that name.
 */
static inline uint64_t treepath_top_bit(const char *name, size_t len)
{
	return 1ull << (fnv1a(name, len) >> 58);
}

/* Root trees read for top masks, the last few kept: a parent's is the next child's. */
struct tree_memo {
	git_odb *odb;
	struct objstore *store;     /* when set, trees come from it and no memo is kept */
	git_odb_object *obj[4];
	unsigned next;
};

/* The top mask of tree against parent (NULL: a root commit): 0, or PV_ECORRUPT if unreadable. */
int treepath_top_mask(struct tree_memo *m, const git_oid *parent, const git_oid *tree,
		      uint64_t *mask);
void tree_memo_free(struct tree_memo *m);

/* A path whose entry differs between two trees; a zero id: absent there. */
struct tree_change {
	char *path;
	git_oid old, new;
};

/*
 * The paths whose entries differ between trees a and b (NULL: the empty
 * tree), recursing only into subtrees whose ids differ, as git's tree diff
 * does without rename detection (modes compared as git canonicalises
 * them).  Stops after max + 1 paths.  Returns how many were found (at most
 * max + 1), PV_ECORRUPT if a tree cannot be read; *out (may be NULL) gets them,
 * freed with treepath_changes_free().
 */
int treepath_changed(git_odb *odb, const git_oid *a, const git_oid *b, size_t max,
		     struct tree_change **out);
void treepath_changes_free(struct tree_change *v, int n);

#endif
